package dev.baton.internal;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * One tool call of the current step and how far it got. Stored in the snapshot after every
 * change that matters for recovery, so a run whose process died is continued from exactly what
 * was recorded. Not API.
 */
public final class CallState {

    /** Where a call stands. What each one means after a crash is what {@code continueRun} does with it. */
    public enum Status {
        /** The model asked for it; not looked at yet. Continuing checks its approval, then runs it. */
        PENDING,
        /** Waits for approve / decline. Listed. */
        AWAITING_APPROVAL,
        /** The tool called suspend(); waits for resume data. Listed. */
        AWAITING_DATA,
        /**
         * Approved (or given its resume data, or its decline is being passed to a subagent) and
         * started, or about to start; its result is not stored. Continuing runs it again
         * ({@link #attempts} tells the tool), so tools with side effects use an idempotency key.
         */
        EXECUTING,
        /** Has a stored result (or error, or decline) that the model will see. Never executed again. */
        DONE
    }

    public String toolCallId = "";
    public String toolName = "";
    public @Nullable JsonNode args;
    /** The arguments a person approved instead of {@link #args} (an edited approval): the tool runs with them. */
    public @Nullable JsonNode approvedArgs;
    public Status status = Status.PENDING;
    /** What the call waited for when it last waited: AWAITING_APPROVAL or AWAITING_DATA, else null. */
    public @Nullable Status waitedFor;
    public @Nullable JsonNode suspendPayload;
    /** For an EXECUTING call resumed with data: the data, kept so that a retry after a crash sees it too. */
    public @Nullable JsonNode resumeData;
    public @Nullable JsonNode result;
    public boolean isError;
    /** Set when the call was declined; the decline reason. */
    public @Nullable String declinedReason;
    /** How many times the tool was started (an EXECUTING write each time). */
    public int attempts;
    /** For a waiting call with a time limit: when its wait expires, else null. */
    public java.time.@Nullable Instant expiresAt;
    /**
     * For a call waiting for approval under an approver rule that needs several people: who has
     * approved it so far, in order (reset by an edit). Empty otherwise.
     */
    public java.util.List<String> approvedBy = new java.util.ArrayList<>();
    /** For a call waiting for approval: how many approvals its approver rule needs (0: no rule, or one). */
    public int approvalsNeeded;
    /**
     * For a call waiting for approval under an approver rule that escalates: when it moves to the
     * rule's escalation group, else null (and null once it has).
     */
    public java.time.@Nullable Instant escalatesAt;
    /** When the call escalated (its rule's escalation group decides it from then on), else null. */
    public java.time.@Nullable Instant escalatedAt;
    /** For a subagent call: the inner run it drives or waits on. */
    public @Nullable InnerRun inner;

    /** True when the call waits for a human (approval) or for resume data. */
    public boolean waiting() {
        return status == Status.AWAITING_APPROVAL || status == Status.AWAITING_DATA;
    }

    /** The subagent run an outer call waits on or drives, and the inner call shown in the outer listing. */
    public static final class InnerRun {
        public String agentId = "";
        public String runId = "";
        /** The inner call the outer call mirrors while it waits; empty before the inner run first waits. */
        public String toolCallId = "";
        public String toolName = "";
        public @Nullable JsonNode args;
        public boolean requiresApproval;
        public @Nullable JsonNode suspendPayload;
        /**
         * What the outer call must pass on to the inner run when it executes: {@code "approve"},
         * {@code "decline"} (with {@link #reason}), {@code "data"} (the call's resumeData), or null
         * to start the inner run (or continue it, if it is stored).
         */
        public @Nullable String action;
        public @Nullable String reason;
        /** The inner run completed and its result is in the outer call; its snapshot still has to go. */
        public boolean cleanup;
    }
}
