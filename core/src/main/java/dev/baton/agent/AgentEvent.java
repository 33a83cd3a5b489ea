package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One event of a run's stream. {@link #type()} is the reference's chunk name.
 *
 * <p>A new run that suspends for approval: {@code start > step-start > tool-call > tool-call-approval}
 * (no {@code finish}). Approving it: {@code start > tool-result > step-finish > step-start > text-delta... >
 * step-finish > finish}. Declining: {@code start > tool-output-denied > step-finish > ...}.
 *
 * <p>Events are immutable and share nothing with the run: every {@link JsonNode} they carry is a
 * private copy, and each accessor returns a fresh copy, so a consumer or listener that changes
 * what it receives changes nothing that anyone else sees, stores or runs.
 *
 * <p>Growth: later minor releases may add event types to this sealed interface. Code that tells
 * events apart must handle an unknown one: on Java 21+ a pattern {@code switch} needs a
 * {@code default} branch; on Java 17 an {@code instanceof} chain ends in an {@code else}, or use
 * {@link #type()}:
 * <pre>{@code
 * for (AgentEvent e : stream) {
 *     if (e instanceof AgentEvent.TextDelta d) System.out.print(d.text());
 *     else if (e instanceof AgentEvent.ToolCallApproval a) ask(a.toolName(), a.args());
 *     else { }   // other events, including kinds added later
 * }
 * }</pre>
 * The records' canonical constructors are for core and tests; records may gain components.
 */
public sealed interface AgentEvent {

    /** {@return the reference's chunk name, e.g. {@code "tool-call-approval"}} */
    String type();

    /** {@return the run this event belongs to} */
    String runId();

    /**
     * The stream starts.
     *
     * @param runId the run
     */
    record Start(String runId) implements AgentEvent {
        /** {@return {@code "start"}} */
        public String type() { return "start"; }
    }

    /**
     * A step (one model call and the tool calls it asks for) starts.
     *
     * @param runId the run
     * @param step  the step, from 1
     */
    record StepStart(String runId, int step) implements AgentEvent {
        /** {@return {@code "step-start"}} */
        public String type() { return "step-start"; }
    }

    /**
     * Some text of the model's answer.
     *
     * @param runId the run
     * @param text  the text
     */
    record TextDelta(String runId, String text) implements AgentEvent {
        /** {@return {@code "text-delta"}} */
        public String type() { return "text-delta"; }
    }

    /**
     * The model asks for a tool call.
     *
     * @param runId      the run
     * @param toolCallId the call
     * @param toolName   the tool
     * @param args       the call's input
     */
    record ToolCall(String runId, String toolCallId, String toolName, JsonNode args) implements AgentEvent {
        /**
         * Keeps a private copy of {@code args}.
         *
         * @param runId the run
         * @param toolCallId the call
         * @param toolName the tool
         * @param args the call's input
         */
        public ToolCall {
            args = copy(args);
        }

        /** {@return the call's input: a copy, changing it changes nothing else} */
        @Override
        public JsonNode args() { return args.deepCopy(); }

        /** {@return {@code "tool-call"}} */
        public String type() { return "tool-call"; }
    }

    /**
     * The run suspends until this call is approved or declined.
     *
     * @param runId      the run
     * @param toolCallId the call to approve or decline
     * @param toolName   the tool (for a subagent's call: the inner tool)
     * @param args       the call's input, what the approver approves
     */
    record ToolCallApproval(String runId, String toolCallId, String toolName, JsonNode args) implements AgentEvent {
        /**
         * Keeps a private copy of {@code args}.
         *
         * @param runId the run
         * @param toolCallId the call to approve or decline
         * @param toolName the tool (for a subagent's call: the inner tool)
         * @param args the call's input, what the approver approves
         */
        public ToolCallApproval {
            args = copy(args);
        }

        /** {@return the call's input: a copy, changing it changes nothing else} */
        @Override
        public JsonNode args() { return args.deepCopy(); }

        /** {@return {@code "tool-call-approval"}} */
        public String type() { return "tool-call-approval"; }
    }

    /**
     * A person approved a call with edited arguments ({@code ApproveOptions.args}): emitted right after
     * {@code start} in the stream of that approval, before the tool runs with {@code approvedArgs}. Not emitted for an
     * approval of the arguments as proposed.
     *
     * @param runId        the run
     * @param toolCallId   the approved call
     * @param toolName     the tool
     * @param proposedArgs what the model proposed
     * @param approvedArgs what the person approved and the tool runs with
     * @param actor        who approved
     */
    record ToolCallApproved(String runId, String toolCallId, String toolName, JsonNode proposedArgs,
                            JsonNode approvedArgs, String actor) implements AgentEvent {
        /**
         * Keeps private copies of the arguments.
         *
         * @param runId the run
         * @param toolCallId the approved call
         * @param toolName the tool
         * @param proposedArgs what the model proposed
         * @param approvedArgs what the person approved and the tool runs with
         * @param actor who approved
         */
        public ToolCallApproved {
            proposedArgs = copy(proposedArgs);
            approvedArgs = copy(approvedArgs);
            Objects.requireNonNull(actor, "actor");
        }

        /** {@return what the model proposed: a copy} */
        @Override
        public JsonNode proposedArgs() { return proposedArgs.deepCopy(); }

        /** {@return what the tool runs with: a copy} */
        @Override
        public JsonNode approvedArgs() { return approvedArgs.deepCopy(); }

        /** {@return {@code "tool-call-approved"}} */
        public String type() { return "tool-call-approved"; }
    }

    /**
     * The tool called {@code suspend(payload)}; the run waits for resume data.
     *
     * @param runId          the run
     * @param toolCallId     the call to resume
     * @param toolName       the tool
     * @param args           the call's input
     * @param suspendPayload what the tool passed to {@code suspend}
     */
    record ToolCallSuspended(String runId, String toolCallId, String toolName, JsonNode args,
                             JsonNode suspendPayload) implements AgentEvent {
        /**
         * Keeps private copies of {@code args} and {@code suspendPayload}.
         *
         * @param runId the run
         * @param toolCallId the call to resume
         * @param toolName the tool
         * @param args the call's input
         * @param suspendPayload what the tool passed to {@code suspend}
         */
        public ToolCallSuspended {
            args = copy(args);
            suspendPayload = copy(suspendPayload);
        }

        /** {@return the call's input: a copy, changing it changes nothing else} */
        @Override
        public JsonNode args() { return args.deepCopy(); }

        /** {@return what the tool passed to {@code suspend}: a copy, changing it changes nothing else} */
        @Override
        public JsonNode suspendPayload() { return suspendPayload.deepCopy(); }

        /** {@return {@code "tool-call-suspended"}} */
        public String type() { return "tool-call-suspended"; }
    }

    /**
     * A tool returned its result.
     *
     * @param runId      the run
     * @param toolCallId the call
     * @param toolName   the tool
     * @param result     what it returned, as the model sees it
     */
    record ToolResult(String runId, String toolCallId, String toolName, JsonNode result) implements AgentEvent {
        /**
         * Keeps a private copy of {@code result}.
         *
         * @param runId the run
         * @param toolCallId the call
         * @param toolName the tool
         * @param result what it returned, as the model sees it
         */
        public ToolResult {
            result = copy(result);
        }

        /** {@return what the tool returned: a copy, changing it changes nothing else} */
        @Override
        public JsonNode result() { return result.deepCopy(); }

        /** {@return {@code "tool-result"}} */
        public String type() { return "tool-result"; }
    }

    /**
     * The tool threw (or does not exist, or its input was invalid); the model sees {@code error} and the run goes on.
     *
     * @param runId      the run
     * @param toolCallId the call
     * @param toolName   the tool
     * @param error      the message the model sees
     */
    record ToolError(String runId, String toolCallId, String toolName, String error) implements AgentEvent {
        /** {@return {@code "tool-error"}} */
        public String type() { return "tool-error"; }
    }

    /**
     * The call was declined; the model sees {@code reason}.
     *
     * @param runId      the run
     * @param toolCallId the call
     * @param toolName   the tool
     * @param reason     the decline reason the model sees
     */
    record ToolOutputDenied(String runId, String toolCallId, String toolName, String reason) implements AgentEvent {
        /** {@return {@code "tool-output-denied"}} */
        public String type() { return "tool-output-denied"; }
    }

    /**
     * A step finished.
     *
     * @param runId        the run
     * @param step         the step that finished (for a failure: the step that failed)
     * @param finishReason {@link FinishReason#TOOL_CALLS}, {@link FinishReason#STOP}, {@link FinishReason#ERROR}
     *                     or {@link FinishReason#INTERRUPTED}
     */
    record StepFinish(String runId, int step, FinishReason finishReason) implements AgentEvent {
        /**
         * Checks the reason is present.
         *
         * @param runId the run
         * @param step the step that finished (for a failure: the step that failed)
         * @param finishReason {@link FinishReason#TOOL_CALLS}, {@link FinishReason#STOP}, {@link FinishReason#ERROR} or {@link FinishReason#INTERRUPTED}
         */
        public StepFinish {
            Objects.requireNonNull(finishReason, "finishReason");
        }

        /** {@return {@code "step-finish"}} */
        public String type() { return "step-finish"; }
    }

    /**
     * The stream finished.
     *
     * @param runId        the run
     * @param finishReason {@link FinishReason#STOP}, {@link FinishReason#MAX_STEPS}, {@link FinishReason#ERROR},
     *                     {@link FinishReason#INTERRUPTED} or {@link FinishReason#CANCELLED}
     * @param text         all text the run produced so far
     */
    record Finish(String runId, FinishReason finishReason, String text) implements AgentEvent {
        /**
         * Checks the reason is present.
         *
         * @param runId the run
         * @param finishReason {@link FinishReason#STOP}, {@link FinishReason#MAX_STEPS}, {@link FinishReason#ERROR}, {@link FinishReason#INTERRUPTED} or {@link FinishReason#CANCELLED}
         * @param text all text the run produced so far
         */
        public Finish {
            Objects.requireNonNull(finishReason, "finishReason");
        }

        /** {@return {@code "finish"}} */
        public String type() { return "finish"; }
    }

    /**
     * The run was cancelled ({@code agent.cancelRun}, or its wait expired under a cancel policy); nothing more runs.
     *
     * @param runId  the run
     * @param reason why
     */
    record Cancelled(String runId, String reason) implements AgentEvent {
        /** {@return {@code "cancelled"}} */
        public String type() { return "cancelled"; }
    }

    /**
     * The run failed, or stopped part-way and was kept; {@code cause} holds the exception.
     *
     * @param runId   the run
     * @param message what happened
     * @param cause   the exception ({@link dev.baton.RunInterruptedException} for a kept run), or null
     */
    record Error(String runId, String message, @Nullable Throwable cause) implements AgentEvent {
        /** {@return {@code "error"}} */
        public String type() { return "error"; }
    }

    private static JsonNode copy(JsonNode node) {
        return Objects.requireNonNull(node, "a JSON value of an event").deepCopy();
    }
}
