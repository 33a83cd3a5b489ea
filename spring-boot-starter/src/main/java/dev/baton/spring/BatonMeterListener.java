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
 */
public final class BatonMeterListener implements RunListener {

    /** Claims that lost the race. */
    public static final String CLAIM_CONFLICTS = "baton.claim.conflicts";
    /** Leases this instance lost. */
    public static final String LEASE_LOST = "baton.lease.lost";

    private final MeterRegistry registry;

    /** Counts into {@code registry}. */
    public BatonMeterListener(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public void claimConflict(String agentId, String runId, String action) {
        Counter.builder(CLAIM_CONFLICTS)
                .description("Approve, decline, resume, continue or discard calls that lost the race for a run to another caller")
                .tag("agent", agentId)
                .tag("action", action)
                .register(registry)
                .increment();
    }

    @Override
    public void leaseLost(String agentId, String runId) {
        Counter.builder(LEASE_LOST)
                .description("Runs this instance was working on and lost to another instance (its lease lapsed)")
                .tag("agent", agentId)
                .register(registry)
                .increment();
    }
}
