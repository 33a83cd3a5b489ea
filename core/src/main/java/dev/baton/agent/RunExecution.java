package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.BatonException;
import dev.baton.LeaseLostException;
import dev.baton.ModelException;
import dev.baton.RunInterruptedException;
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
import dev.baton.tool.Tool;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run loop, as a pull-driven state machine: each {@link #hasNext()} does one unit of work
 * (one model chunk, one tool call, one store write) and queues the events it produced, so a
 * stream's events arrive as they happen and nothing runs ahead of the consumer. Tools run on the
 * consumer's thread.
 *
 * <p>What is stored when, so that a crash anywhere can be continued from the store alone:
 * <ul>
 *   <li>A run that was never stored is inserted when it first waits (or stops part-way after a
 *       tool ran); before that a crash loses it, and nothing of it is in the store.</li>
 *   <li>A claimed run: before a tool starts, its call is stored as {@code EXECUTING} (this write
 *       also proves the lease); the results of finished tools are stored before the model is called
 *       again, before the next tool starts, and when the run waits or stops; the final delete
 *       ends it.</li>
 * </ul>
 */
final class RunExecution implements Iterator<AgentEvent> {
    private static final Logger LOG = LoggerFactory.getLogger(RunExecution.class);
    static final String NOT_APPROVED = "Tool call was not approved by the user";

    private enum Phase { START, TOOLS, AFTER_TOOLS, MODEL_OPEN, MODEL_STREAM, DONE }

    /** A stop that leaves the run resumable (an interrupt, a subagent that cannot go on yet). Not a failure. */
    static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stop(String why, @Nullable Throwable cause) {
            super(why, cause, false, false);
        }
    }

    private final Agent agent;
    private final RunState state;
    private @Nullable RunClaim claim;
    private final List<AgentEvent> initialEvents;
    /** The call the claim's own write already marked EXECUTING (and counted an attempt for). */
    private @Nullable String claimedExecuting;
    /** An inner run driven by its supervisor: on completion its snapshot stays until the supervisor has recorded the result. */
    private final boolean forParent;
    private final RunListener.RunContext context;
    private final ToolRunner tools;
    private final Deque<AgentEvent> buffer = new ArrayDeque<>();
    private final List<AgentEvent> history = new ArrayList<>();
    private final StringBuilder streamText = new StringBuilder();
    private Phase phase = Phase.START;
    private @Nullable Stream<ModelChunk> modelStream;
    private @Nullable Iterator<ModelChunk> chunks;
    private long modelStartNanos;
    /** A model call's step has started and its answer is not complete: stopping now forgets that step. */
    private boolean modelStepOpen;
    private final StringBuilder stepText = new StringBuilder();
    private final List<ToolCall> stepCalls = new ArrayList<>();
    /** Changes (tool results, new calls) not yet in the store. */
    private boolean dirty;
    private @Nullable RunOutcome outcome;
    private @Nullable Throwable error;
    private final long startNanos = System.nanoTime();

    RunExecution(Agent agent, RunState state, @Nullable RunClaim claim, String action, List<AgentEvent> initialEvents,
                 @Nullable String claimedExecuting, boolean forParent) {
        this.agent = agent;
        this.state = state;
        this.claim = claim;
        this.initialEvents = List.copyOf(initialEvents);
        this.claimedExecuting = claimedExecuting;
        this.forParent = forParent;
        this.context = new RunListener.RunContext(agent.id(), state.runId, state.threadId, state.resourceId, action,
                new ConcurrentHashMap<>());
        this.tools = new ToolRunner(agent, state, context);
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

    RunState state() {
        return state;
    }

    Agent agent() {
        return agent;
    }

    /** For the supervisor: the claim an inner run kept after it completed, so the supervisor deletes it after recording the result. */
    @Nullable RunClaim keptClaim() {
        return forParent && outcome == RunOutcome.COMPLETED ? claim : null;
    }

    List<AgentRunToolCall> waitingCalls() {
        return outcome == RunOutcome.SUSPENDED || outcome == RunOutcome.INTERRUPTED ? RunListing.waitingCalls(state) : List.of();
    }

    @Override
    public boolean hasNext() {
        while (buffer.isEmpty() && phase != Phase.DONE) step();
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

    void emit(AgentEvent e) {
        buffer.add(e);
        history.add(e);
        agent.listeners().event(context, e);
    }

    // ---- driving --------------------------------------------------------------------------------

    private void step() {
        RunClaim c = claim;
        boolean usable = c == null || c.busy(true);
        try {
            if (c != null && !usable) {
                if (!c.releasedUnread()) throw new LeaseLostException(state.runId);
                c.reclaim(SnapshotCodec.encode(state));   // read late, but nobody took it: go on
            }
            if (Thread.currentThread().isInterrupted()) {
                stop("its thread was interrupted", null);
                return;
            }
            advance();
        } catch (Stop s) {
            stop(s.getMessage(), s.getCause());
        } catch (LeaseLostException | StorageException e) {
            fail(e);
        } catch (RuntimeException e) {
            if (ToolRunner.isInterrupt(e)) {
                stop("its thread was interrupted", e);
            } else {
                LOG.warn("Run {} stopped on an unexpected failure; it is kept as interrupted", state.runId, e);
                stop("an unexpected failure: " + e, e);
            }
        } finally {
            if (c != null) c.busy(false);
        }
    }

    private void advance() {
        switch (phase) {
            case START -> begin();
            case TOOLS -> nextCall();
            case AFTER_TOOLS -> afterTools();
            case MODEL_OPEN -> openModel();
            case MODEL_STREAM -> pullChunk();
            case DONE -> { }
        }
    }

    private void begin() {
        agent.listeners().runStarted(context);
        emit(new AgentEvent.Start(state.runId));
        for (AgentEvent e : initialEvents) emit(e);
        if (claim == null) {
            phase = Phase.MODEL_OPEN;
        } else if (!state.calls.isEmpty()) {
            phase = Phase.TOOLS;
        } else if (!state.messages.isEmpty() && state.messages.get(state.messages.size() - 1) instanceof Message.Assistant a
                && a.toolCalls().isEmpty()) {
            // an inner run that had already answered when its supervisor stopped: its answer stands
            emit(new AgentEvent.Finish(state.runId, "stop", state.text));
            complete();
        } else {
            phase = Phase.MODEL_OPEN;
        }
    }

    // ---- model ----------------------------------------------------------------------------------

    private void openModel() {
        if (state.step >= state.maxSteps) {
            emit(new AgentEvent.Finish(state.runId, "max-steps", state.text));
            complete();
            return;
        }
        storeProgress();   // every tool result is stored before the model is called again
        state.step++;
        modelStepOpen = true;
        emit(new AgentEvent.StepStart(state.runId, state.step));
        stepText.setLength(0);
        stepCalls.clear();
        ModelRequest request = new ModelRequest(agent.instructions(), state.messages, agent.toolDefinitions());
        agent.listeners().modelCallStarted(context, state.step);
        modelStartNanos = System.nanoTime();
        phase = Phase.MODEL_STREAM;
        try {
            modelStream = agent.model().stream(request);
            chunks = modelStream.iterator();
        } catch (RuntimeException e) {
            modelFailed(e);
        }
    }

    private void pullChunk() {
        ModelChunk chunk;
        try {
            if (chunks == null || !chunks.hasNext()) {
                closeModel(true, null);
                endOfModelAnswer();
                return;
            }
            chunk = chunks.next();
        } catch (RuntimeException e) {
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
                    modelFailed(new BatonException("the model repeated tool call id '" + call.toolCallId() + "' in one step"));
                    return;
                }
            }
            stepCalls.add(call);
            emit(new AgentEvent.ToolCall(state.runId, call.toolCallId(), call.toolName(), call.args()));
        }
    }

    private void endOfModelAnswer() {
        modelStepOpen = false;
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
        dirty = true;
        phase = Phase.TOOLS;
    }

    private void modelFailed(RuntimeException cause) {
        closeModel(false, cause);
        if (ToolRunner.isInterrupt(cause)) {
            stop("its thread was interrupted while the model answered", cause);
            return;
        }
        String provider = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        ModelException e = new ModelException("The model failed in step " + state.step + " of run '" + state.runId
                + "': " + provider, cause);
        if (claim != null) {
            // a run being resumed is never lost to its model: it is kept, and continueRun retries the step
            stop("the model failed in step " + state.step + ": " + provider, e);
            return;
        }
        end(RunOutcome.FAILED, e, "error");
    }

    private void closeModel(boolean ok, @Nullable Throwable failure) {
        Stream<ModelChunk> s = modelStream;
        modelStream = null;
        chunks = null;
        if (s != null) {
            try {
                s.close();
            } catch (RuntimeException e) {
                LOG.debug("closing the model stream failed", e);
            }
            agent.listeners().modelCallFinished(context, new RunListener.ModelCall(state.step, ok,
                    Duration.ofNanos(System.nanoTime() - modelStartNanos), failure));
        }
    }

    // ---- tools ----------------------------------------------------------------------------------

    private void nextCall() {
        for (CallState call : state.calls) {
            if (call.status == Status.DONE && call.inner != null && call.inner.cleanup) {
                SubagentExecutor.cleanUp(this, call);
            }
        }
        CallState next = null;
        for (CallState call : state.calls) {
            if (call.status == Status.PENDING || call.status == Status.EXECUTING) {
                next = call;
                break;
            }
        }
        if (next == null) {
            phase = Phase.AFTER_TOOLS;
            return;
        }
        Tool tool = agent.tool(next.toolName);
        if (tool == null) {
            String message = "Unknown tool '" + next.toolName + "'";
            done(next, TextNode.valueOf(message), true);
            emit(new AgentEvent.ToolError(state.runId, next.toolCallId, next.toolName, message));
            return;
        }
        if (next.status == Status.PENDING && tool.requiresApproval(ToolRunner.args(next))) {
            next.status = Status.AWAITING_APPROVAL;
            next.waitedFor = Status.AWAITING_APPROVAL;
            dirty = true;
            emit(new AgentEvent.ToolCallApproval(state.runId, next.toolCallId, next.toolName, ToolRunner.args(next)));
            return;
        }
        execute(tool, next);
    }

    private void execute(Tool tool, CallState call) {
        boolean subagent = tool.executor() instanceof SubagentExecutor;
        if (subagent) SubagentExecutor.prepare((SubagentExecutor) tool.executor(), call);
        RunClaim c = claim;
        if (c != null && call.toolCallId.equals(claimedExecuting)) {
            claimedExecuting = null;
            c.fence();
        } else {
            call.status = Status.EXECUTING;
            call.attempts++;
            if (c != null) {
                c.progress(SnapshotCodec.encode(state));   // also proves the lease is still ours
                dirty = false;
            }
        }
        if (subagent) {
            ((SubagentExecutor) tool.executor()).execute(this, call);
        } else {
            tools.run(tool, call, this::emit);
        }
        dirty = true;
    }

    void done(CallState call, JsonNode result, boolean isError) {
        call.status = Status.DONE;
        call.result = result;
        call.isError = isError;
        call.suspendPayload = null;
        call.resumeData = null;
        dirty = true;
    }

    /** Stores the run's progress now (a subagent's result must be stored before its inner run is deleted). */
    void storeProgress() {
        RunClaim c = claim;
        if (c != null && dirty) {
            c.progress(SnapshotCodec.encode(state));
            dirty = false;
        }
    }

    boolean claimed() {
        return claim != null;
    }

    private void afterTools() {
        if (!state.waitingCalls().isEmpty()) {
            suspendRun();
            return;
        }
        for (CallState c : state.calls) {
            JsonNode result = c.result == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : c.result;
            state.messages.add(new Message.ToolResult(c.toolCallId, c.toolName, result, c.isError));
        }
        state.calls = new ArrayList<>();
        dirty = true;
        emit(new AgentEvent.StepFinish(state.runId, state.step, "tool-calls"));
        phase = Phase.MODEL_OPEN;
    }

    // ---- endings --------------------------------------------------------------------------------

    private void suspendRun() {
        state.interruption = null;
        String payload = SnapshotCodec.encode(state);
        if (claim == null) {
            insert(payload);
        } else {
            claim.suspend(payload);
        }
        dirty = false;
        setOutcome(RunOutcome.SUSPENDED, null);
    }

    private void insert(String payload) {
        java.time.Instant now = agent.clock().instant();
        RunSnapshot snapshot = new RunSnapshot(state.runId, agent.id(), RunStatus.SUSPENDED, state.threadId,
                state.resourceId, state.createdAt, now, 1, null, null, payload);
        if (!agent.store().insert(snapshot)) {
            throw new StorageException("Run id '" + state.runId + "' is already stored in " + agent.store().describe());
        }
    }

    private void complete() {
        RunClaim c = claim;
        if (c != null && !forParent) c.complete();
        setOutcome(RunOutcome.COMPLETED, null);
    }

    /**
     * Stops the run where it is and keeps it: a claimed run is written back with its progress,
     * marked interrupted; a run never stored is inserted that way if a tool ran or a call waits
     * (otherwise there is nothing to keep). The thread's interrupt flag is kept.
     */
    private void stop(String why, @Nullable Throwable cause) {
        closeModel(false, null);
        if (modelStepOpen) {
            modelStepOpen = false;
            state.step--;   // the cut answer is not kept; continuing asks the model again
        }
        boolean interrupted = Thread.interrupted();   // store I/O on an interrupted thread fails with some drivers
        try {
            boolean kept = keep(why);
            RunInterruptedException e = new RunInterruptedException(state.runId, why, cause);
            if (kept) {
                end(RunOutcome.INTERRUPTED, e, "interrupted");
            } else {
                end(RunOutcome.FAILED, e, "error");
            }
        } catch (LeaseLostException | StorageException e) {
            if (cause != null) e.addSuppressed(cause);
            end(RunOutcome.FAILED, e, "error");
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    private boolean keep(String why) {
        state.interruption = why;
        String payload = SnapshotCodec.encode(state);
        RunClaim c = claim;
        if (c != null) {
            c.release(payload);
            return true;
        }
        if (!worthKeeping()) return false;
        insert(payload);
        return true;
    }

    /** A run never stored is kept when stopped only if it has something a restart would lose. */
    private boolean worthKeeping() {
        for (CallState c : state.calls) if (c.status != Status.PENDING) return true;
        for (Message m : state.messages) if (m instanceof Message.ToolResult) return true;
        return false;
    }

    /** The store or the lease failed: nothing can be written, the stored run stays as it was. */
    private void fail(RuntimeException e) {
        closeModel(false, e);
        RunClaim c = claim;
        if (c != null) c.abandon();
        end(RunOutcome.FAILED, e, "error");
    }

    private void end(RunOutcome o, Throwable e, String finishReason) {
        emit(new AgentEvent.Error(state.runId, e.getMessage() == null ? e.toString() : e.getMessage(), e));
        emit(new AgentEvent.StepFinish(state.runId, state.step, finishReason));
        emit(new AgentEvent.Finish(state.runId, finishReason, state.text));
        setOutcome(o, e);
    }

    private void setOutcome(RunOutcome o, @Nullable Throwable e) {
        outcome = o;
        error = e;
        phase = Phase.DONE;
        agent.listeners().runEnded(context, o, e, Duration.ofNanos(System.nanoTime() - startNanos));
    }

    /**
     * The consumer closed the stream before its end: no further tool or model call is started.
     * Calls still to be looked at get their approval check (no tool runs); if then every call is
     * decided or waits for a human, the run suspends as usual. Otherwise it stops where it is and
     * is kept as interrupted; a model call under way is cancelled.
     */
    void close() {
        if (phase == Phase.DONE) return;
        RunClaim c = claim;
        if (c != null && !c.busy(true)) {
            c.busy(false);
            if (!c.releasedUnread()) {
                fail(new LeaseLostException(state.runId));
                return;
            }
            // released unread and closed unread: its decision is kept, nothing more to do
            setOutcome(RunOutcome.INTERRUPTED, new RunInterruptedException(state.runId,
                    "its stream was closed before it was read", null));
            return;
        }
        try {
            if (phase == Phase.TOOLS) {
                for (CallState call : state.calls) {
                    if (call.status != Status.PENDING) continue;
                    Tool tool = agent.tool(call.toolName);
                    if (tool != null && tool.requiresApproval(ToolRunner.args(call))) {
                        call.status = Status.AWAITING_APPROVAL;
                        call.waitedFor = Status.AWAITING_APPROVAL;
                    }
                }
                boolean onlyWaiting = !state.waitingCalls().isEmpty() && state.calls.stream()
                        .allMatch(call -> call.status == Status.DONE || call.waiting());
                if (onlyWaiting) {
                    try {
                        suspendRun();
                    } catch (LeaseLostException | StorageException e) {
                        fail(e);
                    }
                    return;
                }
            }
            stop("its stream was closed before the run ended", null);
        } finally {
            if (c != null) c.busy(false);
        }
    }
}
