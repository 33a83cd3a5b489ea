package dev.baton.tck.lease;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A renewed lease moves the run between the suspended and resuming listings exactly as its expiry says. */
public abstract class Listings extends LeaseRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Listings(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private void assertListedAs(RunSnapshot s, Instant now, RunStatus expected) {
        RunStatus other = expected == RunStatus.SUSPENDED ? RunStatus.RESUMING : RunStatus.SUSPENDED;
        for (RunQuery.Builder q : List.of(RunQuery.forAgent(agent, now), RunQuery.forAgent(agent, now).threadId("t"),
                RunQuery.forAgent(agent, now).resourceId("r"), RunQuery.forAgent(agent, now).threadId("t").resourceId("r"))) {
            RunQuery in = q.status(expected).build();
            assertThat(ids(store.list(in))).as("%s at %s", in, now).containsExactly(s.runId());
            assertThat(store.list(RunQuery.forAgent(agent, now).status(expected).countOnly().build()).total())
                    .as("count of %s at %s", expected, now).isEqualTo(1);
            RunQuery out = q.status(other).build();
            assertThat(store.list(out).total()).as("%s at %s", out, now).isZero();
            assertThat(ids(store.list(q.status(null).build()))).as("every status at %s", now).containsExactly(s.runId());
        }
    }

    @Test
    void aRenewedLeaseKeepsTheRunOutOfTheSuspendedListing() {
        RunSnapshot c = claimedRun(T0.plusSeconds(10));
        Instant between = T0.plusSeconds(15);   // after the first expiry, before the renewed one
        assertListedAs(c, between, RunStatus.SUSPENDED);
        assertThat(store.renewLease(c.runId(), 2, OWNER, T0.plusSeconds(20))).isTrue();
        assertListedAs(c, between, RunStatus.RESUMING);
        assertListedAs(c, T0.plusSeconds(20), RunStatus.SUSPENDED);   // held while now < leaseExpiresAt
        assertListedAs(c, T0.plusSeconds(20).minusMillis(1), RunStatus.RESUMING);
    }

    @Test
    void aLeaseThatAListingSawLapsedIsHeldAgainOnceRenewed() {
        RunSnapshot c = claimedRun(T0.plusSeconds(10));
        Instant now = T0.plusSeconds(60);
        assertListedAs(c, now, RunStatus.SUSPENDED);   // a store may file the run as lapsed here
        assertThat(store.renewLease(c.runId(), 2, OWNER, now.plusSeconds(30))).isTrue();
        assertListedAs(c, now, RunStatus.RESUMING);
        assertListedAs(c, now.plusSeconds(30), RunStatus.SUSPENDED);
        assertListedAs(c, now, RunStatus.RESUMING);    // and back, for a listing with an earlier now
    }

    @Test
    void aLeaseRenewedToAnEarlierExpiryListsTheRunAsSuspendedFromThen() {
        RunSnapshot c = claimedRun(T0.plusSeconds(600));
        Instant now = T0.plusSeconds(60);
        assertListedAs(c, now, RunStatus.RESUMING);
        assertThat(store.renewLease(c.runId(), 2, OWNER, now)).isTrue();
        assertListedAs(c, now, RunStatus.SUSPENDED);
        assertListedAs(c, now.minusMillis(1), RunStatus.RESUMING);
    }

    @Test
    void aRenewedRunKeepsItsPlaceInTheListingOrder() {
        RunSnapshot a = insert(suspended(agent, uniqueId("run"), "t", "r", 1000));
        RunSnapshot b = claim(insert(suspended(agent, uniqueId("run"), "t", "r", 2000)), T0.plusSeconds(10));
        RunSnapshot c = insert(suspended(agent, uniqueId("run"), "t", "r", 3000));
        assertThat(store.renewLease(b.runId(), 2, OWNER, T0.plusSeconds(50))).isTrue();
        RunQuery all = RunQuery.forAgent(agent, T0.plusSeconds(100)).status(null).threadId("t").build();
        assertThat(ids(store.list(all))).containsExactly(c.runId(), b.runId(), a.runId());
        RunQuery page = RunQuery.forAgent(agent, T0.plusSeconds(20)).status(null).page(1, 1).build();
        RunPage p = store.list(page);
        assertThat(p.items()).containsExactly(stored(b));
        assertThat(p.total()).isEqualTo(3);
    }
}
