package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * One event of a run's stream. {@link #type()} is the reference's chunk name.
 *
 * <p>A new run that suspends for approval: {@code start > step-start > tool-call > tool-call-approval}
 * (no {@code finish}). Approving it: {@code start > tool-result > step-finish > step-start > text-delta... >
 * step-finish > finish}. Declining: {@code start > tool-output-denied > step-finish > ...}.
 */
public sealed interface AgentEvent {

    /** The reference's chunk name, e.g. {@code "tool-call-approval"}. */
    String type();

    /** The run this event belongs to. */
    String runId();

    record Start(String runId) implements AgentEvent {
        public String type() { return "start"; }
    }

    record StepStart(String runId, int step) implements AgentEvent {
        public String type() { return "step-start"; }
    }

    record TextDelta(String runId, String text) implements AgentEvent {
        public String type() { return "text-delta"; }
    }

    record ToolCall(String runId, String toolCallId, String toolName, JsonNode args) implements AgentEvent {
        public String type() { return "tool-call"; }
    }

    /** The run suspends until this call is approved or declined. */
    record ToolCallApproval(String runId, String toolCallId, String toolName, JsonNode args) implements AgentEvent {
        public String type() { return "tool-call-approval"; }
    }

    /** The tool called {@code suspend(payload)}; the run waits for resume data. */
    record ToolCallSuspended(String runId, String toolCallId, String toolName, JsonNode args,
                             JsonNode suspendPayload) implements AgentEvent {
        public String type() { return "tool-call-suspended"; }
    }

    record ToolResult(String runId, String toolCallId, String toolName, JsonNode result) implements AgentEvent {
        public String type() { return "tool-result"; }
    }

    /** The tool threw; the model sees {@code error} and the run goes on. */
    record ToolError(String runId, String toolCallId, String toolName, String error) implements AgentEvent {
        public String type() { return "tool-error"; }
    }

    /** The call was declined; the model sees {@code reason}. */
    record ToolOutputDenied(String runId, String toolCallId, String toolName, String reason) implements AgentEvent {
        public String type() { return "tool-output-denied"; }
    }

    /** @param finishReason {@code tool-calls}, {@code stop}, or {@code error} */
    record StepFinish(String runId, int step, String finishReason) implements AgentEvent {
        public String type() { return "step-finish"; }
    }

    /** @param finishReason {@code stop}, {@code max-steps}, or {@code error} */
    record Finish(String runId, String finishReason, String text) implements AgentEvent {
        public String type() { return "finish"; }
    }

    /** The run was cancelled ({@code agent.cancelRun}, or its wait expired under a cancel policy); nothing more runs. */
    record Cancelled(String runId, String reason) implements AgentEvent {
        public String type() { return "cancelled"; }
    }

    /** The run failed; {@code cause} holds the exception. */
    record Error(String runId, String message, @Nullable Throwable cause) implements AgentEvent {
        public String type() { return "error"; }
    }
}
