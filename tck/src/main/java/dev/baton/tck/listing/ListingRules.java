package dev.baton.tck.listing;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.payloadFor;
import static dev.baton.tck.support.Snapshots.uniqueId;

import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.Snapshots;
import dev.baton.tck.support.StoreRules;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import java.util.List;

/**
 * What every rule group of {@code ListingContract} works with: the store of the running test,
 * opened before it and closed after it, an agent id of its own, and runs named per test.
 */
abstract class ListingRules extends StoreRules {
    /** An agent id owned by the running test. */
    final String agent = uniqueId("tck-listing");

    ListingRules(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    /** The run id of the run this test calls {@code name}: unique to the test, since run ids are unique in a store. */
    String id(String name) {
        return agent + "/" + name;
    }

    /** A suspended run created {@code offset} ms after T0, with a summary, and a deadline if {@code expires} is set. */
    RunSnapshot run(String name, String thread, long offset, Instant expires) {
        String runId = id(name);
        Instant created = T0.plusMillis(offset);
        return RunSnapshot.builder().runId(runId).agentId(agent).status(RunStatus.SUSPENDED).threadId(thread)
                .resourceId("u").createdAt(created).suspendedAt(created).payload(payloadFor(runId))
                .expiresAt(expires).summary("{\"calls\":[],\"run\":" + Snapshots.json(runId) + "}").build();
    }

    /** The names of {@code runs} (their ids without this test's prefix). */
    List<String> ids(List<RunSnapshot> runs) {
        return runs.stream().map(r -> r.runId().startsWith(agent + "/") ? r.runId().substring(agent.length() + 1) : r.runId())
                .toList();
    }

    RunQuery.Builder query() {
        return RunQuery.forAgent(agent, T0.plusSeconds(3600));
    }
}
