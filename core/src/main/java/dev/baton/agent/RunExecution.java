package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.BatonException;
import dev.baton.LeaseLostException;
import dev.baton.StorageException;
import dev.baton.internal.CallState;
import dev.baton.internal.CallState.Status;
import dev.baton.internal.RunState;
import dev.baton.internal.SnapshotCodec;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.model.ModelRequest;
import dev.baton.model.ToolCall;
import dev.baton.store.RunSnapshot;
import dev.baton.tool.Suspension;
import dev.baton.tool.Tool;
import dev.baton.tool.ToolContext;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run loop, as a pull-driven state machine: each {@link #advance()} does one unit of work
 * (one model chunk, one tool call, one persistence step) and queues the events it produced, so
 * a stream's events arrive as they happen and nothing runs ahead of the consumer.
 */
final class RunExecution implements Iterator<AgentEvent> {
    private static final Logger LOG = LoggerFactory.getLogger(RunExecution.class);
    static final String NOT_APPROVED = "Tool call was not approved by the user";

    /** What a resume does to its target call. */
    record ResumeAction(Kind kind, String toolCallId, @Nullable String reason, @Nullable JsonNode data) {
        enum Kind { APPROVE, DECLINE, DATA }
    }

    private enum Phase { START, RESUME, MODEL_OPEN, MODEL_STREAM, TOOLS, AFTER_TOOLS, DONE }

    private final Agent agent;
    private final RunState state;
    private final @Nullable ResumeAction resume;
    private @Nullable RunClaim claim;
    private final Deque<AgentEvent> buffer = new ArrayDeque<>();
    private final List<AgentEvent> history = new ArrayList<>();
    private final StringBuilder streamText = new StringBuilder();
    private Phase phase = Phase.START;
    private @Nullable Stream<ModelChunk> modelStream;
    private @Nullable Iterator<ModelChunk> chunks;
    private final StringBuilder stepText = new StringBuilder();
    private final List<ToolCall> stepCalls = new ArrayList<>();
    private @Nullable RunOutcome outcome;
    private @Nullable Throwable error;

    RunExecution(Agent agent, RunState state, @Nullable RunClaim claim, @Nullable ResumeAction resume) {
        this.agent = agent;
        this.state = state;
        this.claim = claim;
        this.resume = resume;
    }

    String runId() {
        return state.runId;
    }

    @Nullable RunOutcome outcome() {
        return outcome;
    }

    @Nullable Throwable error() {
        return error;
    }

    List<AgentEvent> history() {
        return history;
    }

    String text() {
        return streamText.toString();
    }

    List<AgentRunToolCall> waitingCalls() {
        return outcome == RunOutcome.SUSPENDED ? Agent.waitingCalls(state) : List.of();
    }

    @Override
    public boolean hasNext() {
        while (buffer.isEmpty() && phase != Phase.DONE) {
            step();
        }
        return !buffer.isEmpty();
    }

    @Override
    public AgentEvent next() {
        if (!hasNext()) throw new NoSuchElementException("the run's stream has ended");
        return buffer.poll();
    }

    /** Runs the rest of the run, keeping its events. */
    void drain() {
        while (hasNext()) next();
    }

    /**
     * The consumer stopped early: the run still goes on to its next suspension or its end, so a
     * suspension is always stored and a claimed run is never left half done.
     */
    void finishQuietly() {
        drain();
    }

    private void emit(AgentEvent e) {
        buffer.add(e);
        history.add(e);
    }

    private void step() {
        RunClaim c = claim;
        if (c != null) c.busy(true);
        try {
            advance();
        } catch (LeaseLostException | StorageException e) {
            fail(e, Disposal.LEAVE);
        } catch (RuntimeException e) {
            fail(e, Disposal.RELEASE);
        } finally {
            if (c != null) c.busy(false);
        }
    }

    private void advance() {
        switch (phase) {
            case START -> {
                emit(new AgentEvent.Start(state.runId));
                phase = resume != null ? Phase.RESUME : Phase.MODEL_OPEN;
            }
            case RESUME -> {
                applyResume();
                phase = Phase.TOOLS;
            }
            case MODEL_OPEN -> openModel();
            case MODEL_STREAM -> pullChunk();
            case TOOLS -> {
                CallState next = state.calls.stream().filter(cs -> cs.status == Status.PENDING).findFirst().orElse(null);
                if (next == null) {
                    phase = Phase.AFTER_TOOLS;
                } else {
                    processNewCall(next);
                }
            }
            case AFTER_TOOLS -> afterTools();
            case DONE -> { }
        }
    }

    private void openModel() {
        if (state.step >= state.maxSteps) {
            emit(new AgentEvent.Finish(state.runId, "max-steps", state.text));
            complete();
            return;
        }
        state.step++;
        emit(new AgentEvent.StepStart(state.runId, state.step));
        stepText.setLength(0);
        stepCalls.clear();
        ModelRequest request = new ModelRequest(agent.instructions(), state.messages, agent.toolDefinitions());
        try {
            modelStream = agent.model().stream(request);
            chunks = modelStream.iterator();
        } catch (RuntimeException e) {
            modelFailed(e);
            return;
        }
        phase = Phase.MODEL_STREAM;
    }

    private void pullChunk() {
        ModelChunk chunk;
        try {
            if (chunks == null || !chunks.hasNext()) {
                closeModel();
                endOfModelAnswer();
                return;
            }
            chunk = chunks.next();
        } catch (RuntimeException e) {
            closeModel();
            modelFailed(e);
            return;
        }
        if (chunk instanceof ModelChunk.TextDelta t) {
            if (t.text().isEmpty()) return;
            stepText.append(t.text());
            streamText.append(t.text());
            emit(new AgentEvent.TextDelta(state.runId, t.text()));
        } else if (chunk instanceof ModelChunk.ToolCallRequest r) {
            ToolCall call = r.call();
            for (ToolCall seen : stepCalls) {
                if (seen.toolCallId().equals(call.toolCallId())) {
                    throw new BatonException("The model repeated tool call id '" + call.toolCallId() + "' in one step of run " + state.runId);
                }
            }
            stepCalls.add(call);
            emit(new AgentEvent.ToolCall(state.runId, call.toolCallId(), call.toolName(), call.args()));
        }
    }

    private void endOfModelAnswer() {
        state.messages.add(new Message.Assistant(stepText.toString(), stepCalls));
        state.text = state.text + stepText;
        if (stepCalls.isEmpty()) {
            emit(new AgentEvent.StepFinish(state.runId, state.step, "stop"));
            emit(new AgentEvent.Finish(state.runId, "stop", state.text));
            complete();
            return;
        }
        state.calls = new ArrayList<>();
        for (ToolCall tc : stepCalls) {
            CallState cs = new CallState();
            cs.toolCallId = tc.toolCallId();
            cs.toolName = tc.toolName();
            cs.args = tc.args();
            state.calls.add(cs);
        }
        phase = Phase.TOOLS;
    }

    private void modelFailed(RuntimeException e) {
        fail(new BatonException("The model failed in step " + state.step + " of run '" + state.runId + "': " + e.getMessage(), e),
                Disposal.DELETE);
    }

    /** What happens to a claimed run's snapshot when the run fails. */
    private enum Disposal {
        /** The model failed: the run ends, as in the reference. */
        DELETE,
        /** An unexpected failure: give the run back as suspended with its stored progress, so nothing is lost. */
        RELEASE,
        /** Storage or lease failure: cannot write; the lease expires and the run is listed again. */
        LEAVE
    }

    /** Ends the stream as failed: error > step-finish > finish. */
    private void fail(RuntimeException e, Disposal disposal) {
        closeModel();
        buffer.clear();
        emit(new AgentEvent.Error(state.runId, e.getMessage() == null ? e.toString() : e.getMessage(), e));
        emit(new AgentEvent.StepFinish(state.runId, state.step, "error"));
        emit(new AgentEvent.Finish(state.runId, "error", state.text));
        error = e;
        outcome = RunOutcome.FAILED;
        phase = Phase.DONE;
        RunClaim c = claim;
        if (c == null) return;
        try {
            switch (disposal) {
                case DELETE -> c.complete();
                case RELEASE -> c.release();
                case LEAVE -> c.abandon();
            }
        } catch (RuntimeException again) {
            e.addSuppressed(again);
            LOG.warn("Run {} failed, and its snapshot could not be {}: {}", state.runId, disposal, again.toString());
            c.abandon();
        }
    }

    private void closeModel() {
        Stream<ModelChunk> s = modelStream;
        modelStream = null;
        chunks = null;
        if (s != null) {
            try {
                s.close();
            } catch (RuntimeException e) {
                LOG.debug("closing the model stream failed", e);
            }
        }
    }

    private void complete() {
        phase = Phase.DONE;
        if (claim != null) claim.complete();
        outcome = RunOutcome.COMPLETED;
    }

    // ---- tool calls -------------------------------------------------------------------------

    private void processNewCall(CallState call) {
        Tool tool = agent.tool(call.toolName);
        if (tool == null) {
            done(call, TextNode.valueOf("Unknown tool '" + call.toolName + "'"), true);
            emit(new AgentEvent.ToolError(state.runId, call.toolCallId, call.toolName, "Unknown tool '" + call.toolName + "'"));
            return;
        }
        JsonNode args = args(call);
        if (tool.requiresApproval(args)) {
            call.status = Status.AWAITING_APPROVAL;
            call.waitedFor = Status.AWAITING_APPROVAL;
            emit(new AgentEvent.ToolCallApproval(state.runId, call.toolCallId, call.toolName, args));
            return;
        }
        execute(tool, call, null);
    }

    private void applyResume() {
        ResumeAction action = resume;
        if (action == null) return;
        CallState call = state.calls.stream().filter(c -> c.toolCallId.equals(action.toolCallId())).findFirst()
                .orElseThrow(() -> new IllegalStateException("validated call vanished"));
        if (call.status == Status.DONE) {
            // recovered run: this call's result was stored before its last holder stopped; never run it again
            if (call.declinedReason != null) {
                emit(new AgentEvent.ToolOutputDenied(state.runId, call.toolCallId, call.toolName, call.declinedReason));
            } else if (call.isError) {
                emit(new AgentEvent.ToolError(state.runId, call.toolCallId, call.toolName, call.result == null ? "" : call.result.asText()));
            } else {
                emit(new AgentEvent.ToolResult(state.runId, call.toolCallId, call.toolName, call.result));
            }
            return;
        }
        Tool tool = agent.tool(call.toolName);
        if (tool == null) throw new IllegalStateException("validated tool vanished");
        switch (action.kind()) {
            case DECLINE -> {
                String reason = action.reason() == null || action.reason().isBlank() ? NOT_APPROVED : action.reason();
                if (call.inner != null && tool.executor() instanceof SubagentExecutor sub) {
                    sub.decline(this, call, reason);
                } else {
                    done(call, TextNode.valueOf(reason), false);
                    call.declinedReason = reason;
                    emit(new AgentEvent.ToolOutputDenied(state.runId, call.toolCallId, call.toolName, reason));
                }
            }
            case APPROVE -> execute(tool, call, null);
            case DATA -> execute(tool, call, action.data());
        }
        saveProgress();
    }

    private void execute(Tool tool, CallState call, @Nullable JsonNode resumeData) {
        // fencing: a holder whose lease lapsed and whose run was taken over must not run the tool
        if (claim != null) claim.renew();
        if (tool.executor() instanceof SubagentExecutor sub) {
            sub.run(this, call, resumeData);
            saveProgress();
            return;
        }
        JsonNode args = args(call);
        Context ctx = new Context(call, resumeData);
        Object value;
        try {
            value = tool.executor().execute(args, ctx);
        } catch (Exception e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            done(call, TextNode.valueOf(message), true);
            emit(new AgentEvent.ToolError(state.runId, call.toolCallId, call.toolName, message));
            saveProgress();
            return;
        }
        if (value instanceof Suspension s) {
            suspendCall(call, s.payload());
            emit(new AgentEvent.ToolCallSuspended(state.runId, call.toolCallId, call.toolName, args, s.payload()));
        } else {
            JsonNode result;
            try {
                result = SnapshotCodec.JSON.valueToTree(value);
            } catch (IllegalArgumentException e) {
                result = TextNode.valueOf(String.valueOf(value));
            }
            if (result == null) result = com.fasterxml.jackson.databind.node.NullNode.getInstance();
            done(call, result, false);
            emit(new AgentEvent.ToolResult(state.runId, call.toolCallId, call.toolName, result));
        }
        saveProgress();
    }

    void suspendCall(CallState call, JsonNode payload) {
        call.status = Status.AWAITING_DATA;
        call.waitedFor = Status.AWAITING_DATA;
        call.suspendPayload = payload;
    }

    void done(CallState call, JsonNode result, boolean isError) {
        call.status = Status.DONE;
        call.result = result;
        call.isError = isError;
        call.suspendPayload = null;
        call.inner = null;
    }

    void emitFromSubagent(AgentEvent e) {
        emit(e);
    }

    RunState state() {
        return state;
    }

    /** A tool's result is stored before the model is called again, so a crash never re-runs it. */
    private void saveProgress() {
        if (claim != null) claim.progress(SnapshotCodec.encode(state));
    }

    private void afterTools() {
        boolean waiting = false;
        for (CallState c : state.calls) {
            c.waiting = c.status == Status.AWAITING_APPROVAL || c.status == Status.AWAITING_DATA;
            waiting |= c.waiting;
        }
        if (waiting) {
            suspendRun();
            return;
        }
        for (CallState c : state.calls) {
            state.messages.add(new Message.ToolResult(c.toolCallId, c.toolName, c.result, c.isError));
        }
        state.calls = new ArrayList<>();
        emit(new AgentEvent.StepFinish(state.runId, state.step, "tool-calls"));
        phase = Phase.MODEL_OPEN;
    }

    private void suspendRun() {
        String payload = SnapshotCodec.encode(state);
        if (claim == null) {
            Instant now = agent.clock().instant();
            RunSnapshot snapshot = new RunSnapshot(state.runId, agent.id(), RunStatus.SUSPENDED, state.threadId,
                    state.resourceId, state.createdAt, now, 1, null, null, payload);
            if (!agent.store().insert(snapshot)) {
                throw new StorageException("Run id '" + state.runId + "' is already stored in " + agent.store().describe());
            }
        } else {
            claim.suspend(payload);
        }
        outcome = RunOutcome.SUSPENDED;
        phase = Phase.DONE;
    }

    private static JsonNode args(CallState call) {
        return call.args == null ? SnapshotCodec.JSON.createObjectNode() : call.args;
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
        @Override public @Nullable JsonNode resumeData() { return resumeData; }

        @Override
        public Suspension suspend(@Nullable Object payload) {
            JsonNode node = SnapshotCodec.JSON.valueToTree(payload);
            return Suspension.of(node == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : node);
        }
    }
}
