package dev.baton.memory;

import dev.baton.model.Message;
import java.time.Instant;

/**
 * One message of a memory thread, as an application reads it. Immutable and thread-safe.
 *
 * @param seq       its place in the thread (increasing; gaps are possible)
 * @param runId     the run that wrote it
 * @param message   the message: the user's, the model's (text and tool calls), or a tool's result
 * @param createdAt when it was written
 */
public record ThreadMessage(long seq, String runId, Message message, Instant createdAt) {
}
