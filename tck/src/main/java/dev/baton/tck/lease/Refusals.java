package dev.baton.tck.lease;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A renewal at another version, of a suspended, missing or deleted run, or by another owner
 * (compared exactly) is refused and changes nothing, the listings included.
 */
public abstract class Refusals extends LeaseRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Refusals(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aWrongVersionIsRefusedAndChangesNothing() {
        RunSnapshot c = claimedRun(T0.plusSeconds(10));
        assertThat(store.renewLease(c.runId(), 1, OWNER, T0.plusSeconds(99))).as("an older version").isFalse();
        assertThat(store.renewLease(c.runId(), 3, OWNER, T0.plusSeconds(99))).as("a newer version").isFalse();
        assertThat(stored(c)).isEqualTo(c);
    }

    @Test
    void aSuspendedRunIsNotRenewedAndGetsNoLease() {
        RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
        assertThat(store.renewLease(s.runId(), 1, OWNER, T0.plusSeconds(99))).isFalse();
        RunSnapshot c = claim(s, T0.plusSeconds(10));
        RunSnapshot back = c.suspended(T0.plusSeconds(3), "{\"back\":true}");
        assertThat(store.compareAndSet(2, back)).isTrue();
        assertThat(store.renewLease(s.runId(), 3, OWNER, T0.plusSeconds(99)))
                .as("the last owner of a run suspended again").isFalse();
        assertThat(stored(s)).isEqualTo(back);
        assertThat(ids(store.list(RunQuery.forAgent(agent, T0).build()))).containsExactly(s.runId());
    }

    @Test
    void anotherOwnerIsRefusedAndChangesNothing() {
        RunSnapshot c = claimedRun(T0.plusSeconds(10));
        for (String other : List.of("instance-2", "Instance-1", "INSTANCE-1", "instance-1 ", " instance-1", "instance-",
                "instance-10", "", "%", "instance-_")) {
            assertThat(store.renewLease(c.runId(), 2, other, T0.plusSeconds(99))).as("owner '%s'", other).isFalse();
        }
        assertThat(stored(c)).isEqualTo(c);
    }

    @Test
    void aMissingRunIsNotCreated() {
        String ghost = uniqueId("ghost");
        assertThat(store.renewLease(ghost, 1, OWNER, T0.plusSeconds(99))).isFalse();
        assertThat(store.renewLease(ghost, 2, OWNER, T0.plusSeconds(99))).isFalse();
        assertThat(store.find(ghost)).isEmpty();
        assertThat(store.list(RunQuery.forAgent(agent, T0).status(null).build()).total()).isZero();
    }

    @Test
    void aDeletedRunIsNotRenewedNorBroughtBack() {
        RunSnapshot c = claimedRun(T0.plusSeconds(10));
        assertThat(store.delete(c.runId(), 2)).isTrue();
        assertThat(store.renewLease(c.runId(), 2, OWNER, T0.plusSeconds(99))).isFalse();
        assertThat(store.find(c.runId())).isEmpty();
        assertThat(store.list(RunQuery.forAgent(agent, T0).status(null).build()).total()).isZero();
        assertThat(store.list(RunQuery.forAgent(agent, T0).status(RunStatus.RESUMING).threadId("t").build()).total())
                .isZero();
    }

    @Test
    void aRefusedRenewalLeavesTheListingsAsTheyWere() {
        RunSnapshot c = claimedRun(T0.plusSeconds(10));
        Instant later = T0.plusSeconds(20);   // the lease has lapsed by then
        assertThat(store.renewLease(c.runId(), 2, "instance-2", T0.plusSeconds(99))).isFalse();
        assertThat(store.renewLease(c.runId(), 1, OWNER, T0.plusSeconds(99))).isFalse();
        assertThat(ids(store.list(RunQuery.forAgent(agent, later).threadId("t").build()))).containsExactly(c.runId());
        assertThat(store.list(RunQuery.forAgent(agent, later).status(RunStatus.RESUMING).build()).total()).isZero();
    }
}
