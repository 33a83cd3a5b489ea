package dev.baton.spring;

import dev.baton.agent.Agent;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * Closes every {@link Agent} bean when the context closes, before the web server drains: each
 * agent stops taking new runs and claims, lets its tools under way finish within
 * {@code baton.agent.shutdown-grace}, and hands back every run it still holds, so another instance
 * continues them at once (rule R12). The agents close in parallel, so the whole stop takes about
 * one grace period, not one per agent. Spring's own {@code close()} of each bean afterwards does
 * nothing more.
 *
 * <p>Phase: {@code DEFAULT_PHASE - 512}: after the application's own default-phase lifecycles
 * (message listeners that start runs stop first), before the web server's graceful shutdown
 * ({@code DEFAULT_PHASE - 1024}), so the event streams still open end as interrupted instead of
 * holding the drain for a whole tool.
 */
final class AgentShutdownLifecycle implements SmartLifecycle {
    /** The phase this lifecycle stops in. */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

    private final ObjectProvider<Agent> agents;
    private volatile boolean running;

    AgentShutdownLifecycle(ObjectProvider<Agent> agents) {
        this.agents = agents;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        List<Thread> closing = new ArrayList<>();
        agents.orderedStream().forEach(agent -> {
            Thread t = new Thread(agent::close, "baton-agent-close-" + agent.id());
            t.start();
            closing.add(t);
        });
        boolean interrupted = false;
        for (Thread t : closing) {
            try {
                t.join();   // each close returns within its grace period (plus the hand-back writes)
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
