package dev.baton.tck.lease;

import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.StoreRules;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;

/**
 * What every rule group of {@code LeaseContract} works with: the store of the running test, opened
 * before it and closed after it, an agent id of its own, and runs claimed by {@link #OWNER}.
 */
abstract class LeaseRules extends StoreRules {
    /** The owner the tests claim runs as. */
    static final String OWNER = "instance-1";

    /** An agent id owned by the running test. */
    final String agent = uniqueId("tck-lease");

    LeaseRules(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    /** Claims {@code s} for {@link #OWNER} until {@code leaseExpiresAt}, keeping its payload. */
    RunSnapshot claim(RunSnapshot s, Instant leaseExpiresAt) {
        RunSnapshot c = s.claimed(OWNER, leaseExpiresAt, s.payload());
        assertThat(store.compareAndSet(s.version(), c)).as("claim of %s", s.runId()).isTrue();
        return c;
    }

    /** A suspended run of this test's agent, claimed by {@link #OWNER} until {@code leaseExpiresAt}. */
    RunSnapshot claimedRun(Instant leaseExpiresAt) {
        return claim(insert(suspended(agent, uniqueId("run"), "t", "r", 0)), leaseExpiresAt);
    }

    RunSnapshot stored(RunSnapshot s) {
        return store.find(s.runId()).orElseThrow(() -> new AssertionError("run " + s.runId() + " is gone"));
    }
}
