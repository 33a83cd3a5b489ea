package dev.baton.tck.snapshot;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.Snapshots;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A listing holds the runs of the queried agent that match every filter given: thread and resource
 * exactly, creation dates inclusively (to the millisecond, whatever the run id), and the status as of
 * the query's {@code now}: a run whose lease lapsed is suspended again, a {@code null} status matches both.
 */
public abstract class Filters extends SnapshotStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Filters(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void listsOnlyRunsOfTheQueriedAgent() {
        RunSnapshot mine = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
        insert(suspended(agent + "-other", uniqueId("run"), "t", "r", 1));
        insert(suspended(agent.substring(0, agent.length() - 1), uniqueId("run"), "t", "r", 2));
        assertThat(ids(store.list(query().build()))).containsExactly(mine.runId());
        assertThat(ids(store.list(query().threadId("t").resourceId("r").build()))).containsExactly(mine.runId());
    }

    @Test
    void threadFilterIsAnExactMatch() {
        RunSnapshot a = insert(suspended(agent, uniqueId("run"), "thread", "r", 0));
        insert(suspended(agent, uniqueId("run"), "thread-2", "r", 1));
        insert(suspended(agent, uniqueId("run"), "Thread", "r", 2));
        insert(suspended(agent, uniqueId("run"), null, "r", 3));
        RunPage page = store.list(query().threadId("thread").build());
        assertThat(ids(page)).containsExactly(a.runId());
        assertThat(page.total()).isEqualTo(1);
    }

    @Test
    void resourceFilterIsAnExactMatch() {
        RunSnapshot a = insert(suspended(agent, uniqueId("run"), "t", "user", 0));
        insert(suspended(agent, uniqueId("run"), "t", "user ", 1));
        insert(suspended(agent, uniqueId("run"), "t", "USER", 2));
        insert(suspended(agent, uniqueId("run"), "t", null, 3));
        assertThat(ids(store.list(query().resourceId("user").build()))).containsExactly(a.runId());
    }

    @Test
    void threadAndResourceCombineWithAnd() {
        RunSnapshot both = insert(suspended(agent, uniqueId("run"), "t1", "r1", 0));
        insert(suspended(agent, uniqueId("run"), "t1", "r2", 1));
        insert(suspended(agent, uniqueId("run"), "t2", "r1", 2));
        assertThat(ids(store.list(query().threadId("t1").resourceId("r1").build()))).containsExactly(both.runId());
    }

    @Test
    void fromDateIsInclusive() {
        RunSnapshot at = insert(suspended(agent, uniqueId("run"), "t", "r", 1000));
        RunSnapshot after = insert(suspended(agent, uniqueId("run"), "t", "r", 1001));
        insert(suspended(agent, uniqueId("run"), "t", "r", 999));
        assertThat(ids(store.list(query().createdFrom(T0.plusMillis(1000)).build())))
                .containsExactly(after.runId(), at.runId());
    }

    @Test
    void toDateIsInclusive() {
        RunSnapshot at = insert(suspended(agent, uniqueId("run"), "t", "r", 1000));
        RunSnapshot before = insert(suspended(agent, uniqueId("run"), "t", "r", 999));
        insert(suspended(agent, uniqueId("run"), "t", "r", 1001));
        assertThat(ids(store.list(query().createdTo(T0.plusMillis(1000)).build())))
                .containsExactly(at.runId(), before.runId());
    }

    @Test
    void equalFromAndToDatesSelectThatInstant() {
        RunSnapshot at = insert(suspended(agent, uniqueId("run"), "t", "r", 1000));
        insert(suspended(agent, uniqueId("run"), "t", "r", 999));
        insert(suspended(agent, uniqueId("run"), "t", "r", 1001));
        Instant t = T0.plusMillis(1000);
        assertThat(ids(store.list(query().createdFrom(t).createdTo(t).build()))).containsExactly(at.runId());
    }

    /**
     * Runs created exactly at the bounds are listed whatever their id: ids at the top and the
     * bottom of every string order (U+FFFF, characters above U+FFFF, U+0001) catch a range
     * that is bounded by a sentinel id instead of by the date alone.
     */
    @Test
    void dateBoundsAreInclusiveForEveryRunId() {
        Instant from = T0.plusMillis(1000);
        Instant to = T0.plusMillis(2000);
        List<String> atBounds = new ArrayList<>();
        List<String> outside = new ArrayList<>();
        for (String p : List.of("\uffff\uffff\uffff\uffff", "\uffff\uffff\uffff", "\ud83d\ude00", "\udbff\udfff\udbff\udfff",
                "\uefff", "\u0001", "~")) {
            String id = p + "-" + agent;
            atBounds.add(insert(run(id + "-to", to)).runId());
            atBounds.add(insert(run(id + "-from", from)).runId());
            outside.add(insert(run(id + "-after", to.plusMillis(1))).runId());
            outside.add(insert(run(id + "-before", from.minusMillis(1))).runId());
        }
        RunPage both = store.list(query().createdFrom(from).createdTo(to).build());
        assertThat(ids(both)).containsExactlyInAnyOrderElementsOf(atBounds);
        assertThat(both.total()).isEqualTo(atBounds.size());
        assertThat(store.list(query().createdFrom(from).createdTo(to).threadId("t").countOnly().build()).total())
                .isEqualTo(atBounds.size());
        List<String> upTo = ids(store.list(query().createdTo(to).build()));
        assertThat(upTo).hasSize(atBounds.size() + outside.size() / 2).containsAll(atBounds);
        List<String> onwards = ids(store.list(query().createdFrom(from).resourceId("r").build()));
        assertThat(onwards).hasSize(atBounds.size() + outside.size() / 2).containsAll(atBounds);
        List<String> exactlyTo = ids(store.list(query().createdFrom(to).createdTo(to).build()));
        assertThat(exactlyTo).containsExactlyInAnyOrderElementsOf(atBounds.stream().filter(id -> id.endsWith("-to")).toList());
        List<String> exactlyFrom = ids(store.list(query().createdFrom(from).createdTo(from).page(0, 100).build()));
        assertThat(exactlyFrom).containsExactlyInAnyOrderElementsOf(atBounds.stream().filter(id -> id.endsWith("-from")).toList());
    }

    private RunSnapshot run(String runId, Instant created) {
        return Snapshots.suspendedAt(agent, runId, created).threadId("t").resourceId("r").payload("{}").build();
    }

    @Test
    void datesFilterCreationTimeNotSuspensionTime() {
        Instant created = T0.plusSeconds(10);
        RunSnapshot s = insert(Snapshots.suspendedAt(agent, uniqueId("run"), created).threadId("t").resourceId("r")
                .suspendedAt(created.plusSeconds(1000)).payload("{}").build());
        assertThat(ids(store.list(query().createdFrom(created).createdTo(created).build())))
                .containsExactly(s.runId());
        assertThat(store.list(query().createdFrom(created.plusSeconds(1000)).build()).total()).isZero();
    }

    @Test
    void datesCombineWithThreadAndResource() {
        RunSnapshot hit = insert(suspended(agent, uniqueId("run"), "t", "r", 500));
        insert(suspended(agent, uniqueId("run"), "t", "r", 5000));
        insert(suspended(agent, uniqueId("run"), "t", "other", 500));
        insert(suspended(agent, uniqueId("run"), "other", "r", 500));
        RunQuery q = query().threadId("t").resourceId("r").createdFrom(T0).createdTo(T0.plusMillis(1000)).build();
        assertThat(ids(store.list(q))).containsExactly(hit.runId());
    }

    @Test
    void aRunWithALiveLeaseIsNotListedAsSuspended() {
        RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
        RunSnapshot waiting = insert(suspended(agent, uniqueId("run"), "t", "r", 1));
        Instant now = T0.plusSeconds(100);
        claim(s, now.plusMillis(1));
        RunQuery q = RunQuery.forAgent(agent, now).threadId("t").build();
        assertThat(ids(store.list(q))).containsExactly(waiting.runId());
        assertThat(store.list(q).total()).isEqualTo(1);
    }

    @Test
    void aRunWhoseLeaseExpiredIsListedAsSuspendedAgain() {
        RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
        Instant now = T0.plusSeconds(100);
        claim(s, now);   // expires exactly now: no longer held
        assertThat(ids(store.list(RunQuery.forAgent(agent, now).build()))).containsExactly(s.runId());
        assertThat(ids(store.list(RunQuery.forAgent(agent, now).threadId("t").resourceId("r").build())))
                .containsExactly(s.runId());
        assertThat(store.list(RunQuery.forAgent(agent, now).status(RunStatus.RESUMING).build()).total()).isZero();
    }

    @Test
    void statusResumingListsOnlyLiveLeasesAndNullStatusListsAll() {
        RunSnapshot live = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
        RunSnapshot expired = insert(suspended(agent, uniqueId("run"), "t", "r", 1));
        RunSnapshot waiting = insert(suspended(agent, uniqueId("run"), "t", "r", 2));
        Instant now = T0.plusSeconds(100);
        claim(live, now.plusSeconds(30));
        claim(expired, now.minusSeconds(1));
        RunPage resuming = store.list(RunQuery.forAgent(agent, now).status(RunStatus.RESUMING).build());
        assertThat(ids(resuming)).containsExactly(live.runId());
        assertThat(resuming.items().get(0).leaseOwner()).isEqualTo("instance-1");
        assertThat(ids(store.list(RunQuery.forAgent(agent, now).build())))
                .containsExactly(waiting.runId(), expired.runId());
        assertThat(ids(store.list(RunQuery.forAgent(agent, now).status(null).build())))
                .containsExactly(waiting.runId(), expired.runId(), live.runId());
        assertThat(store.list(RunQuery.forAgent(agent, now).status(RunStatus.RESUMING).threadId("t").countOnly()
                .build()).total()).isEqualTo(1);
    }
}
