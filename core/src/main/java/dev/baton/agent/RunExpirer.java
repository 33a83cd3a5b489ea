package dev.baton.agent;

import dev.baton.InvalidOptionException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls {@link Agent#expireDueRuns(int)} for some agents on a schedule, on one daemon thread of
 * its own. Any number of instances may run one at once: each due run is handled exactly once.
 *
 * <pre>{@code
 * Agent agent = Agent.builder("inbox")...waitTimeout(Duration.ofDays(2))
 *     .onExpiry(ExpiryPolicy.decline("Nobody answered within two days")).build();
 * try (RunExpirer expirer = RunExpirer.start(Duration.ofMinutes(1), 100, agent)) {
 *     ... // the application runs
 * }
 * }</pre>
 *
 * A failing pass (the store is down) is logged and tried again at the next tick.
 *
 * <p>Thread-safe. Closing: the caller owns it and closes it ({@link #close()} stops its one daemon thread; a pass under way finishes its current run). It closes no agent.
 */
public final class RunExpirer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RunExpirer.class);

    private final ScheduledExecutorService scheduler;

    private RunExpirer(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Starts expiring due runs of {@code agents} every {@code every}, at most {@code batch} runs per
     * agent per pass (a pass that found a full batch goes on at once with the next one).
     *
     * @param every  how often, positive
     * @param batch  the most runs per agent per pass, at least 1
     * @param agents the agents whose due runs to expire
     * @return the running expirer; close it to stop
     */
    public static RunExpirer start(Duration every, int batch, Agent... agents) {
        Objects.requireNonNull(every, "every");
        if (every.isNegative() || every.isZero()) throw new InvalidOptionException("every", "must be positive");
        if (batch < 1) throw new InvalidOptionException("batch", "must be positive, was " + batch);
        List<Agent> list = List.of(agents);
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "baton-run-expirer");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(() -> pass(list, batch), every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
        return new RunExpirer(scheduler);
    }

    private static void pass(List<Agent> agents, int batch) {
        for (Agent agent : agents) {
            try {
                for (int rounds = 0; rounds < 100; rounds++) {
                    ExpiryReport report = agent.expireDueRuns(batch);
                    if (report.handled() > 0) {
                        LOG.info("Agent {}: expired {} run(s) ({})", agent.id(), report.handled(), agent.expiryPolicy().action());
                    }
                    if (report.due() < batch || report.handled() == 0) break;
                }
            } catch (RuntimeException e) {
                LOG.warn("Agent {}: expiring due runs failed, will try again: {}", agent.id(), e.toString());
            }
        }
    }

    /** Stops the schedule; a pass under way finishes its current run. */
    @Override
    public void close() {
        scheduler.shutdown();
    }
}
