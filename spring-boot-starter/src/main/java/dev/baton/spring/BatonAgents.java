package dev.baton.spring;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;
import dev.baton.agent.RunListener;
import dev.baton.store.SnapshotStore;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Starts agent builders that already have what the application configured: the
 * {@link SnapshotStore} bean, the {@link Clock} bean (or the store's clock with
 * {@code baton.agent.use-store-clock}), every {@link RunListener} bean (the starter's metrics and
 * tracing listeners among them), the lease duration, pickup timeout, shutdown grace, instance id and step limit of
 * {@code baton.agent.*}, then every {@link AgentCustomizer}. Declare your agents as beans with it:
 *
 * <pre>{@code
 * @Bean
 * Agent concierge(BatonAgents baton, LanguageModel model) {
 *     return baton.agent("concierge")
 *             .instructions("You book flights.")
 *             .model(model)
 *             .tools(bookFlight)
 *             .build();
 * }
 * }</pre>
 *
 * <p>Everything set on the returned builder afterwards wins. An agent built with
 * {@code Agent.builder(id)} directly gets none of this (it would open its own store from
 * {@code baton.store.url} as a system property, else keep runs in memory). Every {@link Agent} bean
 * is served by the HTTP API and counted by the {@code baton.runs.suspended} gauge.
 *
 * <p>Thread-safe (it holds beans and settings only; each {@link #agent(String)} call returns a new
 * builder). Who closes what: Spring closes each {@code Agent} bean at shutdown ({@code close()},
 * inferred), which closes nothing the agent did not open itself; the store bean is closed by
 * Spring too, after the agents that use it.
 */
public final class BatonAgents {

    private final SnapshotStore store;
    private final Clock clock;
    private final BatonProperties.AgentDefaults defaults;
    private final ObjectProvider<RunListener> listeners;
    private final ObjectProvider<AgentCustomizer> customizers;

    /**
     * The builder source; {@link BatonAutoConfiguration} creates it.
     *
     * @param store       the store every agent uses
     * @param clock       the clock every agent uses (unless {@code useStoreClock})
     * @param defaults    {@code baton.agent.*}
     * @param listeners   the listeners every agent gets, in their order
     * @param customizers applied last, in their order
     */
    public BatonAgents(SnapshotStore store, Clock clock, BatonProperties.AgentDefaults defaults,
                       ObjectProvider<RunListener> listeners, ObjectProvider<AgentCustomizer> customizers) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.listeners = Objects.requireNonNull(listeners, "listeners");
        this.customizers = Objects.requireNonNull(customizers, "customizers");
    }

    /**
     * A builder for one agent with the store, clock, listeners and {@code baton.agent.*} settings
     * applied, then every {@link AgentCustomizer}.
     *
     * @param id the agent's id
     * @return a new builder; what is set on it afterwards wins
     */
    public AgentBuilder agent(String id) {
        AgentBuilder b = Agent.builder(id)
                .store(store)
                .leaseDuration(defaults.getLeaseDuration())
                .pickupTimeout(defaults.getPickupTimeout())
                .shutdownGrace(defaults.getShutdownGrace());
        if (defaults.isUseStoreClock()) {
            b.useStoreClock();
        } else {
            b.clock(clock);
        }
        if (defaults.getInstanceId() != null && !defaults.getInstanceId().isBlank()) b.instanceId(defaults.getInstanceId());
        if (defaults.getMaxSteps() != null) b.maxSteps(defaults.getMaxSteps());
        List<RunListener> all = listeners.orderedStream().toList();
        if (!all.isEmpty()) b.listeners(all.toArray(RunListener[]::new));
        customizers.orderedStream().forEach(c -> c.customize(id, b));
        return b;
    }

    /** {@return the store the agents use} */
    public SnapshotStore store() {
        return store;
    }

    /** {@return the clock the agents use (unless {@code baton.agent.use-store-clock})} */
    public Clock clock() {
        return clock;
    }

    /** {@return the listeners every agent gets, in their order} */
    public List<RunListener> listeners() {
        return listeners.orderedStream().toList();
    }
}
