package dev.baton.agent;

import dev.baton.BatonException;
import dev.baton.ModelException;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A drained run: what {@link Agent#generate} returns and {@link AgentStream#result()} gives.
 * Immutable and thread-safe (events copy their JSON). Its canonical constructor is for core and
 * tests, and the record may gain components in a minor release.
 *
 * @param runId        the run's id; for a suspended run, pass it to approve / decline / resume
 * @param outcome      completed, suspended, interrupted, cancelled or failed
 * @param text         all text the model produced in this stream
 * @param events       every event, in order
 * @param waitingCalls for a suspended run, the calls it waits on; else empty
 * @param error        for a failed or interrupted run, what stopped it; else null
 */
public record AgentResult(String runId, RunOutcome outcome, String text, List<AgentEvent> events,
                          List<AgentRunToolCall> waitingCalls, @Nullable Throwable error) {
    /**
     * Copies the lists.
     *
     * @param runId the run's id; for a suspended run, pass it to approve / decline / resume
     * @param outcome completed, suspended, interrupted, cancelled or failed
     * @param text all text the model produced in this stream
     * @param events every event, in order
     * @param waitingCalls for a suspended run, the calls it waits on; else empty
     * @param error for a failed or interrupted run, what stopped it; else null
     */
    public AgentResult {
        events = List.copyOf(events);
        waitingCalls = List.copyOf(waitingCalls);
    }

    /**
     * The model failure that stopped the run, if a model failure did: the {@link ModelException}
     * naming the run and the step, whether the run failed ({@code FAILED}, a run never stored) or
     * was kept ({@code INTERRUPTED}, where it is the cause of the {@link dev.baton.RunInterruptedException}).
     * {@link ModelException#retryable()} says whether {@code continueRun} may help.
     *
     * @return the model failure, or empty if the run did not stop on its model
     */
    public Optional<ModelException> modelFailure() {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof ModelException m) return Optional.of(m);
            if (t.getCause() == t) break;
        }
        return Optional.empty();
    }

    /**
     * This result, or the run's failure thrown as an unchecked exception.
     *
     * @return this result, when the run has no error
     */
    public AgentResult orThrow() {
        if (error == null) return this;
        if (error instanceof RuntimeException re) throw re;
        throw new BatonException("Run '" + runId + "' failed: " + error.getMessage(), error);
    }

    /** {@return the {@code type()} of each event, in order: handy in tests and logs} */
    public List<String> eventTypes() {
        return events.stream().map(AgentEvent::type).toList();
    }
}
