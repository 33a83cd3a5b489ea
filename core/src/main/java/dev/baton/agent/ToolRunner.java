package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.internal.CallState;
import dev.baton.internal.CallState.Status;
import dev.baton.internal.RunState;
import dev.baton.internal.SnapshotCodec;
import dev.baton.tool.Suspension;
import dev.baton.tool.Tool;
import dev.baton.tool.ToolContext;
import java.nio.channels.ClosedByInterruptException;
import java.time.Duration;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** Runs one tool call on the run's thread and records what came of it in the call's state. */
final class ToolRunner {
    private final Agent agent;
    private final RunState state;
    private final RunListener.RunContext context;

    ToolRunner(Agent agent, RunState state, RunListener.RunContext context) {
        this.agent = agent;
        this.state = state;
        this.context = context;
    }

    /** A private copy of the call's input: what a tool, an approval predicate or an event gets, never the stored node. */
    static JsonNode args(CallState call) {
        return call.args == null ? SnapshotCodec.JSON.createObjectNode() : call.args.deepCopy();
    }

    /** True if {@code e} is, or was caused by, an interrupt of the running thread. */
    static boolean isInterrupt(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException || t instanceof ClosedByInterruptException
                    || t instanceof java.io.InterruptedIOException && !(t instanceof java.net.SocketTimeoutException)) {
                return true;
            }
            if (t.getCause() == t) break;
        }
        return Thread.currentThread().isInterrupted();
    }

    /**
     * Runs {@code tool} for an EXECUTING call: its result, error or suspension goes into the call.
     * An interrupt leaves the call EXECUTING and stops the run ({@link RunExecution.Stop}).
     */
    void run(Tool tool, CallState call, Consumer<AgentEvent> emit) {
        JsonNode args = call.approvedArgs != null ? call.approvedArgs.deepCopy() : args(call);
        Context ctx = new Context(call, call.resumeData);
        RunListeners listeners = agent.listeners();
        if (!listeners.isEmpty()) listeners.toolStarted(new RunListener.ToolStart(context, call.toolCallId, call.toolName, call.attempts));
        long t0 = System.nanoTime();
        Object value;
        try {
            value = tool.executor().execute(args, ctx);
        } catch (Exception e) {
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            if (isInterrupt(e)) {
                Thread.currentThread().interrupt();   // whoever interrupted us still sees the flag
                listeners.toolFinished(new RunListener.ToolExecution(context, call.toolCallId, call.toolName, call.attempts,
                        RunListener.ToolOutcome.INTERRUPTED, took, e));
                throw new RunExecution.Stop("its thread was interrupted while the tool '" + call.toolName + "' ran", e);
            }
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            record(call, TextNode.valueOf(message), true);
            listeners.toolFinished(new RunListener.ToolExecution(context, call.toolCallId, call.toolName, call.attempts,
                    RunListener.ToolOutcome.ERROR, took, e));
            emit.accept(new AgentEvent.ToolError(state.runId, call.toolCallId, call.toolName, message));
            return;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        if (value instanceof Suspension s) {
            call.status = Status.AWAITING_DATA;
            call.waitedFor = Status.AWAITING_DATA;
            call.suspendPayload = s.payload();
            call.resumeData = null;
            listeners.toolFinished(new RunListener.ToolExecution(context, call.toolCallId, call.toolName, call.attempts,
                    RunListener.ToolOutcome.SUSPENDED, took, null));
            emit.accept(new AgentEvent.ToolCallSuspended(state.runId, call.toolCallId, call.toolName, args(call), s.payload()));
            return;
        }
        JsonNode result;
        try {
            result = value instanceof JsonNode n ? n.deepCopy() : dev.baton.internal.JsonTrees.valueToTree(SnapshotCodec.JSON, value);   // never the tool's own node
        } catch (IllegalArgumentException e) {
            result = TextNode.valueOf(String.valueOf(value));
        }
        if (result == null) result = NullNode.getInstance();
        record(call, result, false);
        if (!listeners.isEmpty()) listeners.toolFinished(new RunListener.ToolExecution(context, call.toolCallId, call.toolName, call.attempts,
                RunListener.ToolOutcome.SUCCESS, took, null));
        emit.accept(new AgentEvent.ToolResult(state.runId, call.toolCallId, call.toolName, result));
    }

    private static void record(CallState call, JsonNode result, boolean isError) {
        call.status = Status.DONE;
        call.result = result;
        call.isError = isError;
        call.suspendPayload = null;
        call.resumeData = null;
    }

    /** The context a tool sees. */
    private final class Context implements ToolContext {
        private final CallState call;
        private final @Nullable JsonNode resumeData;

        Context(CallState call, @Nullable JsonNode resumeData) {
            this.call = call;
            this.resumeData = resumeData;
        }

        @Override public String agentId() { return agent.id(); }
        @Override public String runId() { return state.runId; }
        @Override public String toolCallId() { return call.toolCallId; }
        @Override public @Nullable String threadId() { return state.threadId; }
        @Override public @Nullable String resourceId() { return state.resourceId; }
        @Override public @Nullable JsonNode resumeData() { return resumeData == null ? null : resumeData.deepCopy(); }
        @Override public @Nullable JsonNode suspendPayload() {
            // kept on the call from its suspension until its result is recorded, also across a crash
            return resumeData == null || call.suspendPayload == null ? null : call.suspendPayload.deepCopy();
        }
        @Override public int attempt() { return call.attempts; }

        @Override
        public Suspension suspend(@Nullable Object payload) {
            JsonNode node = SnapshotCodec.JSON.valueToTree(payload);
            return Suspension.of(node == null ? NullNode.getInstance() : node);
        }
    }
}
