package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A tool call a suspended run waits on. Immutable and thread-safe: its JSON values are private
 * copies, and the accessors return fresh copies. Its canonical constructor is for core and tests,
 * and the record may gain components in a minor release.
 *
 * @param toolCallId       pass it to approve / decline, or to {@link ResumeOptions}
 * @param toolName         the tool (for a subagent's run seen from its supervisor: the inner tool)
 * @param args             the call's input, for approval suspensions only, else null
 * @param requiresApproval true: waits for approve / decline; false: waits for resume data
 * @param suspendPayload   what the tool passed to {@code suspend()}, for data suspensions only, else null
 * @param expiresAt        when this wait expires (its tool's, run's or agent's wait timeout), else null
 * @param digest           what the person is shown, bound: {@link CallDigest#of(String, JsonNode, JsonNode)}
 *                         of {@code toolName}, {@code args} and {@code suspendPayload}; pass it back on
 *                         {@link ApproveOptions}, {@link DeclineOptions} or {@link DecisionOptions} so that
 *                         a decision about another version of the call is refused
 * @param approvedArgs     the arguments a person approved instead of {@code args} (an edited approval), else null
 */
public record AgentRunToolCall(String toolCallId, String toolName, @Nullable JsonNode args, boolean requiresApproval,
                               @Nullable JsonNode suspendPayload, @Nullable Instant expiresAt, String digest,
                               @Nullable JsonNode approvedArgs) {

    /**
     * Checks the ids and keeps private copies of the JSON values.
     *
     * @param toolCallId pass it to approve / decline, or to {@link ResumeOptions}
     * @param toolName the tool (for a subagent's run seen from its supervisor: the inner tool)
     * @param args the call's input, for approval suspensions only, else null
     * @param requiresApproval true: waits for approve / decline; false: waits for resume data
     * @param suspendPayload what the tool passed to {@code suspend()}, for data suspensions only, else null
     * @param expiresAt when this wait expires (its tool's, run's or agent's wait timeout), else null
     * @param digest the digest of what the person is shown
     * @param approvedArgs the arguments approved instead of {@code args}, else null
     */
    public AgentRunToolCall {
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(digest, "digest");
        args = args == null ? null : args.deepCopy();
        suspendPayload = suspendPayload == null ? null : suspendPayload.deepCopy();
        approvedArgs = approvedArgs == null ? null : approvedArgs.deepCopy();
    }

    /**
     * A call as the model proposed it: its digest is computed, no approved arguments.
     *
     * @param toolCallId pass it to approve / decline, or to {@link ResumeOptions}
     * @param toolName the tool (for a subagent's run seen from its supervisor: the inner tool)
     * @param args the call's input, for approval suspensions only, else null
     * @param requiresApproval true: waits for approve / decline; false: waits for resume data
     * @param suspendPayload what the tool passed to {@code suspend()}, for data suspensions only, else null
     * @param expiresAt when this wait expires (its tool's, run's or agent's wait timeout), else null
     */
    public AgentRunToolCall(String toolCallId, String toolName, @Nullable JsonNode args, boolean requiresApproval,
                            @Nullable JsonNode suspendPayload, @Nullable Instant expiresAt) {
        this(toolCallId, toolName, args, requiresApproval, suspendPayload, expiresAt,
                CallDigest.of(toolName, args, suspendPayload), null);
    }

    /** {@return the call's input (approval suspensions), or null: a copy, changing it changes nothing else} */
    @Override
    public @Nullable JsonNode args() {
        return args == null ? null : args.deepCopy();
    }

    /** {@return what the tool passed to {@code suspend()} (data suspensions), or null: a copy, changing it changes nothing else} */
    @Override
    public @Nullable JsonNode suspendPayload() {
        return suspendPayload == null ? null : suspendPayload.deepCopy();
    }

    /** {@return the arguments a person approved instead of {@link #args()}, or null: a copy} */
    @Override
    public @Nullable JsonNode approvedArgs() {
        return approvedArgs == null ? null : approvedArgs.deepCopy();
    }
}
