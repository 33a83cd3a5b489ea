package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
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
 * @param approvedArgs     the arguments a person approved instead of {@code args} (an edited approval), else null;
 *                         for a call still waiting for more approvals, the edited arguments they approve
 *                         (and {@code digest} is then over these)
 * @param approvedBy       who has approved the call so far, in order, while it waits for more approvals
 *                         ({@link ApproverRule#approvals()}); empty otherwise
 * @param approvalsNeeded  how many distinct approvals the call needs before it runs: its approver rule's
 *                         {@link ApproverRule#approvals()}, 1 without a rule (and for calls waiting for data)
 * @param escalatedAt      when the call escalated to its approver rule's escalation group
 *                         ({@link ApproverRule.Builder#escalateAfter}), else null
 */
public record AgentRunToolCall(String toolCallId, String toolName, @Nullable JsonNode args, boolean requiresApproval,
                               @Nullable JsonNode suspendPayload, @Nullable Instant expiresAt, String digest,
                               @Nullable JsonNode approvedArgs, List<String> approvedBy, int approvalsNeeded,
                               @Nullable Instant escalatedAt) {

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
     * @param approvedBy who has approved it so far
     * @param approvalsNeeded how many distinct approvals it needs (at least 1)
     * @param escalatedAt when it escalated, else null
     */
    public AgentRunToolCall {
        Objects.requireNonNull(toolCallId, "toolCallId");
        approvedBy = List.copyOf(approvedBy);
        if (approvalsNeeded < 1) throw new IllegalArgumentException("approvalsNeeded must be at least 1, was " + approvalsNeeded);
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(digest, "digest");
        args = args == null ? null : args.deepCopy();
        suspendPayload = suspendPayload == null ? null : suspendPayload.deepCopy();
        approvedArgs = approvedArgs == null ? null : approvedArgs.deepCopy();
    }

    /**
     * A call that has not escalated.
     *
     * @param toolCallId pass it to approve / decline, or to {@link ResumeOptions}
     * @param toolName the tool
     * @param args the call's input, for approval suspensions only, else null
     * @param requiresApproval true: waits for approve / decline; false: waits for resume data
     * @param suspendPayload what the tool passed to {@code suspend()}, for data suspensions only, else null
     * @param expiresAt when this wait expires, else null
     * @param digest the digest of what the person is shown
     * @param approvedArgs the arguments approved instead of {@code args}, else null
     * @param approvedBy who has approved it so far
     * @param approvalsNeeded how many distinct approvals it needs (at least 1)
     */
    public AgentRunToolCall(String toolCallId, String toolName, @Nullable JsonNode args, boolean requiresApproval,
                            @Nullable JsonNode suspendPayload, @Nullable Instant expiresAt, String digest,
                            @Nullable JsonNode approvedArgs, List<String> approvedBy, int approvalsNeeded) {
        this(toolCallId, toolName, args, requiresApproval, suspendPayload, expiresAt, digest, approvedArgs, approvedBy, approvalsNeeded, null);
    }

    /** {@return true once the call escalated: its rule's escalation group decides it ({@link ApproverRule#rolesNow})} */
    public boolean escalated() {
        return escalatedAt != null;
    }

    /**
     * A call with no approvals given and one needed.
     *
     * @param toolCallId pass it to approve / decline, or to {@link ResumeOptions}
     * @param toolName the tool
     * @param args the call's input, for approval suspensions only, else null
     * @param requiresApproval true: waits for approve / decline; false: waits for resume data
     * @param suspendPayload what the tool passed to {@code suspend()}, for data suspensions only, else null
     * @param expiresAt when this wait expires, else null
     * @param digest the digest of what the person is shown
     * @param approvedArgs the arguments approved instead of {@code args}, else null
     */
    public AgentRunToolCall(String toolCallId, String toolName, @Nullable JsonNode args, boolean requiresApproval,
                            @Nullable JsonNode suspendPayload, @Nullable Instant expiresAt, String digest,
                            @Nullable JsonNode approvedArgs) {
        this(toolCallId, toolName, args, requiresApproval, suspendPayload, expiresAt, digest, approvedArgs, List.of(), 1);
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
                CallDigest.of(toolName, args, suspendPayload), null, List.of(), 1);
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
