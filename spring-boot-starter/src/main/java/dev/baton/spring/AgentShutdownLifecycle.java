package dev.baton.spring;

import dev.baton.agent.Agent;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;

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
 *
 * <p>Only when the context closes: a context that is only stopped, to be started again (Spring
 * Framework 7's test context cache pauses the contexts it is not using, an operator may
 * {@code stop()} and {@code start()}), keeps its agents, since a closed agent cannot be reopened.
 * The context publishes {@link ContextClosedEvent} before it stops its lifecycles, so the event
 * tells the two apart.
 */
final class AgentShutdownLifecycle implements SmartLifecycle, ApplicationListener<ContextClosedEvent>, ApplicationContextAware {
    /** The phase this lifecycle stops in. */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

    private final ObjectProvider<Agent> agents;
    private volatile boolean running;
    private volatile boolean closing;
    private @Nullable ApplicationContext context;

    AgentShutdownLifecycle(ObjectProvider<Agent> agents) {
        this.agents = agents;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void setApplicationContext(ApplicationContext context) {
        this.context = context;
    }

    /** The context is closing (not a child's: its event reaches this context's listeners too). */
    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        if (event.getApplicationContext() == context) closing = true;
    }

    @Override
    public void stop() {
        running = false;
        if (!closing) return;   // stopped to be started again: the agents stay open
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
