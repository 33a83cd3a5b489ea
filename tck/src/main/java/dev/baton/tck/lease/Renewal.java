package dev.baton.tck.lease;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.Snapshots;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A renewal ({@code renewLease}, the payload-free write a heartbeat sends) changes only the lease
 * expiry and the version, by one each time; the expiry is stored as given (earlier too), to the
 * millisecond; the renewed run is listed exactly as {@code find} returns it.
 */
public abstract class Renewal extends LeaseRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Renewal(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aRenewalChangesOnlyTheLeaseExpiryAndTheVersion() {
        StringBuilder b = new StringBuilder("{\"text\":\"h\u00e9llo \u4e16\u754c \ud83d\ude80 \\\"q\\\" \\\\ \\u0000\",\"blob\":\"");
        Random r = new Random(17);
        while (b.length() < 2 * 1024 * 1024) b.append((char) ('a' + r.nextInt(26))).append('\u00e9');
        String payload = b.append("\"}").toString();
        Instant created = T0.plusMillis(123);
        RunSnapshot s = insert(RunSnapshot.builder().runId(uniqueId("run")).agentId(agent).status(RunStatus.SUSPENDED)
                .threadId("thread-1").resourceId("user-1").createdAt(created).suspendedAt(created.plusSeconds(7))
                .payload(payload).summary(Snapshots.EMPTY_SUMMARY).build());
        RunSnapshot claimed = claim(s, T0.plusSeconds(30));
        Instant newExpiry = T0.plusSeconds(90).plusMillis(5);

        assertThat(store.renewLease(s.runId(), 2, OWNER, newExpiry)).isTrue();

        RunSnapshot after = stored(s);
        assertThat(after).isEqualTo(claimed.renewed(newExpiry));
        assertThat(after.leaseExpiresAt()).isEqualTo(newExpiry);
        assertThat(after.version()).isEqualTo(3);
        assertThat(after.payload()).as("the payload, byte for byte").isEqualTo(payload);
        assertThat(after.status()).isEqualTo(RunStatus.RESUMING);
        assertThat(after.leaseOwner()).isEqualTo(OWNER);
        assertThat(after.createdAt()).isEqualTo(created);
        assertThat(after.suspendedAt()).isEqualTo(created.plusSeconds(7));
        assertThat(after.threadId()).isEqualTo("thread-1");
        assertThat(after.resourceId()).isEqualTo("user-1");
    }

    @Test
    void eachRenewalAdvancesTheVersionByOne() {
        RunSnapshot c = claimedRun(T0.plusSeconds(10));
        RunSnapshot expected = c;
        for (int i = 1; i <= 5; i++) {
            Instant expiry = T0.plusSeconds(10L + i * 10L);
            assertThat(store.renewLease(c.runId(), expected.version(), OWNER, expiry)).as("renewal %d", i).isTrue();
            expected = expected.renewed(expiry);
            assertThat(stored(c)).isEqualTo(expected);
        }
        assertThat(expected.version()).isEqualTo(7);
    }

    @Test
    void theNewExpiryIsStoredAsGivenEvenWhenEarlier() {
        RunSnapshot c = claimedRun(T0.plusSeconds(600));
        Instant earlier = T0.plusSeconds(5);
        assertThat(store.renewLease(c.runId(), 2, OWNER, earlier)).isTrue();
        assertThat(stored(c)).isEqualTo(c.renewed(earlier));
    }

    @Test
    void theNewExpiryIsKeptToTheMillisecond() {
        RunSnapshot c = claimedRun(T0.plusSeconds(10));
        Instant precise = T0.plusSeconds(20).plusNanos(456_789_123);
        assertThat(store.renewLease(c.runId(), 2, OWNER, precise)).isTrue();
        assertThat(stored(c).leaseExpiresAt()).isEqualTo(T0.plusSeconds(20).plusMillis(456));
    }

    @Test
    void aRenewedRunIsListedWithEveryFieldAsFindReturnsIt() {
        RunSnapshot c = claimedRun(T0.plusSeconds(10));
        assertThat(store.renewLease(c.runId(), 2, OWNER, T0.plusSeconds(500))).isTrue();
        RunPage page = store.list(RunQuery.forAgent(agent, T0.plusSeconds(100)).status(RunStatus.RESUMING).build());
        assertThat(page.items()).containsExactly(stored(c));
    }
}
