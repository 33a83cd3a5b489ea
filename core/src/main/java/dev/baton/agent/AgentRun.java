package dev.baton.agent;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A suspended run, as listed.
 *
 * @param runId       pass it to approve / decline / resume
 * @param status      {@link RunStatus#SUSPENDED}
 * @param threadId    the run's thread, if any
 * @param resourceId  the run's resource, if any
 * @param suspendedAt when the run last suspended
 * @param toolCalls   the calls waiting for a decision or for data
 */
public record AgentRun(String runId, RunStatus status, @Nullable String threadId, @Nullable String resourceId,
                       Instant suspendedAt, List<AgentRunToolCall> toolCalls) {
    public AgentRun {
        toolCalls = List.copyOf(toolCalls);
    }
}
