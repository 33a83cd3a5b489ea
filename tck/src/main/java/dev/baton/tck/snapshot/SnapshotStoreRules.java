package dev.baton.tck.snapshot;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.StoreRules;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * What every rule group of {@code SnapshotStoreContract} works with: the store of the running test,
 * opened before it and closed after it, an agent id of its own (so the store need not be emptied
 * between tests, and several suites can share one database), and small helpers.
 */
abstract class SnapshotStoreRules extends StoreRules {
    /** An agent id owned by the running test. */
    final String agent = uniqueId("tck-agent");

    SnapshotStoreRules(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    /** Closes the store and opens a new one on the same database, as a restarted server would. */
    void restart() throws Exception {
        store.close();
        store = null;
        store = openStore();
    }

    RunQuery.Builder query() {
        return RunQuery.forAgent(agent, T0.plusSeconds(3600));
    }

    RunSnapshot claim(RunSnapshot s, Instant leaseExpiresAt) {
        RunSnapshot c = s.claimed("instance-1", leaseExpiresAt, s.payload());
        assertThat(store.compareAndSet(s.version(), c)).isTrue();
        return c;
    }

    static RunSnapshot fresh(RunSnapshot s) {
        return suspended(s.agentId(), s.runId() + "-new", "t", "r", 1);
    }

    /** One call of each kind on {@code target}, about run {@code s} (insert: of a new run). */
    static Map<String, Callable<?>> everyCall(SnapshotStore target, RunSnapshot s) {
        Map<String, Callable<?>> calls = new LinkedHashMap<>();
        calls.put("insert", () -> target.insert(fresh(s)));
        calls.put("find", () -> target.find(s.runId()));
        calls.put("compare-and-set", () -> target.compareAndSet(1, s.claimed("tck", T0.plusSeconds(60), "{}")));
        calls.put("delete", () -> target.delete(s.runId(), 1));
        calls.put("list", () -> target.list(RunQuery.forAgent(s.agentId(), T0.plusSeconds(3600)).page(0, 10).build()));
        calls.put("list (count only)", () -> target.list(RunQuery.forAgent(s.agentId(), T0.plusSeconds(3600)).countOnly().build()));
        return calls;
    }
}
