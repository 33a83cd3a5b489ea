package dev.baton.memory;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One message of a thread, as a {@link MemoryStore} keeps it.
 *
 * @param threadId  the thread
 * @param seq       its place in the thread: increasing in append order, unique in the thread (gaps allowed)
 * @param runId     the run that wrote it
 * @param runIndex  its index among that run's messages; {@code (threadId, runId, runIndex)} is unique, which
 *                  makes appending again after a crash harmless
 * @param role      {@code user}, {@code assistant} or {@code tool}
 * @param content   the message as JSON text (written by core), stored and returned verbatim
 * @param createdAt when it was appended (milliseconds)
 */
public record StoredMessage(String threadId, long seq, String runId, int runIndex, String role, String content,
                            Instant createdAt) {
    public StoredMessage {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(createdAt, "createdAt");
        if (runIndex < 0) throw new IllegalArgumentException("runIndex must be >= 0, was " + runIndex);
        createdAt = createdAt.truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * A message to append: its thread, its {@code seq} and its time are given by the store.
     *
     * @param runId    the run that writes it
     * @param runIndex its index among that run's messages
     * @param role     {@code user}, {@code assistant} or {@code tool}
     * @param content  the message as JSON text
     */
    public record New(String runId, int runIndex, String role, String content) {
        public New {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(content, "content");
            if (runIndex < 0) throw new IllegalArgumentException("runIndex must be >= 0, was " + runIndex);
        }
    }
}
