package dev.baton.agent;

import java.util.List;
import java.util.function.Consumer;
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
    void event(RunListener.RunEvent e) { each(l -> l.event(e)); }
    void runEnded(RunListener.RunEnd e) { each(l -> l.runEnded(e)); }
    void claimed(String agentId, String runId, RunAction action) {
        if (listeners.isEmpty()) return;
        RunListener.Claim c = new RunListener.Claim(agentId, runId, action);
        each(l -> l.claimed(c));
    }
    void claimConflict(String agentId, String runId, RunAction action) {
        RunListener.Claim c = new RunListener.Claim(agentId, runId, action);
        each(l -> l.claimConflict(c));
    }
    void leaseLost(String agentId, String runId) {
        RunListener.LeaseLoss loss = new RunListener.LeaseLoss(agentId, runId);
        each(l -> l.leaseLost(loss));
    }
    void toolStarted(RunListener.ToolStart t) { each(l -> l.toolStarted(t)); }
    void toolFinished(RunListener.ToolExecution t) { each(l -> l.toolFinished(t)); }
    void modelCallStarted(RunListener.ModelCallStart c) { each(l -> l.modelCallStarted(c)); }
    void modelCallFinished(RunListener.ModelCall c) { each(l -> l.modelCallFinished(c)); }
}
