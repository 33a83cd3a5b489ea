package dev.baton.agent;

import dev.baton.BatonException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A drained run: what {@link Agent#generate} returns and {@link AgentStream#result()} gives.
 *
 * @param runId        the run's id; for a suspended run, pass it to approve / decline / resume
 * @param outcome      completed, suspended or failed
 * @param text         all text the model produced in this stream
 * @param events       every event, in order
 * @param waitingCalls for a suspended run, the calls it waits on; else empty
 * @param error        for a failed run, what failed; else null
 */
public record AgentResult(String runId, RunOutcome outcome, String text, List<AgentEvent> events,
                          List<AgentRunToolCall> waitingCalls, @Nullable Throwable error) {
    public AgentResult {
        events = List.copyOf(events);
        waitingCalls = List.copyOf(waitingCalls);
    }

    /** This result, or the run's failure thrown as an unchecked exception. */
    public AgentResult orThrow() {
        if (error == null) return this;
        if (error instanceof RuntimeException re) throw re;
        throw new BatonException("Run '" + runId + "' failed: " + error.getMessage(), error);
    }

    /** The {@code type()} of each event, in order: handy in tests and logs. */
    public List<String> eventTypes() {
        return events.stream().map(AgentEvent::type).toList();
    }
}
