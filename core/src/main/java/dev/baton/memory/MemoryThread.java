package dev.baton.memory;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A memory thread: one conversation, owned by one resource (typically a user).
 *
 * @param id         the thread id (a run's {@code threadId}); stored and matched literally
 * @param resourceId the owner; runs of other resources cannot use the thread; null for a thread with no owner
 * @param title      a title for people, or null
 * @param metadata   free JSON object for the application
 * @param createdAt  when it was created (milliseconds)
 * @param updatedAt  when it or its messages last changed; threads are listed newest update first
 */
public record MemoryThread(String id, @Nullable String resourceId, @Nullable String title, ObjectNode metadata,
                           Instant createdAt, Instant updatedAt) {
    public MemoryThread {
        Objects.requireNonNull(id, "id");
        if (id.isEmpty()) throw new IllegalArgumentException("a thread id must not be empty");
        metadata = metadata == null ? JsonNodeFactory.instance.objectNode() : metadata.deepCopy();
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        createdAt = createdAt.truncatedTo(ChronoUnit.MILLIS);
        updatedAt = updatedAt.truncatedTo(ChronoUnit.MILLIS);
    }

    /** A copy with a new title, metadata and update time. */
    public MemoryThread updated(@Nullable String newTitle, ObjectNode newMetadata, Instant at) {
        return new MemoryThread(id, resourceId, newTitle, newMetadata, createdAt, at);
    }
}
