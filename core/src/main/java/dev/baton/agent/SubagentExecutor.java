package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.LeaseLostException;
import dev.baton.ModelException;
import dev.baton.RunNotSuspendedException;
import dev.baton.SnapshotFormatException;
import dev.baton.StorageException;
import dev.baton.internal.CallState;
import dev.baton.internal.CallState.Status;
import dev.baton.internal.RunState;
import dev.baton.internal.SnapshotCodec;
import dev.baton.store.RunSnapshot;
import dev.baton.tool.ToolContext;
import dev.baton.tool.ToolExecutor;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tool {@code agent-<id>} by which a supervisor uses a subagent. The subagent's run is its own
 * run (own runId, own agent id, own store); when it waits, the supervisor's run waits too, with
 * its own toolCallId but the inner tool's name and args, and a pointer to the inner run.
 * Deciding the outer call passes the decision on to the inner run.
 *
 * <p>Crash safety: the inner run's id is recorded in the outer call (stored as EXECUTING) before
 * the inner run can be stored, so the outer run always knows its inner run. When the inner run
 * completes, its result is stored in the outer run first and the inner snapshot is deleted after;
 * a crash in between leaves a cleanup mark that the outer run finishes when it goes on. A failure
 * that may pass (a store, a lease, an inner run held elsewhere) never becomes the tool's result:
 * the outer run stops and is kept, and continuing it picks the inner run up where it is.
 */
final class SubagentExecutor implements ToolExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(SubagentExecutor.class);
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

    /** Gives a call that starts its inner run the inner run's id, before the outer call is stored as EXECUTING. */
    static void prepare(SubagentExecutor sub, CallState call) {
        if (call.inner != null) return;
        CallState.InnerRun inner = new CallState.InnerRun();
        inner.agentId = sub.subagent.id();
        inner.runId = UUID.randomUUID().toString();
        call.inner = inner;
    }

    /** {@link #execute}, seen by the run's listeners as a tool execution (the inner run's spans nest under it). */
    void executeObserved(RunExecution exec, CallState call, RunListener.RunContext context) {
        RunListeners listeners = exec.agent().listeners();
        listeners.toolStarted(new RunListener.ToolStart(context, call.toolCallId, call.toolName, call.attempts));
        long t0 = System.nanoTime();
        RunListener.ToolOutcome outcome = RunListener.ToolOutcome.INTERRUPTED;
        Throwable failure = null;
        try {
            execute(exec, call);
            outcome = call.waiting() ? RunListener.ToolOutcome.SUSPENDED
                    : call.isError ? RunListener.ToolOutcome.ERROR : RunListener.ToolOutcome.SUCCESS;
        } catch (RuntimeException e) {
            failure = e;
            throw e;
        } finally {
            listeners.toolFinished(new RunListener.ToolExecution(context, call.toolCallId, call.toolName, call.attempts,
                    outcome, java.time.Duration.ofNanos(System.nanoTime() - t0), failure));
        }
    }

    /** Drives the inner run of an EXECUTING outer call to its next wait or its end. */
    void execute(RunExecution exec, CallState call) {
        CallState.InnerRun inner = call.inner;
        if (inner == null) throw new IllegalStateException("subagent call " + call.toolCallId + " was not prepared");
        RunState outer = exec.state();
        Optional<RunSnapshot> stored = subagent.store().find(inner.runId).filter(s -> s.agentId().equals(subagent.id()));
        AgentStream stream;
        try {
            if (stored.isEmpty()) {
                if (inner.action != null) {
                    failed(exec, call, "its run '" + inner.runId + "' is gone (it was discarded)");
                    return;
                }
                stream = subagent.start(prompt(call), RunOptions.builder().threadId(outer.threadId).resourceId(outer.resourceId)
                        .maxSteps(outer.maxSteps).build(),
                        outer.agentId, outer.runId, inner.runId);
            } else {
                RunState innerState;
                try {
                    innerState = SnapshotCodec.decode(stored.get());
                } catch (SnapshotFormatException e) {
                    failed(exec, call, e.getMessage());
                    return;
                }
                CallState target = inner.toolCallId.isEmpty() ? null : innerState.call(inner.toolCallId);
                if (inner.action != null && target != null && target.waiting()) {
                    stream = subagent.actions().resumeForParent(stored.get(), innerState, decision(inner, call));
                } else if (!innerState.waitingCalls().isEmpty()) {
                    // it waits already (this run stopped before it recorded that): wait on it, run nothing
                    waitOn(exec, call, RunListing.waitingCalls(innerState).get(0), innerState);
                    return;
                } else {
                    stream = subagent.actions().continueForParent(stored.get(), innerState);
                }
            }
        } catch (RunNotSuspendedException e) {
            throw new RunExecution.Stop("its subagent's run '" + inner.runId + "' is being worked on elsewhere;"
                    + " continue this run once that lease has lapsed", e);
        } catch (StorageException | LeaseLostException e) {
            throw new RunExecution.Stop("its subagent's run '" + inner.runId + "' could not be claimed: " + e.getMessage(), e);
        }
        RunExecution innerExec = stream.execution();
        innerExec.drain();
        RunOutcome outcome = innerExec.outcome();
        String runId = exec.runId();
        if (outcome == RunOutcome.COMPLETED) {
            exec.done(call, TextNode.valueOf(innerExec.text()), false);
            exec.emit(new AgentEvent.ToolResult(runId, call.toolCallId, call.toolName, call.result));
            RunClaim kept = innerExec.keptClaim();
            if (kept != null) {
                inner.cleanup = true;
                exec.storeProgress();   // the result is stored in the outer run before the inner snapshot goes
                try {
                    kept.complete();
                    inner.cleanup = false;
                } catch (StorageException | LeaseLostException e) {
                    LOG.warn("Subagent run {} completed but its snapshot could not be deleted yet: {}", inner.runId, e.toString());
                }
            }
        } else if (outcome == RunOutcome.SUSPENDED) {
            waitOn(exec, call, innerExec.waitingCalls().get(0), innerExec.state());
        } else if (outcome == RunOutcome.FAILED && innerExec.error() instanceof ModelException && !innerExec.claimed()) {
            // a new inner run whose model failed has ended for good, as any run does: the supervisor's model is told
            failed(exec, call, innerExec.error().getMessage());
        } else {
            Throwable e = innerExec.error();
            throw new RunExecution.Stop("its subagent's run '" + inner.runId + "' stopped"
                    + (e == null ? "" : ": " + e.getMessage()), e);
        }
    }

    /** The outer call waits as the inner run's first waiting call does, showing that call's tool and args. */
    private static void waitOn(RunExecution exec, CallState call, AgentRunToolCall waiting, RunState innerState) {
        CallState.InnerRun inner = call.inner;
        String runId = exec.runId();
        inner.toolCallId = waiting.toolCallId();
        inner.toolName = waiting.toolName();
        inner.args = waiting.args() != null ? waiting.args() : innerArgs(innerState, waiting.toolCallId());
        inner.requiresApproval = waiting.requiresApproval();
        inner.suspendPayload = waiting.suspendPayload();
        inner.action = null;
        inner.reason = null;
        call.resumeData = null;
        if (waiting.requiresApproval()) {
            call.status = Status.AWAITING_APPROVAL;
            call.waitedFor = Status.AWAITING_APPROVAL;
            exec.emit(new AgentEvent.ToolCallApproval(runId, call.toolCallId, waiting.toolName(), inner.args));
        } else {
            call.status = Status.AWAITING_DATA;
            call.waitedFor = Status.AWAITING_DATA;
            call.suspendPayload = waiting.suspendPayload();
            exec.emit(new AgentEvent.ToolCallSuspended(runId, call.toolCallId, waiting.toolName(), inner.args,
                    waiting.suspendPayload()));
        }
    }

    /** Deletes an inner run whose result the outer call already holds (left over by a crash). */
    static void cleanUp(RunExecution exec, CallState call) {
        CallState.InnerRun inner = call.inner;
        if (inner == null) return;
        try {
            subagentOf(exec, call).ifPresent(sub -> sub.actions().deleteInner(inner.runId, exec.runId()));
            inner.cleanup = false;
        } catch (RuntimeException e) {
            LOG.warn("Could not delete the finished subagent run {} yet: {}", inner.runId, e.toString());
        }
    }

    private static Optional<Agent> subagentOf(RunExecution exec, CallState call) {
        dev.baton.tool.Tool tool = exec.agent().tool(call.toolName);
        return tool != null && tool.executor() instanceof SubagentExecutor s ? Optional.of(s.subagent) : Optional.empty();
    }

    private static RunActions.Decision decision(CallState.InnerRun inner, CallState call) {
        return switch (inner.action) {
            case "approve" -> RunActions.Decision.approve(inner.toolCallId);
            case "decline" -> RunActions.Decision.decline(inner.toolCallId, inner.reason);
            case "data" -> RunActions.Decision.data(inner.toolCallId,
                    call.resumeData == null ? SnapshotCodec.JSON.createObjectNode() : call.resumeData);
            default -> throw new IllegalStateException("unknown subagent action " + inner.action);
        };
    }

    private static String prompt(CallState call) {
        JsonNode args = call.args;
        return args == null ? "" : args.hasNonNull("prompt") ? args.get("prompt").asText() : args.toString();
    }

    /** The inner call's args, for a data suspension (the listing shows none). */
    private static JsonNode innerArgs(RunState state, String toolCallId) {
        CallState c = state.call(toolCallId);
        return c == null || c.args == null ? SnapshotCodec.JSON.createObjectNode() : c.args;
    }

    private static void failed(RunExecution exec, CallState call, String message) {
        String text = "Subagent failed: " + message;
        exec.done(call, TextNode.valueOf(text), true);
        exec.emit(new AgentEvent.ToolError(exec.runId(), call.toolCallId, call.toolName, text));
    }
}
