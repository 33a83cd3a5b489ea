package dev.baton.tck.snapshot;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.Snapshots;
import dev.baton.tck.support.StoreUnderTest;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every field of a run is stored and given back as inserted, the payload verbatim (2 MB too), and
 * after the store is closed and opened again; {@code insert} refuses an existing run id; {@code delete}
 * acts only at the expected version.
 */
public abstract class Persistence extends SnapshotStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Persistence(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void findReturnsEveryFieldAsInserted() {
        RunSnapshot s = insert(suspended(agent, uniqueId("run"), "thread-1", "user-1", 42));
        assertThat(store.find(s.runId())).contains(s);
    }

    @Test
    void threadAndResourceMayBeAbsent() {
        RunSnapshot s = insert(suspended(agent, uniqueId("run"), null, null, 0));
        assertThat(store.find(s.runId())).contains(s);
        assertThat(ids(store.list(query().build()))).containsExactly(s.runId());
    }

    @Test
    void resumingSnapshotKeepsItsLease() {
        RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
        RunSnapshot c = claim(s, T0.plusSeconds(30));
        assertThat(store.find(s.runId())).contains(c);
    }

    @Test
    void insertOfAnExistingRunIdIsRefusedAndChangesNothing() {
        RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
        RunSnapshot other = RunSnapshot.builder().runId(s.runId()).agentId(agent).status(RunStatus.SUSPENDED)
                .threadId("t2").resourceId("r2").createdAt(T0).suspendedAt(T0).payload("{\"other\":true}")
                .summary(Snapshots.EMPTY_SUMMARY).build();
        assertThat(store.insert(other)).isFalse();
        assertThat(store.find(s.runId())).contains(s);
    }

    @Test
    void findOfAnUnknownRunIsEmpty() {
        assertThat(store.find(uniqueId("missing"))).isEmpty();
    }

    @Test
    void deleteRemovesTheRunFromFindAndList() {
        RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
        assertThat(store.delete(s.runId(), 1)).isTrue();
        assertThat(store.find(s.runId())).isEmpty();
        assertThat(store.list(query().build()).total()).isZero();
        assertThat(store.list(query().threadId("t").build()).total()).isZero();
    }

    @Test
    void deleteAtAnotherVersionChangesNothing() {
        RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
        assertThat(store.delete(s.runId(), 2)).isFalse();
        assertThat(store.find(s.runId())).contains(s);
    }

    @Test
    void deleteOfAnUnknownRunReturnsFalse() {
        assertThat(store.delete(uniqueId("missing"), 1)).isFalse();
    }

    @Test
    void runsSurviveClosingAndReopeningTheStore() throws Exception {
        RunSnapshot a = insert(suspended(agent, uniqueId("run"), "t", "r", 1));
        RunSnapshot b = insert(suspended(agent, uniqueId("run"), "t", "r", 2));
        RunSnapshot c = claim(b, T0.plusSeconds(5000));
        restart();
        assertThat(store.find(a.runId())).contains(a);
        assertThat(store.find(b.runId())).contains(c);
        assertThat(ids(store.list(query().threadId("t").build()))).containsExactly(a.runId());
        assertThat(store.delete(a.runId(), 1)).isTrue();
    }

    @Test
    void payloadIsStoredVerbatim() {
        String payload = "{\"text\":\"h\u00e9llo \u4e16\u754c \ud83d\ude80 'single' \\\"double\\\" back\\\\slash"
                + " \\u0000 nul %_*?[]{}$ \\n\\t\",  \"n\" : 1.50 , \"z\":[ ]}";
        RunSnapshot s = Snapshots.suspendedAt(agent, uniqueId("run"), T0).threadId("t").resourceId("r")
                .payload(payload).build();
        insert(s);
        assertThat(store.find(s.runId()).orElseThrow().payload()).isEqualTo(payload);
        assertThat(store.list(query().build()).items().get(0).payload()).isEqualTo(payload);
    }

    @Test
    void largePayloadOfTwoMegabytesRoundTrips() {
        StringBuilder b = new StringBuilder("{\"blob\":\"");
        Random r = new Random(7);
        while (b.length() < 2 * 1024 * 1024) b.append((char) ('a' + r.nextInt(26))).append("\u00e9");
        String payload = b.append("\"}").toString();
        RunSnapshot s = Snapshots.suspendedAt(agent, uniqueId("run"), T0).payload(payload).build();
        insert(s);
        assertThat(store.find(s.runId()).orElseThrow().payload()).isEqualTo(payload);
    }
}
