package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.BatonException;
import dev.baton.internal.CallState;
import dev.baton.internal.CallState.Status;
import dev.baton.internal.RunState;
import dev.baton.tool.ToolContext;
import dev.baton.tool.ToolExecutor;
import org.jspecify.annotations.Nullable;

/**
 * The tool {@code agent-<id>} by which a supervisor uses a subagent. The subagent's run is its own
 * run (own runId, own agent id, own store); when it suspends, the supervisor's run suspends too,
 * with its own toolCallId but the inner tool's name and args, and a pointer to the inner run.
 * Resuming the outer call resumes the inner run through the subagent.
 */
final class SubagentExecutor implements ToolExecutor {
    private final Agent subagent;

    SubagentExecutor(Agent subagent) {
        this.subagent = subagent;
    }

    Agent subagent() {
        return subagent;
    }

    @Override
    public Object execute(JsonNode input, ToolContext context) {
        throw new UnsupportedOperationException("the run loop drives subagent tools itself");
    }

    void run(RunExecution exec, CallState call, @Nullable JsonNode resumeData) {
        RunState outer = exec.state();
        AgentResult result;
        try {
            CallState.InnerRun inner = call.inner;
            if (inner == null) {
                JsonNode args = call.args;
                String prompt = args == null ? "" : args.hasNonNull("prompt") ? args.get("prompt").asText() : args.toString();
                result = subagent.start(prompt, new RunOptions(outer.threadId, outer.resourceId, outer.maxSteps),
                        outer.agentId, outer.runId).result();
            } else if (resumeData != null) {
                result = subagent.resumeForParent(inner.runId, new RunExecution.ResumeAction(
                        RunExecution.ResumeAction.Kind.DATA, inner.toolCallId, null, resumeData)).result();
            } else {
                result = subagent.resumeForParent(inner.runId, new RunExecution.ResumeAction(
                        RunExecution.ResumeAction.Kind.APPROVE, inner.toolCallId, null, null)).result();
            }
        } catch (BatonException e) {
            failed(exec, call, e.getMessage());
            return;
        }
        handle(exec, call, result);
    }

    void decline(RunExecution exec, CallState call, String reason) {
        CallState.InnerRun inner = call.inner;
        AgentResult result;
        try {
            result = subagent.resumeForParent(inner.runId, new RunExecution.ResumeAction(
                    RunExecution.ResumeAction.Kind.DECLINE, inner.toolCallId, reason, null)).result();
        } catch (BatonException e) {
            failed(exec, call, e.getMessage());
            return;
        }
        handle(exec, call, result);
    }

    private void handle(RunExecution exec, CallState call, AgentResult result) {
        String runId = exec.runId();
        switch (result.outcome()) {
            case COMPLETED -> {
                exec.done(call, TextNode.valueOf(result.text()), false);
                exec.emitFromSubagent(new AgentEvent.ToolResult(runId, call.toolCallId, call.toolName, call.result));
            }
            case FAILED -> failed(exec, call, result.error() == null ? "the subagent failed" : result.error().getMessage());
            case SUSPENDED -> {
                AgentRunToolCall waiting = result.waitingCalls().get(0);
                CallState.InnerRun inner = new CallState.InnerRun();
                inner.agentId = subagent.id();
                inner.runId = result.runId();
                inner.toolCallId = waiting.toolCallId();
                inner.toolName = waiting.toolName();
                inner.args = waiting.args();
                inner.requiresApproval = waiting.requiresApproval();
                inner.suspendPayload = waiting.suspendPayload();
                JsonNode innerArgs = waiting.args() == null ? subagentArgs(result, waiting) : waiting.args();
                if (waiting.requiresApproval()) {
                    call.status = Status.AWAITING_APPROVAL;
                    call.waitedFor = Status.AWAITING_APPROVAL;
                    call.inner = inner;
                    exec.emitFromSubagent(new AgentEvent.ToolCallApproval(runId, call.toolCallId, waiting.toolName(), innerArgs));
                } else {
                    exec.suspendCall(call, waiting.suspendPayload());
                    call.inner = inner;
                    exec.emitFromSubagent(new AgentEvent.ToolCallSuspended(runId, call.toolCallId, waiting.toolName(),
                            innerArgs, waiting.suspendPayload()));
                }
            }
        }
    }

    /** The inner call's args, from the inner stream's suspension event. */
    private static JsonNode subagentArgs(AgentResult result, AgentRunToolCall waiting) {
        for (AgentEvent e : result.events()) {
            if (e instanceof AgentEvent.ToolCallSuspended s && s.toolCallId().equals(waiting.toolCallId())) return s.args();
            if (e instanceof AgentEvent.ToolCall c && c.toolCallId().equals(waiting.toolCallId())) return c.args();
        }
        return dev.baton.internal.SnapshotCodec.JSON.createObjectNode();
    }

    private static void failed(RunExecution exec, CallState call, String message) {
        String text = "Subagent failed: " + message;
        exec.done(call, TextNode.valueOf(text), true);
        exec.emitFromSubagent(new AgentEvent.ToolError(exec.runId(), call.toolCallId, call.toolName, text));
    }
}
