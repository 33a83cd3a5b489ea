package dev.baton.agent;

import dev.baton.BatonException;
import dev.baton.ModelException;
import dev.baton.internal.CallState;
import dev.baton.internal.RunState;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.model.ModelRequest;
import dev.baton.model.ToolCall;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The model half of a {@link RunExecution}: opening a step's model call, pulling its answer one
 * chunk at a time, and recording the answer (or its failure). It holds the model call under way;
 * the run's phases, events and endings stay with {@link RunExecution}.
 */
final class RunModelStep {
    private final RunExecution run;
    private final Agent agent;
    private final RunState state;
    private final RunWrites writes;
    private final RunListener.RunContext context;
    private final StringBuilder streamText = new StringBuilder();
    /** The model call under way; its step is not counted if the run stops before the answer is complete. */
    private @Nullable ModelTurn turn;
    /** True from a step's {@code step-start} until its answer is complete: a stop then does not count the step. */
    private boolean stepOpen;

    RunModelStep(RunExecution run, Agent agent, RunState state, RunWrites writes, RunListener.RunContext context) {
        this.run = run;
        this.agent = agent;
        this.state = state;
        this.writes = writes;
        this.context = context;
    }

    /** {@return the text the model streamed in this execution} */
    String text() {
        return streamText.toString();
    }

    /**
     * Cuts a model call under way (closing it with {@code failure}, if any) and closes the step.
     *
     * @return true if a step was open: its answer is not kept, so the step is not counted
     */
    boolean cut(@Nullable Throwable failure) {
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

    void open() {
        if (state.step >= state.maxSteps) {
            recordThenSave();
            run.emit(new AgentEvent.Finish(state.runId, FinishReason.MAX_STEPS, state.text));
            run.complete();
            return;
        }
        writes.progress();   // every tool result is stored before the model is called again,
        // and before the thread gets it: the thread never holds a result the run may redo; a run not
        // stored yet saves nothing until its first write or its end (a run stored nowhere leaves nothing)
        if (writes.claimed()) RunMemory.save(agent, state);
        state.step++;
        stepOpen = true;
        run.emit(new AgentEvent.StepStart(state.runId, state.step));
        run.phase(RunExecution.Phase.MODEL_STREAM);
        try {
            turn = new ModelTurn(agent, context, state.step, new ModelRequest(agent.instructions(), RunMemory.conversation(state),
                    agent.toolDefinitions()));
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    void pull() {
        ModelTurn t = turn;
        ModelChunk chunk;
        try {
            chunk = t == null ? null : t.next();
        } catch (RuntimeException e) {
            failed(e);
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
            run.emit(new AgentEvent.TextDelta(state.runId, d.text()));
        } else if (chunk instanceof ModelChunk.ToolCallRequest r) {
            ToolCall call = r.call();
            for (ToolCall seen : t.calls) {
                if (seen.toolCallId().equals(call.toolCallId())) {
                    failed(new BatonException("the model repeated tool call id '" + call.toolCallId() + "' in one step"));
                    return;
                }
            }
            t.calls.add(call);
            run.emit(new AgentEvent.ToolCall(state.runId, call.toolCallId(), call.toolName(), call.args()));
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
            run.emit(new AgentEvent.StepFinish(state.runId, state.step, FinishReason.STOP));
            run.emit(new AgentEvent.Finish(state.runId, FinishReason.STOP, state.text));
            run.complete();
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
        run.phase(RunExecution.Phase.TOOLS);
    }

    private void failed(RuntimeException cause) {
        ModelTurn t = turn;
        if (t != null) t.close(false, cause);
        if (ToolRunner.isInterrupt(cause)) {
            run.stop("its thread was interrupted while the model answered", cause);
            return;
        }
        String provider = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        ModelException e = new ModelException("The model failed in step " + state.step + " of run '" + state.runId
                + "': " + provider, cause, ModelException.retryableCause(cause), state.runId, state.step);
        if (writes.claimed()) {
            // a run being resumed is never lost to its model: it is kept, and continueRun asks again
            run.stop("the model failed in step " + state.step + ": " + provider, e);
            return;
        }
        turn = null;
        stepOpen = false;
        run.end(RunOutcome.FAILED, e, FinishReason.ERROR, state.step);
    }
}
