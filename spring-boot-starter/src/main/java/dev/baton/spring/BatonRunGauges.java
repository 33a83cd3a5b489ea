package dev.baton.spring;

import dev.baton.agent.Agent;
import dev.baton.store.RunStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;

/**
 * The gauges {@code baton.runs.suspended} and {@code baton.runs.resuming} (tag {@code agent}), one
 * per {@link Agent} bean. A scrape only reads a cached number: the runs are counted in the store
 * ({@link Agent#countRuns()}, one count query per status) in the background, every
 * {@code baton.metrics.suspended-runs-refresh}. Until the first count the gauges read NaN; when a
 * count fails they keep the last value (the store's health indicator tells that the store is down).
 *
 * <p>Thread-safe. It owns one daemon thread ({@code baton-run-gauges}) between {@link #start()} and
 * {@link #stop()}; Spring calls both (a {@link SmartLifecycle}).
 */
public final class BatonRunGauges implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(BatonRunGauges.class);

    /** Runs waiting for a human or for data, including those whose lease lapsed. */
    public static final String SUSPENDED = "baton.runs.suspended";
    /** Runs being resumed under a live lease. */
    public static final String RESUMING = "baton.runs.resuming";

    private static final class Counts {
        volatile double suspended = Double.NaN;
        volatile double resuming = Double.NaN;
        volatile boolean failing;
    }

    private final MeterRegistry registry;
    private final ObjectProvider<Agent> agentBeans;
    private final Duration interval;
    private final Map<String, Agent> agents = new LinkedHashMap<>();
    private final Map<String, Counts> counts = new LinkedHashMap<>();
    private volatile boolean running;
    private ScheduledExecutorService scheduler;

    /**
     * @param registry   where the gauges go
     * @param agentBeans the agents to count, resolved at start
     * @param interval   how often to count again
     */
    public BatonRunGauges(MeterRegistry registry, ObjectProvider<Agent> agentBeans, Duration interval) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.agentBeans = Objects.requireNonNull(agentBeans, "agentBeans");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("baton.metrics.suspended-runs-refresh must be positive, was " + interval);
        }
        this.interval = interval;
    }

    /** Registers a gauge pair per agent bean and starts counting in the background. */
    @Override
    public synchronized void start() {
        if (running) return;
        agentBeans.orderedStream().forEach(a -> agents.putIfAbsent(a.id(), a));
        for (String id : agents.keySet()) {
            Counts c = counts.computeIfAbsent(id, k -> new Counts());
            Gauge.builder(SUSPENDED, c, x -> x.suspended).description("Stored runs that wait for a human or for data")
                    .tag("agent", id).strongReference(true).register(registry);
            Gauge.builder(RESUMING, c, x -> x.resuming).description("Stored runs being resumed under a live lease")
                    .tag("agent", id).strongReference(true).register(registry);
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "baton-run-gauges");
            t.setDaemon(true);
            return t;
        });
        if (!agents.isEmpty()) {
            scheduler.scheduleWithFixedDelay(this::refresh, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        }
        running = true;
    }

    /** Counts every agent's runs now (the background task does this every interval). */
    public void refresh() {
        for (Map.Entry<String, Agent> e : agents.entrySet()) {
            Counts c = counts.get(e.getKey());
            try {
                Map<RunStatus, Long> n = e.getValue().countRuns();
                c.suspended = n.getOrDefault(RunStatus.SUSPENDED, 0L);
                c.resuming = n.getOrDefault(RunStatus.RESUMING, 0L);
                if (c.failing) LOG.info("Counting the runs of agent '{}' works again", e.getKey());
                c.failing = false;
            } catch (RuntimeException ex) {
                if (!c.failing) {
                    LOG.warn("Cannot count the runs of agent '{}'; its gauges keep their last value: {}", e.getKey(), ex.toString());
                }
                c.failing = true;
            }
        }
    }

    /** {@return the agent ids that have gauges} */
    public synchronized java.util.Set<String> agentIds() {
        return java.util.Set.copyOf(agents.keySet());
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) scheduler.shutdownNow();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
