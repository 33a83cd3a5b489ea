package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A tool call a suspended run waits on.
 *
 * @param toolCallId       pass it to approve / decline, or to {@link ResumeOptions}
 * @param toolName         the tool (for a subagent's run seen from its supervisor: the inner tool)
 * @param args             the call's input, for approval suspensions only, else null
 * @param requiresApproval true: waits for approve / decline; false: waits for resume data
 * @param suspendPayload   what the tool passed to {@code suspend()}, for data suspensions only, else null
 * @param expiresAt        when this wait expires (its tool's, run's or agent's wait timeout), else null
 */
public record AgentRunToolCall(String toolCallId, String toolName, @Nullable JsonNode args, boolean requiresApproval,
                               @Nullable JsonNode suspendPayload, @Nullable Instant expiresAt) {

    /** A call whose wait does not expire. */
    public AgentRunToolCall(String toolCallId, String toolName, @Nullable JsonNode args, boolean requiresApproval,
                            @Nullable JsonNode suspendPayload) {
        this(toolCallId, toolName, args, requiresApproval, suspendPayload, null);
    }
}
