package dev.baton.spring;

import dev.baton.agent.RunListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * Counts what has no duration: {@code baton.claim.conflicts} (tags {@code agent}, {@code action}),
 * a claim that lost the race to another caller, and {@code baton.lease.lost} (tag {@code agent}),
 * a run this instance was working on and lost. The timers come from
 * {@link BatonObservationListener}; the gauges from {@link BatonRunGauges}.
 *
 * <p>Thread-safe (runs call it from many threads; Micrometer's registries are thread-safe); nothing
 * to close.
 */
public final class BatonMeterListener implements RunListener {

    /** Claims that lost the race. */
    public static final String CLAIM_CONFLICTS = "baton.claim.conflicts";
    /** Leases this instance lost. */
    public static final String LEASE_LOST = "baton.lease.lost";

    private final MeterRegistry registry;

    /**
     * Counts into {@code registry}.
     *
     * @param registry the meter registry (Spring Boot's)
     */
    public BatonMeterListener(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * Counts a claim that lost the race, tagged with the agent and the action's wire name
     * ({@code approve}, {@code decline}, {@code resume}, {@code continue}, {@code cancel},
     * {@code discard}, {@code expire}).
     *
     * @param claim the agent, the run and the action that lost
     */
    @Override
    public void claimConflict(Claim claim) {
        Counter.builder(CLAIM_CONFLICTS)
                .description("Approve, decline, resume, continue or discard calls that lost the race for a run to another caller")
                .tag("agent", claim.agentId())
                .tag("action", claim.action().wireName())
                .register(registry)
                .increment();
    }

    /**
     * Counts a lease this instance lost, tagged with the agent.
     *
     * @param loss the agent and the run
     */
    @Override
    public void leaseLost(LeaseLoss loss) {
        Counter.builder(LEASE_LOST)
                .description("Runs this instance was working on and lost to another instance (its lease lapsed)")
                .tag("agent", loss.agentId())
                .register(registry)
                .increment();
    }
}
