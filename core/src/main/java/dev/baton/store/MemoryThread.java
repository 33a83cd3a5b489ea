package dev.baton.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A memory thread: one conversation, owned by one resource (typically a user). Part of the memory
 * SPI ({@link MemoryStore}) and what {@code Memory} returns to applications.
 *
 * <p>The metadata is JSON text in the SPI ({@link #metadataJson()}, stored and returned verbatim),
 * and a fresh {@link ObjectNode} for applications ({@link #metadata()}, a copy). Built with
 * {@link #builder()} or {@link #toBuilder()}. Immutable and thread-safe.
 */
public final class MemoryThread {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String id;
    private final @Nullable String resourceId;
    private final @Nullable String title;
    private final String metadataJson;
    private final Instant createdAt;
    private final Instant updatedAt;

    private MemoryThread(Builder b) {
        if (b.id == null || b.id.isEmpty()) throw new IllegalArgumentException("a thread id is required and must not be empty");
        if (b.createdAt == null) throw new IllegalArgumentException("createdAt is required in a MemoryThread");
        if (b.updatedAt == null) throw new IllegalArgumentException("updatedAt is required in a MemoryThread");
        this.id = b.id;
        this.resourceId = b.resourceId;
        this.title = b.title;
        this.metadataJson = b.metadataJson;
        parseObject(metadataJson, id);
        this.createdAt = b.createdAt.truncatedTo(ChronoUnit.MILLIS);
        this.updatedAt = b.updatedAt.truncatedTo(ChronoUnit.MILLIS);
    }

    private static ObjectNode parseObject(String json, String threadId) {
        try {
            JsonNode n = JSON.readTree(json);
            if (n instanceof ObjectNode o) return o;
        } catch (JsonProcessingException e) {
            // reported below
        }
        throw new IllegalArgumentException("metadata of thread '" + threadId + "' must be a JSON object, was: "
                + (json.length() > 80 ? json.substring(0, 80) + "..." : json));
    }

    /** {@return a builder for a new thread; metadata defaults to {@code {}}} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding every field of this thread} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.id = id;
        b.resourceId = resourceId;
        b.title = title;
        b.metadataJson = metadataJson;
        b.createdAt = createdAt;
        b.updatedAt = updatedAt;
        return b;
    }

    /**
     * {@return the thread id (a run's {@code threadId}) as {@code Memory} returns it; at the SPI, the key
     * the store keeps the thread under ({@link MemoryStore}, "Thread keys"); stored and matched literally}
     */
    public String id() { return id; }

    /** {@return the owner: thread ids are scoped by it, runs of other resources never see the thread; null for a thread with no owner} */
    public @Nullable String resourceId() { return resourceId; }

    /** {@return a title for people, or null} */
    public @Nullable String title() { return title; }

    /** {@return the application's metadata, a JSON object as text, stored and returned verbatim (the SPI's form)} */
    public String metadataJson() { return metadataJson; }

    /** {@return the application's metadata as a JSON object: a copy, changing it changes nothing else} */
    public ObjectNode metadata() { return parseObject(metadataJson, id); }

    /** {@return when it was created (milliseconds)} */
    public Instant createdAt() { return createdAt; }

    /** {@return when it or its messages last changed (milliseconds); threads are listed newest update first} */
    public Instant updatedAt() { return updatedAt; }

    /**
     * A copy with a new title, metadata and update time.
     *
     * @param newTitle        the title, or null
     * @param newMetadataJson the metadata, a JSON object as text
     * @param at              the update time
     * @return the copy
     */
    public MemoryThread updated(@Nullable String newTitle, String newMetadataJson, Instant at) {
        return toBuilder().title(newTitle).metadataJson(newMetadataJson).updatedAt(at).build();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof MemoryThread t)) return false;
        return id.equals(t.id) && Objects.equals(resourceId, t.resourceId) && Objects.equals(title, t.title)
                && metadataJson.equals(t.metadataJson) && createdAt.equals(t.createdAt) && updatedAt.equals(t.updatedAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, resourceId, title, metadataJson, createdAt, updatedAt);
    }

    @Override
    public String toString() {
        return "MemoryThread[id=" + id + ", resourceId=" + resourceId + ", title=" + title + ", metadata=" + metadataJson
                + ", createdAt=" + createdAt + ", updatedAt=" + updatedAt + "]";
    }

    /** Builder of {@link MemoryThread}; {@link #build()} checks it. Not thread-safe. */
    public static final class Builder {
        private @Nullable String id;
        private @Nullable String resourceId;
        private @Nullable String title;
        private String metadataJson = "{}";
        private @Nullable Instant createdAt;
        private @Nullable Instant updatedAt;

        private Builder() {
        }

        /**
         * @param id the thread id (required, not empty)
         * @return this builder
         */
        public Builder id(String id) { this.id = id; return this; }

        /**
         * @param resourceId the owner, or null
         * @return this builder
         */
        public Builder resourceId(@Nullable String resourceId) { this.resourceId = resourceId; return this; }

        /**
         * @param title the title, or null
         * @return this builder
         */
        public Builder title(@Nullable String title) { this.title = title; return this; }

        /**
         * @param metadataJson a JSON object as text; null means {@code {}}
         * @return this builder
         */
        public Builder metadataJson(@Nullable String metadataJson) {
            this.metadataJson = metadataJson == null ? "{}" : metadataJson;
            return this;
        }

        /**
         * @param createdAt when it was created (required)
         * @return this builder
         */
        public Builder createdAt(Instant createdAt) { this.createdAt = createdAt; return this; }

        /**
         * @param updatedAt when it last changed (required)
         * @return this builder
         */
        public Builder updatedAt(Instant updatedAt) { this.updatedAt = updatedAt; return this; }

        /**
         * {@return the thread}
         *
         * @throws IllegalArgumentException if the id or a time is missing, or the metadata is not a JSON object
         */
        public MemoryThread build() {
            return new MemoryThread(this);
        }
    }
}
