package dev.baton.agent;

import java.util.Iterator;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The events of one run, as they happen. The run advances as you iterate: each event is
 * produced when you ask for it, so a slow consumer never falls behind the run.
 *
 * <pre>{@code
 * try (AgentStream stream = agent.approveToolCall(runId, toolCallId)) {
 *     for (AgentEvent e : stream) System.out.println(e.type());
 *     System.out.println(stream.outcome());
 * }
 * }</pre>
 *
 * <p>Single pass: iterating again continues where the last iteration stopped. {@link #close()}
 * on a stream that has not ended stops the run where it is: no further tool or model call starts,
 * and a model call under way is cancelled. If what is left is only calls waiting for a human (you
 * broke out of the loop at {@code tool-call-approval}), the run suspends as usual; otherwise it is
 * kept as interrupted and {@link Agent#continueRun(String)} goes on later. A stream that is
 * neither iterated nor closed does nothing; a run claimed for it is given back after the agent's
 * pickup timeout, with the decision kept. Not thread-safe: one consumer.
 */
public final class AgentStream implements Iterable<AgentEvent>, AutoCloseable {
    private final RunExecution execution;

    AgentStream(RunExecution execution) {
        this.execution = execution;
    }

    /** The run's id: stored with its snapshot, and what approve / decline / resume take. */
    public String runId() {
        return execution.runId();
    }

    @Override
    public Iterator<AgentEvent> iterator() {
        return execution;
    }

    /** Calls {@code action} for each remaining event, as it happens, then returns the result. */
    public AgentResult forEachEvent(Consumer<? super AgentEvent> action) {
        while (execution.hasNext()) action.accept(execution.next());
        return result();
    }

    /** How the run ended; empty until the stream is drained. */
    public Optional<RunOutcome> outcome() {
        return Optional.ofNullable(execution.outcome());
    }

    /** Drains the stream; true if the run completed. */
    public boolean isCompleted() {
        return result().outcome() == RunOutcome.COMPLETED;
    }

    /** Drains the stream; true if the run suspended. */
    public boolean isSuspended() {
        return result().outcome() == RunOutcome.SUSPENDED;
    }

    /** Drains the stream; true if the run failed. */
    public boolean isFailed() {
        return result().outcome() == RunOutcome.FAILED;
    }

    /** Drains the stream and returns the text the model produced in it. */
    public String text() {
        return result().text();
    }

    /** Drains the stream and returns everything about it. */
    public AgentResult result() {
        execution.drain();
        RunOutcome outcome = execution.outcome();
        return new AgentResult(execution.runId(), outcome == null ? RunOutcome.FAILED : outcome, execution.text(),
                execution.history(), execution.waitingCalls(), execution.error());
    }

    /**
     * Stops the run where it is, cancelling a model call under way: it suspends if only calls
     * waiting for a human are left, else it is kept as interrupted (see the class comment). Does
     * nothing once the stream has ended.
     */
    @Override
    public void close() {
        execution.close();
    }

    RunExecution execution() {
        return execution;
    }
}
