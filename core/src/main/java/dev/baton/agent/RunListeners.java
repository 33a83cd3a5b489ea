package dev.baton.agent;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The agent's listeners as one: each call goes to every listener, and a listener that throws is logged and skipped. */
final class RunListeners {
    private static final Logger LOG = LoggerFactory.getLogger(RunListeners.class);
    static final RunListeners NONE = new RunListeners(List.of());

    private final List<RunListener> listeners;

    RunListeners(List<RunListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    boolean isEmpty() {
        return listeners.isEmpty();
    }

    private void each(Consumer<RunListener> call) {
        for (RunListener l : listeners) {
            try {
                call.accept(l);
            } catch (RuntimeException | LinkageError e) {
                LOG.warn("Run listener {} failed; the run goes on: {}", l.getClass().getName(), e.toString());
            }
        }
    }

    void runStarted(RunListener.RunContext run) { each(l -> l.runStarted(run)); }
    void event(RunListener.RunContext run, AgentEvent e) { each(l -> l.event(run, e)); }
    void runEnded(RunListener.RunContext run, RunOutcome o, @Nullable Throwable error, Duration d) { each(l -> l.runEnded(run, o, error, d)); }
    void claimed(String agentId, String runId, String action) { each(l -> l.claimed(agentId, runId, action)); }
    void claimConflict(String agentId, String runId, String action) { each(l -> l.claimConflict(agentId, runId, action)); }
    void leaseLost(String agentId, String runId) { each(l -> l.leaseLost(agentId, runId)); }
    void toolStarted(RunListener.RunContext run, String id, String name, int attempt) { each(l -> l.toolStarted(run, id, name, attempt)); }
    void toolFinished(RunListener.RunContext run, RunListener.ToolExecution t) { each(l -> l.toolFinished(run, t)); }
    void modelCallStarted(RunListener.RunContext run, int step) { each(l -> l.modelCallStarted(run, step)); }
    void modelCallFinished(RunListener.RunContext run, RunListener.ModelCall c) { each(l -> l.modelCallFinished(run, c)); }
}
