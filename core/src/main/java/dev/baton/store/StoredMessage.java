package dev.baton.store;

import dev.baton.model.Role;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One message of a thread, as a {@link MemoryStore} keeps it. Its {@link #content()} is the message
 * as JSON text, written and read by core only (in its own stored format, separate from the public
 * {@code Message} records), stored and returned verbatim. Built with {@link #builder()} or
 * {@link #toBuilder()}. Immutable and thread-safe.
 */
public final class StoredMessage {
    private final String threadId;
    private final long seq;
    private final String runId;
    private final int runIndex;
    private final Role role;
    private final String content;
    private final Instant createdAt;

    private StoredMessage(Builder b) {
        this.threadId = req(b.threadId, "threadId");
        this.seq = b.seq;
        this.runId = req(b.runId, "runId");
        this.runIndex = b.runIndex;
        this.role = req(b.role, "role");
        this.content = req(b.content, "content");
        this.createdAt = req(b.createdAt, "createdAt").truncatedTo(ChronoUnit.MILLIS);
        if (runIndex < 0) throw new IllegalArgumentException("runIndex must be >= 0, was " + runIndex);
    }

    static <T> T req(@Nullable T value, String name) {
        if (value == null) throw new IllegalArgumentException(name + " is required in a stored message");
        return value;
    }

    /** {@return a builder for a message read from the store} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding every field of this message} */
    public Builder toBuilder() {
        return new Builder().threadId(threadId).seq(seq).runId(runId).runIndex(runIndex).role(role).content(content)
                .createdAt(createdAt);
    }

    /** {@return the key of the thread ({@link MemoryStore}, "Thread keys")} */
    public String threadId() { return threadId; }

    /** {@return its place in the thread: increasing in append order, unique in the thread (gaps allowed)} */
    public long seq() { return seq; }

    /** {@return the run that wrote it} */
    public String runId() { return runId; }

    /**
     * {@return its index among that run's messages; {@code (threadId, runId, runIndex)} is unique, which
     * makes appending again after a crash harmless}
     */
    public int runIndex() { return runIndex; }

    /** {@return who speaks; stored as {@link Role#wireName()}} */
    public Role role() { return role; }

    /** {@return the message as JSON text (written by core), stored and returned verbatim} */
    public String content() { return content; }

    /** {@return when it was appended (milliseconds)} */
    public Instant createdAt() { return createdAt; }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof StoredMessage m)) return false;
        return seq == m.seq && runIndex == m.runIndex && threadId.equals(m.threadId) && runId.equals(m.runId)
                && role == m.role && content.equals(m.content) && createdAt.equals(m.createdAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(threadId, seq, runId, runIndex, role, content, createdAt);
    }

    @Override
    public String toString() {
        return "StoredMessage[threadId=" + threadId + ", seq=" + seq + ", runId=" + runId + ", runIndex=" + runIndex
                + ", role=" + role.wireName() + ", content=" + content + ", createdAt=" + createdAt + "]";
    }

    /** Builder of {@link StoredMessage}; every field is required but {@code seq} (default 0). Not thread-safe. */
    public static final class Builder {
        private @Nullable String threadId;
        private long seq;
        private @Nullable String runId;
        private int runIndex;
        private @Nullable Role role;
        private @Nullable String content;
        private @Nullable Instant createdAt;

        private Builder() {
        }

        /**
         * @param threadId the thread
         * @return this builder
         */
        public Builder threadId(String threadId) { this.threadId = threadId; return this; }

        /**
         * @param seq its place in the thread
         * @return this builder
         */
        public Builder seq(long seq) { this.seq = seq; return this; }

        /**
         * @param runId the run that wrote it
         * @return this builder
         */
        public Builder runId(String runId) { this.runId = runId; return this; }

        /**
         * @param runIndex its index among the run's messages, at least 0
         * @return this builder
         */
        public Builder runIndex(int runIndex) { this.runIndex = runIndex; return this; }

        /**
         * @param role who speaks
         * @return this builder
         */
        public Builder role(Role role) { this.role = role; return this; }

        /**
         * @param content the message as JSON text
         * @return this builder
         */
        public Builder content(String content) { this.content = content; return this; }

        /**
         * @param createdAt when it was appended
         * @return this builder
         */
        public Builder createdAt(Instant createdAt) { this.createdAt = createdAt; return this; }

        /**
         * {@return the message}
         *
         * @throws IllegalArgumentException if a field is missing or {@code runIndex} is negative
         */
        public StoredMessage build() {
            return new StoredMessage(this);
        }
    }

    /**
     * A message to append: its thread, its {@code seq} and its time are given by the store. Built
     * with {@link #builder()}. Immutable and thread-safe.
     */
    public static final class New {
        private final String runId;
        private final int runIndex;
        private final Role role;
        private final String content;

        private New(Builder b) {
            this.runId = req(b.runId, "runId");
            this.runIndex = b.runIndex;
            this.role = req(b.role, "role");
            this.content = req(b.content, "content");
            if (runIndex < 0) throw new IllegalArgumentException("runIndex must be >= 0, was " + runIndex);
        }

        /** {@return a builder for a message to append} */
        public static Builder builder() {
            return new Builder();
        }

        /** {@return the run that writes it} */
        public String runId() { return runId; }

        /** {@return its index among that run's messages} */
        public int runIndex() { return runIndex; }

        /** {@return who speaks} */
        public Role role() { return role; }

        /** {@return the message as JSON text} */
        public String content() { return content; }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof New m)) return false;
            return runIndex == m.runIndex && runId.equals(m.runId) && role == m.role && content.equals(m.content);
        }

        @Override
        public int hashCode() {
            return Objects.hash(runId, runIndex, role, content);
        }

        @Override
        public String toString() {
            return "StoredMessage.New[runId=" + runId + ", runIndex=" + runIndex + ", role=" + role.wireName()
                    + ", content=" + content + "]";
        }

        /** Builder of {@link New}; every field is required. Not thread-safe. */
        public static final class Builder {
            private @Nullable String runId;
            private int runIndex;
            private @Nullable Role role;
            private @Nullable String content;

            private Builder() {
            }

            /**
             * @param runId the run that writes it
             * @return this builder
             */
            public Builder runId(String runId) { this.runId = runId; return this; }

            /**
             * @param runIndex its index among the run's messages, at least 0
             * @return this builder
             */
            public Builder runIndex(int runIndex) { this.runIndex = runIndex; return this; }

            /**
             * @param role who speaks
             * @return this builder
             */
            public Builder role(Role role) { this.role = role; return this; }

            /**
             * @param content the message as JSON text
             * @return this builder
             */
            public Builder content(String content) { this.content = content; return this; }

            /**
             * {@return the message to append}
             *
             * @throws IllegalArgumentException if a field is missing or {@code runIndex} is negative
             */
            public New build() {
                return new New(this);
            }
        }
    }
}
