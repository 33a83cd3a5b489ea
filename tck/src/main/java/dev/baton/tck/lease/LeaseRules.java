package dev.baton.tck.lease;

import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunPage;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every rule group of {@code LeaseContract} works with: the store of the running test, opened
 * before it and closed after it, an agent id of its own, and runs claimed by {@link #OWNER}.
 */
abstract class LeaseRules {
    /** The owner the tests claim runs as. */
    static final String OWNER = "instance-1";

    private final StoreUnderTest storeUnderTest;
    /** The store of the running test. */
    SnapshotStore store;
    /** An agent id owned by the running test. */
    final String agent = uniqueId("tck-lease");

    LeaseRules(StoreUnderTest storeUnderTest) {
        this.storeUnderTest = storeUnderTest;
    }

    @BeforeEach
    void openTheStore() throws Exception {
        store = storeUnderTest.open();
    }

    @AfterEach
    void closeTheStore() {
        if (store != null) store.close();
    }

    RunSnapshot insert(RunSnapshot s) {
        assertThat(store.insert(s)).as("insert of %s", s.runId()).isTrue();
        return s;
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

    List<String> ids(RunPage page) {
        return page.items().stream().map(RunSnapshot::runId).toList();
    }

    RunSnapshot stored(RunSnapshot s) {
        return store.find(s.runId()).orElseThrow(() -> new AssertionError("run " + s.runId() + " is gone"));
    }
}
