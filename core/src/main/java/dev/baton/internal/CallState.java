package dev.baton.internal;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/** One tool call of the current step and how far it got. Not API. */
public final class CallState {

    /** Where a call stands. */
    public enum Status {
        /** Not looked at yet. */
        PENDING,
        /** Waits for approve / decline. */
        AWAITING_APPROVAL,
        /** The tool called suspend(); waits for resume data. */
        AWAITING_DATA,
        /** Has a result (or error, or decline) that the model will see. Never executed again. */
        DONE
    }

    public String toolCallId = "";
    public String toolName = "";
    public @Nullable JsonNode args;
    public Status status = Status.PENDING;
    /** What the call waited for when the run last suspended: AWAITING_APPROVAL or AWAITING_DATA, else null. */
    public @Nullable Status waitedFor;
    /** Listed as waiting: it waited when the run last suspended. */
    public boolean waiting;
    public @Nullable JsonNode suspendPayload;
    public @Nullable JsonNode result;
    public boolean isError;
    /** Set when the call was declined; the decline reason. */
    public @Nullable String declinedReason;
    /** For a subagent call that waits on its inner run. */
    public @Nullable InnerRun inner;

    /** The subagent run an outer call waits on, and the inner call shown in the outer listing. */
    public static final class InnerRun {
        public String agentId = "";
        public String runId = "";
        public String toolCallId = "";
        public String toolName = "";
        public @Nullable JsonNode args;
        public boolean requiresApproval;
        public @Nullable JsonNode suspendPayload;
    }
}
