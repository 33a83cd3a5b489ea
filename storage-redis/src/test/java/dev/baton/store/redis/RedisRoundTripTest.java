package dev.baton.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import io.lettuce.core.RedisClient;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How many round trips each call on one run costs on a standalone server, counted as the commands the store's client
 * sends (a synchronous call waits for each): one script per call, the run-id lookup key read, reserved or released in
 * the same script as the run ({@link RedisAccess#oneScript}). A bucketed layout (like a Cluster) keeps the lookup's
 * own round trip. Every script runs once before anything is counted (a first EVALSHA may answer NOSCRIPT and be
 * followed by an EVAL).
 */
class RedisRoundTripTest {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisRoundTripTest.class);
    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    private final List<String> sent = Collections.synchronizedList(new ArrayList<>());
    private RedisClient client;
    private final String agent = "agent-" + UUID.randomUUID();

    @BeforeEach
    void connect() {
        client = RedisClient.create(RedisTestServer.url());
        client.addListener(new CommandListener() {
            @Override
            public void commandStarted(CommandStartedEvent event) {
                sent.add(event.getCommand().getType().toString());
            }
        });
    }

    @AfterEach
    void shutdown() {
        client.shutdown();
    }

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
        RedisTestServer.deleteKeys(PREFIX + "-b");
    }

    /** The commands {@code call} sends. */
    private List<String> trips(Runnable call) {
        sent.clear();
        call.run();
        return List.copyOf(sent);
    }

    private RunSnapshot run() {
        return RunSnapshot.builder().runId("run-" + UUID.randomUUID()).agentId(agent).status(RunStatus.SUSPENDED)
                .threadId("t").resourceId("r").createdAt(T0).suspendedAt(T0).payload("{\"p\":1}").summary("{\"calls\":[]}")
                .notification(T0.plusSeconds(10), "due").build();
    }

    private static DecisionRecord record(RunSnapshot run, DecisionKind kind) {
        return DecisionRecord.builder().decisionId(UUID.randomUUID().toString()).agentId(run.agentId()).runId(run.runId())
                .threadId(run.threadId()).resourceId(run.resourceId()).toolCallId("call-1").toolName("charge")
                .kind(kind).actor("alice").instanceId("i-1").decidedAt(T0).build();
    }

    /** An approval cycle and every other call on one run; with {@code count}, asserts one round trip each. */
    private void cycle(RedisSnapshotStore store, boolean count) {
        RunSnapshot s = run();
        check(count, "insert", () -> assertThat(store.insert(s)).isTrue());
        check(count, "find", () -> assertThat(store.find(s.runId())).contains(s));
        check(count, "notification update",
                () -> assertThat(store.updateNotification(s.runId(), 1, T0.plusSeconds(10), T0.plusSeconds(20), "later")).isTrue());
        RunSnapshot claimed = s.claimed("me", T0.plusSeconds(30), "{\"p\":2}");
        check(count, "claim (compare-and-set with a decision)",
                () -> assertThat(store.compareAndSet(1, claimed, List.of(record(s, DecisionKind.APPROVE)))).isTrue());
        check(count, "lease renewal", () -> assertThat(store.renewLease(s.runId(), 2, "me", T0.plusSeconds(60))).isTrue());
        RunSnapshot again = claimed.renewed(T0.plusSeconds(60)).suspended(T0.plusSeconds(1), "{\"p\":3}");
        check(count, "compare-and-set", () -> assertThat(store.compareAndSet(3, again)).isTrue());
        check(count, "delete with a decision",
                () -> assertThat(store.delete(s.runId(), 4, List.of(record(s, DecisionKind.DISCARD)))).isTrue());
        check(count, "find of a deleted run", () -> assertThat(store.find(s.runId())).isEmpty());

        RunSnapshot d = run();
        check(count, "insert", () -> assertThat(store.insert(d)).isTrue());
        check(count, "insert of a run that exists", () -> assertThat(store.insert(d)).isFalse());
        RunSnapshot theirs = d.toBuilder().agentId("other-" + agent).build();
        check(count, "insert of another agent's run id", () -> assertThat(store.insert(theirs)).isFalse());
        check(count, "delete at another version", () -> assertThat(store.delete(d.runId(), 7)).isFalse());
        check(count, "lease renewal of a run not held", () -> assertThat(store.renewLease(d.runId(), 1, "me", T0)).isFalse());
        check(count, "delete", () -> assertThat(store.delete(d.runId(), 1)).isTrue());
        check(count, "delete of a missing run", () -> assertThat(store.delete(d.runId(), 1)).isFalse());
        check(count, "insert after the delete", () -> assertThat(store.insert(d)).isTrue());
        check(count, "find", () -> assertThat(store.find(d.runId())).contains(d));
    }

    private void check(boolean count, String what, Runnable call) {
        List<String> trips = trips(call);
        if (count) assertThat(trips).as(what).containsExactly("EVALSHA");
    }

    @Test
    void everyCallOnOneRunIsOneRoundTripOnAStandaloneServer() {
        try (RedisSnapshotStore store = RedisSnapshotStore.builder(client).keyPrefix(PREFIX).build()) {
            assertThat(store.access().oneScript).isTrue();
            cycle(store, false);
            cycle(store, true);
        }
    }

    /**
     * A lookup value in the bucketed form seen by a one-bucket store (mid-migration between layouts): the scripts change
     * nothing and answer so, and the call is made in steps, which read that form.
     */
    @Test
    void aLookupValueInTheBucketedFormIsReadInSteps() {
        String prefix = PREFIX + "-m";
        RunSnapshot s = run();
        RunSnapshot d = run();
        try (RedisSnapshotStore bucketed = RedisSnapshotStore.builder(client).keyPrefix(prefix).buckets(2).build()) {
            assertThat(bucketed.insert(s)).isTrue();
            assertThat(bucketed.insert(d)).isTrue();
            bucketed.access().redis.del(bucketed.access().layoutKey());   // as if a migration to one bucket had begun
        }
        try (RedisSnapshotStore store = RedisSnapshotStore.builder(client).keyPrefix(prefix).build()) {
            assertThat(store.access().oneScript).isTrue();
            assertThat(trips(() -> assertThat(store.find(s.runId())).contains(s))).containsExactly("EVALSHA", "GET", "HGETALL");
            assertThat(store.renewLease(s.runId(), 1, "me", T0)).isFalse();
            assertThat(store.updateNotification(s.runId(), 1, T0.plusSeconds(10), T0.plusSeconds(20), null)).isTrue();
            assertThat(store.insert(s)).as("the run is another bucket's").isFalse();
            assertThat(store.delete(s.runId(), 1)).isTrue();
            assertThat(store.find(s.runId())).isEmpty();
            assertThat(trips(() -> assertThat(store.delete(d.runId(), 1)).isTrue())).containsExactly("EVALSHA", "GET", "EVALSHA", "EVALSHA");
            assertThat(store.find(d.runId())).isEmpty();
        } finally {
            RedisTestServer.deleteKeys(prefix);
        }
    }

    @Test
    void aBucketedLayoutKeepsTheLookupsOwnRoundTrip() {
        try (RedisSnapshotStore store = RedisSnapshotStore.builder(client).keyPrefix(PREFIX + "-b").buckets(2).build()) {
            assertThat(store.access().oneScript).isFalse();
            cycle(store, false);
            RunSnapshot s = run();
            assertThat(trips(() -> assertThat(store.insert(s)).isTrue())).containsExactly("EVALSHA", "EVALSHA");
            assertThat(trips(() -> assertThat(store.find(s.runId())).contains(s))).containsExactly("GET", "HGETALL");
            assertThat(trips(() -> assertThat(store.delete(s.runId(), 1)).isTrue())).containsExactly("GET", "EVALSHA", "EVALSHA");
        }
    }
}
