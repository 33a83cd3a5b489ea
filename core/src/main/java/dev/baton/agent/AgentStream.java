package dev.baton.agent;

import java.util.Iterator;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

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
 * pickup timeout, with the decision kept.
 *
 * <p>Reading: {@link #text()} and {@link #result()} drain the stream, running the agent to its next
 * stop; {@link #outcome()} only reports. Not thread-safe: one consumer reads a stream, on one thread
 * at a time. Closing: the caller closes it (try-with-resources); closing a drained stream does
 * nothing. {@code Agent.close()} does not close streams in flight (see {@link Agent#close()}).
 */
public final class AgentStream implements Iterable<AgentEvent>, AutoCloseable {
    private final @Nullable RunExecution execution;
    private final dev.baton.store.@Nullable DecisionRecord decision;
    private final boolean replayed;
    /** For a replay: the fixed result; the stream runs nothing. */
    private final @Nullable AgentResult fixed;

    AgentStream(RunExecution execution) {
        this(execution, null, false);
    }

    AgentStream(RunExecution execution, dev.baton.store.@Nullable DecisionRecord decision, boolean replayed) {
        this.execution = execution;
        this.decision = decision;
        this.replayed = replayed;
        this.fixed = null;
    }

    /** A replay: runs nothing, reports {@code result}. */
    AgentStream(AgentResult result, dev.baton.store.DecisionRecord first) {
        this(result, first, true);
    }

    /** A decision that runs nothing (a replay, or an approval that waits for more approvals): reports {@code result}. */
    AgentStream(AgentResult result, dev.baton.store.@Nullable DecisionRecord decision, boolean replayed) {
        this.execution = null;
        this.decision = decision;
        this.replayed = replayed;
        this.fixed = result;
    }

    /**
     * The decision this stream carries out, as recorded in the audit trail (for approve, decline,
     * resume and continue on a store with {@link dev.baton.store.StoreCapability#DECISIONS}); for a
     * {@link #replayed()} stream, the first decision with the same idempotency key.
     *
     * @return the record, or empty (a new run, or a store that keeps no decisions)
     */
    public Optional<dev.baton.store.DecisionRecord> decision() {
        return Optional.ofNullable(decision);
    }

    /**
     * True if this stream answers a decision sent again with an idempotency key already recorded: it
     * runs nothing and has no events; {@link #decision()} is the first decision, and {@link #result()}
     * reports the run as it stands now ({@link RunOutcome#SUSPENDED} or {@link RunOutcome#INTERRUPTED}
     * with its waiting calls if it is still stored, else {@link RunOutcome#COMPLETED}, or
     * {@link RunOutcome#CANCELLED} for a cancel).
     *
     * @return whether this is the replay of an earlier decision
     */
    public boolean replayed() {
        return replayed;
    }

    /** {@return the run's id: stored with its snapshot, and what approve / decline / resume take} */
    public String runId() {
        return fixed != null ? fixed.runId() : execution.runId();
    }

    /**
     * The events still to come. Each {@code hasNext()} runs the agent until the next event (or its end).
     *
     * @return the single-pass iterator of this stream
     */
    @Override
    public Iterator<AgentEvent> iterator() {
        return fixed != null ? java.util.Collections.emptyIterator() : execution;
    }

    /**
     * Runs the agent to its next stop, calling {@code action} for each remaining event as it happens,
     * then returns the result.
     *
     * @param action called with each event
     * @return the result, as {@link #result()}
     */
    public AgentResult forEachEvent(Consumer<? super AgentEvent> action) {
        if (fixed != null) return fixed;
        while (execution.hasNext()) action.accept(execution.next());
        return result();
    }

    /**
     * How the run ended: empty until the stream has ended (iterated to its end, drained by
     * {@link #result()} or {@link #text()}, or closed). Does not run anything.
     *
     * @return the outcome, or empty while the run goes on
     */
    public Optional<RunOutcome> outcome() {
        if (fixed != null) return Optional.of(fixed.outcome());
        return Optional.ofNullable(execution.outcome());
    }

    /**
     * Drains the stream: runs the agent to its next stop (its end, a suspension or a failure), then
     * returns the text the model produced in this stream. {@code result().text()}.
     *
     * @return all text of this stream
     */
    public String text() {
        return result().text();
    }

    /**
     * Drains the stream: runs the agent to its next stop (its end, a suspension or a failure), then
     * returns everything about it. Calling it again returns the same result without running anything.
     *
     * @return the outcome, text, events, waiting calls and error
     */
    public AgentResult result() {
        if (fixed != null) return fixed;
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
        if (execution != null) execution.close();
    }

    RunExecution execution() {
        if (execution == null) throw new IllegalStateException("a replayed decision has no execution");
        return execution;
    }
}
