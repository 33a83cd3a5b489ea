package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.BatonException;
import dev.baton.LeaseLostException;
import dev.baton.ModelException;
import dev.baton.RunInterruptedException;
import dev.baton.StorageException;
import dev.baton.internal.CallState;
import dev.baton.internal.CallState.Status;
import dev.baton.internal.RunState;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.model.ModelRequest;
import dev.baton.model.ToolCall;
import dev.baton.tool.ApprovalContext;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run loop, as a pull-driven state machine: each {@link #hasNext()} does one unit of work
 * (one model chunk, one tool call, one store write) and queues the events it produced, so a
 * stream's events arrive as they happen and nothing runs ahead of the consumer. Tools run on the
 * consumer's thread. A model step is opened here on a {@link ModelTurn}, pulled chunk by chunk and
 * recorded, in the same state machine as the tools and the endings. What is written to the store,
 * and when, is {@link RunWrites}' business.
 */
final class RunExecution implements Iterator<AgentEvent> {
    private static final Logger LOG = LoggerFactory.getLogger(RunExecution.class);
    static final String NOT_APPROVED = "Tool call was not approved by the user";

    enum Phase { START, TOOLS, AFTER_TOOLS, MODEL_OPEN, MODEL_STREAM, DONE }

    /** A stop that leaves the run resumable (an interrupt, a subagent that cannot go on yet). Not a failure. */
    static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stop(String why, @Nullable Throwable cause) {
            super(why, cause, false, false);
        }
    }

    private final Agent agent;
    private final RunState state;
    private final RunWrites writes;
    private final List<AgentEvent> initialEvents;
    private final RunListener.RunContext context;
    private final ToolRunner tools;
    private final Deque<AgentEvent> buffer = new ArrayDeque<>();
    private final List<AgentEvent> history = new ArrayList<>();
    private final StringBuilder streamText = new StringBuilder();
    /** The model call under way; its step is not counted if the run stops before the answer is complete. */
    private @Nullable ModelTurn turn;
    /** True from a step's {@code step-start} until its answer is complete: a stop then does not count the step. */
    private boolean stepOpen;
    private Phase phase = Phase.START;
    private @Nullable RunOutcome outcome;
    private @Nullable Throwable error;
    private final long startNanos = System.nanoTime();

    RunExecution(Agent agent, RunState state, @Nullable RunClaim claim, RunAction action, List<AgentEvent> initialEvents,
                 @Nullable String claimedExecuting, boolean forParent) {
        this.agent = agent;
        this.state = state;
        this.writes = new RunWrites(agent, state, claim, claimedExecuting, forParent);
        this.initialEvents = List.copyOf(initialEvents);
        this.context = new RunListener.RunContext(agent.id(), state.runId, state.threadId, state.resourceId, action,
                new ConcurrentHashMap<>());
        this.tools = new ToolRunner(agent, state, context);
    }

    String runId() { return state.runId; }

    @Nullable RunOutcome outcome() { return outcome; }

    @Nullable Throwable error() { return error; }

    List<AgentEvent> history() { return history; }

    /** {@return the text the model streamed in this execution} */
    String text() { return streamText.toString(); }

    RunState state() { return state; }

    Agent agent() { return agent; }

    boolean claimed() { return writes.claimed(); }

    /** For the supervisor: the claim an inner run kept after it completed, so the supervisor deletes it after recording the result. */
    @Nullable RunClaim keptClaim() {
        return writes.forParent() && outcome == RunOutcome.COMPLETED ? writes.claim() : null;
    }

    List<AgentRunToolCall> waitingCalls() {
        return outcome == RunOutcome.SUSPENDED || outcome == RunOutcome.INTERRUPTED ? RunListing.waitingCalls(state, agent) : List.of();
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

    void phase(Phase next) {
        phase = next;
    }

    void emit(AgentEvent e) {
        buffer.add(e);
        history.add(e);
        RunListeners listeners = agent.listeners();
        if (!listeners.isEmpty()) listeners.event(new RunListener.RunEvent(context, e));
    }

    // ---- driving --------------------------------------------------------------------------------

    private void step() {
        agent.shutdown().stepStarted();
        try {
            writes.begin();
            if (Thread.currentThread().isInterrupted()) {
                stop("its thread was interrupted", null);
                return;
            }
            if (agent.shutdown().closing()) {   // the agent closes: stop between steps, hand the run back
                stop(AgentShutdown.reason(false), null);
                return;
            }
            switch (phase) {
                case START -> begin();
                case TOOLS -> nextCall();
                case AFTER_TOOLS -> afterTools();
                case MODEL_OPEN -> openModelStep();
                case MODEL_STREAM -> pullModelChunk();
                case DONE -> { }
            }
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
            writes.end();
            agent.shutdown().stepEnded();
        }
    }

    private void begin() {
        agent.listeners().runStarted(context);
        emit(new AgentEvent.Start(state.runId));
        for (AgentEvent e : initialEvents) emit(e);
        if (!writes.claimed()) {
            phase = Phase.MODEL_OPEN;
        } else if (!state.calls.isEmpty()) {
            phase = Phase.TOOLS;
        } else if (!state.messages.isEmpty() && state.messages.get(state.messages.size() - 1) instanceof Message.Assistant a
                && a.toolCalls().isEmpty()) {
            // a run that had already answered (an inner run whose supervisor stopped, or a run that
            // stopped between recording its answer and ending): its answer stands, and its thread gets it
            RunMemory.save(agent, state);
            emit(new AgentEvent.Finish(state.runId, FinishReason.STOP, state.text));
            complete();
        } else {
            phase = Phase.MODEL_OPEN;
        }
    }

    // ---- tools ----------------------------------------------------------------------------------

    private void nextCall() {
        for (CallState call : state.calls) {
            if (call.status == Status.DONE && call.inner != null && call.inner.cleanup) SubagentExecutor.cleanUp(this, call);
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
        if (next.status == Status.PENDING && tool.requiresApproval(ToolRunner.args(next), approvalContext(next))) {   // args: a copy
            next.status = Status.AWAITING_APPROVAL;
            next.waitedFor = Status.AWAITING_APPROVAL;
            writes.changed();
            emit(new AgentEvent.ToolCallApproval(state.runId, next.toolCallId, next.toolName, ToolRunner.args(next)));
            return;
        }
        if (tool.executor() instanceof SubagentExecutor sub) {
            SubagentExecutor.prepare(sub, next);   // the inner run's id is stored before the inner run can be
            writes.executing(next);
            sub.executeObserved(this, next, context);
        } else {
            writes.executing(next);
            tools.run(tool, next, this::emit);
        }
        writes.changed();
    }

    private ApprovalContext approvalContext(CallState call) {
        return new ApprovalContext(agent.id(), state.runId, call.toolCallId, call.toolName, state.threadId, state.resourceId);
    }

    void done(CallState call, JsonNode result, boolean isError) {
        call.status = Status.DONE;
        call.result = result;
        call.isError = isError;
        call.suspendPayload = null;
        call.resumeData = null;
        writes.changed();
    }

    /** Stores the run's progress now (a subagent's result must be stored before its inner run is deleted). */
    void storeProgress() {
        writes.progress();
    }

    private void afterTools() {
        if (!state.waitingCalls().isEmpty()) {
            writes.suspend();
            setOutcome(RunOutcome.SUSPENDED, null);
            return;
        }
        for (CallState c : state.calls) {
            JsonNode result = c.result == null ? NullNode.getInstance() : c.result;
            if (c.approvedArgs != null) result = Decisions.toldOfEdit(c.approvedArgs, result);
            state.messages.add(new Message.ToolResult(c.toolCallId, c.toolName, result, c.isError));
        }
        // only moves what is stored into the messages: no new write needed for it (a declined call's
        // result was stored with its claim; a tool's result marked the run changed when it came)
        state.calls = new ArrayList<>();
        emit(new AgentEvent.StepFinish(state.runId, state.step, FinishReason.TOOL_CALLS));
        phase = Phase.MODEL_OPEN;
    }

    // ---- the model's step: open the call, pull its answer chunk by chunk, record it -------------

    /**
     * Cuts a model call under way (closing it with {@code failure}, if any) and closes the step.
     *
     * @return true if a step was open: its answer is not kept, so the step is not counted
     */
    private boolean cutModelCall(@Nullable Throwable failure) {
        ModelTurn t = turn;
        turn = null;
        if (t != null) t.close(false, failure);
        boolean open = stepOpen;
        stepOpen = false;
        return open;
    }

    /**
     * The run's last messages go to its thread only once its snapshot holds them: a crash after the
     * append then finds them recorded, so a recovered run never answers differently from its thread.
     */
    private void recordThenSave() {
        if (state.memory && state.memorySaved < state.messages.size()) {
            writes.changed();
            writes.progress();
        }
        RunMemory.save(agent, state);
    }

    private void openModelStep() {
        if (state.step >= state.maxSteps) {
            recordThenSave();
            emit(new AgentEvent.Finish(state.runId, FinishReason.MAX_STEPS, state.text));
            complete();
            return;
        }
        writes.progress();   // every tool result is stored before the model is called again,
        // and before the thread gets it: the thread never holds a result the run may redo; a run not
        // stored yet saves nothing until its first write or its end (a run stored nowhere leaves nothing)
        if (writes.claimed()) RunMemory.save(agent, state);
        state.step++;
        stepOpen = true;
        emit(new AgentEvent.StepStart(state.runId, state.step));
        phase(Phase.MODEL_STREAM);
        try {
            turn = new ModelTurn(agent, context, state.step, new ModelRequest(agent.instructions(), RunMemory.conversation(state),
                    agent.toolDefinitions()));
        } catch (RuntimeException e) {
            modelFailed(e);
        }
    }

    private void pullModelChunk() {
        ModelTurn t = turn;
        ModelChunk chunk;
        try {
            chunk = t == null ? null : t.next();
        } catch (RuntimeException e) {
            modelFailed(e);
            return;
        }
        if (t == null || chunk == null) {
            endOfAnswer();
            return;
        }
        if (chunk instanceof ModelChunk.TextDelta d) {
            if (d.text().isEmpty()) return;
            t.text.append(d.text());
            streamText.append(d.text());
            emit(new AgentEvent.TextDelta(state.runId, d.text()));
        } else if (chunk instanceof ModelChunk.ToolCallRequest r) {
            ToolCall call = r.call();
            for (ToolCall seen : t.calls) {
                if (seen.toolCallId().equals(call.toolCallId())) {
                    modelFailed(new BatonException("the model repeated tool call id '" + call.toolCallId() + "' in one step"));
                    return;
                }
            }
            t.calls.add(call);
            emit(new AgentEvent.ToolCall(state.runId, call.toolCallId(), call.toolName(), call.args()));
        }
    }

    private void endOfAnswer() {
        ModelTurn t = turn;
        turn = null;
        String text = t == null ? "" : t.text.toString();
        List<ToolCall> calls = t == null ? List.of() : t.calls;
        if (t != null) t.close(true, null);
        stepOpen = false;
        state.messages.add(new Message.Assistant(text, calls));
        state.text = state.text + text;
        if (calls.isEmpty()) {
            recordThenSave();
            emit(new AgentEvent.StepFinish(state.runId, state.step, FinishReason.STOP));
            emit(new AgentEvent.Finish(state.runId, FinishReason.STOP, state.text));
            complete();
            return;
        }
        state.calls = new ArrayList<>();
        for (ToolCall tc : calls) {
            CallState cs = new CallState();
            cs.toolCallId = tc.toolCallId();
            cs.toolName = tc.toolName();
            cs.args = tc.args();
            state.calls.add(cs);
        }
        writes.changed();
        phase(Phase.TOOLS);
    }

    private void modelFailed(RuntimeException cause) {
        ModelTurn t = turn;
        if (t != null) t.close(false, cause);
        if (ToolRunner.isInterrupt(cause)) {
            stop("its thread was interrupted while the model answered", cause);
            return;
        }
        String provider = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        ModelException e = new ModelException("The model failed in step " + state.step + " of run '" + state.runId
                + "': " + provider, cause, ModelException.retryableCause(cause), state.runId, state.step);
        if (writes.claimed()) {
            // a run being resumed is never lost to its model: it is kept, and continueRun asks again
            stop("the model failed in step " + state.step + ": " + provider, e);
            return;
        }
        turn = null;
        stepOpen = false;
        end(RunOutcome.FAILED, e, FinishReason.ERROR, state.step);
    }

    // ---- endings --------------------------------------------------------------------------------

    void complete() {
        writes.complete();
        setOutcome(RunOutcome.COMPLETED, null);
    }

    /**
     * Stops the run where it is and keeps it (see {@link RunWrites#keep}); a model call under way is
     * cut and its step not counted. The thread's interrupt flag is kept.
     */
    void stop(String why, @Nullable Throwable cause) {
        boolean stepOpen = cutModelCall(null);
        int step = state.step;   // the step that stopped: what step-finish reports
        if (stepOpen) {
            state.step--;   // its answer is not kept (cut, failed, or never begun); continuing asks the model again
        }
        boolean interrupted = Thread.interrupted();   // store I/O on an interrupted thread fails with some drivers
        try {
            RunInterruptedException e = new RunInterruptedException(state.runId, why, cause);
            if (writes.keep(why)) {
                end(RunOutcome.INTERRUPTED, e, FinishReason.INTERRUPTED, step);
            } else {
                end(RunOutcome.FAILED, e, FinishReason.ERROR, step);
            }
        } catch (LeaseLostException | StorageException e) {
            if (cause != null) e.addSuppressed(cause);
            end(RunOutcome.FAILED, e, FinishReason.ERROR, step);
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** The store or the lease failed: nothing can be written, the stored run stays as it was. */
    private void fail(RuntimeException e) {
        cutModelCall(e);
        writes.abandon();
        end(RunOutcome.FAILED, e, FinishReason.ERROR, state.step);
    }

    /** The run fails or is kept: {@code error}, then {@code step-finish} of {@code step} (the step that stopped), then {@code finish}. */
    void end(RunOutcome o, Throwable e, FinishReason finishReason, int step) {
        emit(new AgentEvent.Error(state.runId, e.getMessage() == null ? e.toString() : e.getMessage(), e));
        emit(new AgentEvent.StepFinish(state.runId, step, finishReason));
        emit(new AgentEvent.Finish(state.runId, finishReason, state.text));
        setOutcome(o, e);
    }

    private void setOutcome(RunOutcome o, @Nullable Throwable e) {
        outcome = o;
        error = e;
        phase = Phase.DONE;
        RunListeners listeners = agent.listeners();
        if (!listeners.isEmpty()) listeners.runEnded(new RunListener.RunEnd(context, o, e, Duration.ofNanos(System.nanoTime() - startNanos)));
    }

    /**
     * The consumer closed the stream before its end: no further tool or model call is started.
     * Calls still to be looked at get their approval check (no tool runs); if then every call is
     * decided or waits for a human, the run suspends as usual. Otherwise it stops where it is and
     * is kept as interrupted; a model call under way is cancelled.
     */
    void close() {
        if (phase == Phase.DONE) return;
        if (writes.releasedUnread()) {
            // given back unread and closed unread: its decision is stored, nothing more to do
            setOutcome(RunOutcome.INTERRUPTED, new RunInterruptedException(state.runId,
                    "its stream was closed before it was read", null));
            return;
        }
        try {
            try {
                writes.begin();
            } catch (LeaseLostException e) {
                fail(e);
                return;
            }
            if (phase == Phase.TOOLS) {
                for (CallState call : state.calls) {
                    Tool tool = agent.tool(call.toolName);
                    if (call.status == Status.PENDING && tool != null && tool.requiresApproval(ToolRunner.args(call), approvalContext(call))) {
                        call.status = Status.AWAITING_APPROVAL;
                        call.waitedFor = Status.AWAITING_APPROVAL;
                    }
                }
                boolean onlyWaiting = !state.waitingCalls().isEmpty() && state.calls.stream()
                        .allMatch(call -> call.status == Status.DONE || call.waiting());
                if (onlyWaiting) {
                    try {
                        writes.suspend();
                        setOutcome(RunOutcome.SUSPENDED, null);
                    } catch (LeaseLostException | StorageException e) {
                        fail(e);
                    }
                    return;
                }
            }
            stop("its stream was closed before the run ended", null);
        } finally {
            writes.end();
        }
    }
}
