package dev.baton.store.redis;

import dev.baton.store.ShardMerge;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The same seeded runs and decisions in a one-bucket store and a five-bucket store (standalone Redis): every listing
 * (filters, date bounds, offsets, cursors, totals), due and notification range, decision listing and purge of the
 * bucketed store must equal the one-bucket store's (one sorted set: the reference order), and the runs must match
 * a brute force over the data ({@link RunQuery#matches}, listing order). Also: an idempotency key is unique across
 * buckets, and a dangling reservation is taken over only once it is old.
 */
class RedisBucketsMergeTest {
    private static final String ONE = RedisTestServer.uniquePrefix(RedisBucketsMergeTest.class) + "-1";
    private static final String FIVE = RedisTestServer.uniquePrefix(RedisBucketsMergeTest.class) + "-5";
    private static SnapshotStore one;
    private static SnapshotStore five;
    private static BucketData data;

    @BeforeAll
    static void fill() {
        one = SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", ONE));
        five = SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", FIVE, "buckets", "5"));
        data = new BucketData(20261204L, "merge-agent", 400);
        for (RunSnapshot s : data.runs) {
            assertThat(one.insert(s)).isTrue();
            assertThat(five.insert(s)).isTrue();
        }
    }

    @AfterAll
    static void close() {
        one.close();
        five.close();
        RedisTestServer.deleteKeys(ONE);
        RedisTestServer.deleteKeys(FIVE);
    }

    @Test
    void everyListingOfFiveBucketsEqualsTheOneBucketListingAndTheBruteForce() {
        List<RunSnapshot> cursors = new ArrayList<>(data.runs);
        cursors.add(RunSnapshot.builder().runId("\u00e9gone").agentId(data.agent).status(RunStatus.SUSPENDED)
                .createdAt(BucketData.T0.plusMillis(70)).suspendedAt(BucketData.T0).version(1).payload("{}").summary("").build());
        for (int i = 0; i < 300; i++) {
            RunQuery q = data.query(cursors);
            RunPage want = one.list(q);
            RunPage got = five.list(q);
            assertThat(got.total()).as("%s", q).isEqualTo(want.total());
            assertThat(got.items()).as("%s", q).containsExactlyElementsOf(want.items());
            assertThat(ids(got)).as("%s", q).containsExactlyElementsOf(bruteForce(q));
        }
    }

    @Test
    void aCursorWalkOverEveryBucketVisitsEachRunOnceInOrder() {
        RunQuery all = RunQuery.forAgent(data.agent, BucketData.NOW).status(null).build();
        List<String> expected = ids(one.list(all));
        assertThat(expected).hasSize(data.runs.size());
        List<String> walked = new ArrayList<>();
        RunQuery.After after = null;
        while (true) {
            RunPage p = five.list(RunQuery.forAgent(data.agent, BucketData.NOW).status(null).after(after, 17).build());
            assertThat(p.total()).isEqualTo(data.runs.size());
            if (p.items().isEmpty()) break;
            p.items().forEach(s -> walked.add(s.runId()));
            RunSnapshot last = p.items().get(p.items().size() - 1);
            after = new RunQuery.After(last.createdAt(), last.runId());
        }
        assertThat(walked).containsExactlyElementsOf(expected);
    }

    @Test
    void dueAndNotificationRangesMergeInTheirOrder() {
        for (int limit : new int[] {1, 3, 10, 1000}) {
            for (Instant now : List.of(BucketData.NOW.minusSeconds(5), BucketData.NOW, BucketData.NOW.plusSeconds(30))) {
                assertThat(five.listDue(data.agent, now, limit)).containsExactlyElementsOf(one.listDue(data.agent, now, limit));
                assertThat(five.listNotificationsDue(data.agent, now, limit))
                        .containsExactlyElementsOf(one.listNotificationsDue(data.agent, now, limit));
            }
        }
    }

    @Test
    void decisionsListMergeAndPurgeAsInOneBucket() {
        String agent = "decisions-agent";
        BucketData d = new BucketData(99L, agent, 120);
        Random r = new Random(5);
        for (int i = 0; i < d.runs.size(); i++) {
            RunSnapshot s = d.runs.get(i).toBuilder().status(RunStatus.RESUMING).lease("w", BucketData.NOW.plusSeconds(60)).build();
            one.insert(s);
            five.insert(s);
            long seed = r.nextLong();
            boolean a = new BucketData(seed, agent, 0).decide(one, s, i, "k");
            boolean b = new BucketData(seed, agent, 0).decide(five, s, i, "k");
            assertThat(b).isEqualTo(a).isTrue();
        }
        List<DecisionRecord> cursors = new ArrayList<>(five.listDecisions(DecisionQuery.forAgent(agent).limit(1000).build()).items());
        assertThat(cursors).hasSizeGreaterThan(120);
        for (int i = 0; i < 200; i++) {
            DecisionQuery.Builder q = DecisionQuery.forAgent(agent).limit(1 + r.nextInt(40));
            DecisionRecord pick = cursors.get(r.nextInt(cursors.size()));
            if (r.nextInt(4) == 0) q.threadId(pick.threadId());
            if (r.nextInt(4) == 0) q.resourceId(pick.resourceId());
            if (r.nextInt(4) == 0) q.actor(pick.actor());
            if (r.nextInt(6) == 0) q.runId(pick.runId());
            if (r.nextInt(3) == 0) q.from(BucketData.T0.plusMillis(r.nextInt(50)));
            if (r.nextInt(3) == 0) q.to(BucketData.T0.plusMillis(40 + r.nextInt(60)));
            if (r.nextBoolean()) q.after(DecisionQuery.After.of(cursors.get(r.nextInt(cursors.size()))));
            DecisionQuery query = q.build();
            DecisionPage want = one.listDecisions(query);
            DecisionPage got = five.listDecisions(query);
            assertThat(got.items()).as("%s", query).containsExactlyElementsOf(want.items());
            assertThat(got.hasMore()).as("%s", query).isEqualTo(want.hasMore());
        }
        for (DecisionRecord c : cursors) {
            if (c.idempotencyKey() != null) {
                assertThat(five.findDecision(agent, c.idempotencyKey())).contains(c);
                assertThat(one.findDecision(agent, c.idempotencyKey())).contains(c);
            }
        }
        for (int limit : new int[] {1, 7, 25}) {
            Instant before = BucketData.T0.plusMillis(30 + limit);
            assertThat(five.purgeDecisions(agent, before, limit)).isEqualTo(one.purgeDecisions(agent, before, limit));
            assertThat(five.listDecisions(DecisionQuery.forAgent(agent).limit(1000).build()).items())
                    .containsExactlyElementsOf(one.listDecisions(DecisionQuery.forAgent(agent).limit(1000).build()).items());
        }
        for (DecisionRecord c : cursors) {
            if (c.idempotencyKey() != null) {
                assertThat(five.findDecision(agent, c.idempotencyKey())).isEqualTo(one.findDecision(agent, c.idempotencyKey()));
            }
        }
    }

    @Test
    void anIdempotencyKeyIsUniqueAcrossBucketsAndADanglingReservationIsTakenOverOnlyWhenOld() {
        String agent = "idem-agent";
        RedisBuckets b = new RedisBuckets(new RedisKeys(FIVE), 5);
        // two threads in different buckets
        String t1 = "thread-0";
        String t2 = java.util.stream.IntStream.range(1, 100).mapToObj(i -> "thread-" + i)
                .filter(t -> b.of(t, "") != b.of(t1, "")).findFirst().orElseThrow();
        RunSnapshot r1 = claimed(agent, "run-1", t1);
        RunSnapshot r2 = claimed(agent, "run-2", t2);
        five.insert(r1);
        five.insert(r2);
        assertThat(five.compareAndSet(2, released(r1), List.of(decision(agent, r1, "d1", "key")))).isTrue();
        assertThat(five.compareAndSet(2, released(r2), List.of(decision(agent, r2, "d2", "key")))).isFalse();
        assertThat(five.find("run-2")).contains(r2);
        assertThat(five.findDecision(agent, "key").map(DecisionRecord::decisionId)).contains("d1");
        // a failed write releases its own reservation: the key stays free for the next
        assertThat(five.compareAndSet(9, released(r2), List.of(decision(agent, r2, "d3", "other")))).isFalse();
        assertThat(five.compareAndSet(2, released(r2), List.of(decision(agent, r2, "d3", "other")))).isTrue();

        RedisKeys keys = new RedisKeys(FIVE);
        RedisClient client = RedisClient.create(RedisTestServer.url());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            // a writer died after reserving: fresh, the reservation blocks the key; a minute old, it is taken over
            String dangling = keys.idempotency(agent, "late");
            c.sync().set(dangling, System.currentTimeMillis() + ":1/5:ghost");
            RunSnapshot r3 = claimed(agent, "run-3", t1);
            five.insert(r3);
            // the write waits for a fresh reservation up to its command timeout before it is refused: 2 s here (a store of
            // its own on the same keys), not the default 10 s of polling the reservation every 16 ms
            try (SnapshotStore impatient = SnapshotStores.open(RedisTestServer.url(),
                    Map.of("keyPrefix", FIVE, "buckets", "5", "timeout", "PT2S"))) {
                long start = System.nanoTime();
                assertThat(impatient.compareAndSet(2, released(r3), List.of(decision(agent, r3, "d4", "late")))).isFalse();
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waited for the reservation").isGreaterThanOrEqualTo(Duration.ofSeconds(2));
            }
            c.sync().set(dangling, "1000:1/5:ghost");
            assertThat(five.compareAndSet(2, released(r3), List.of(decision(agent, r3, "d4", "late")))).isTrue();
            assertThat(five.findDecision(agent, "late").map(DecisionRecord::decisionId)).contains("d4");
            // the purge of a record frees its reservation
            assertThat(five.purgeDecisions(agent, BucketData.NOW.plusSeconds(1), 100)).isEqualTo(3);
            assertThat(c.sync().exists(dangling, keys.idempotency(agent, "key"), keys.idempotency(agent, "other"))).isZero();
            assertThat(five.findDecision(agent, "late")).isEmpty();
        } finally {
            client.shutdown();
        }
    }

    private static RunSnapshot claimed(String agent, String runId, String thread) {
        return RunSnapshot.builder().runId(runId).agentId(agent).threadId(thread).status(RunStatus.RESUMING)
                .lease("w", BucketData.NOW.plusSeconds(60)).createdAt(BucketData.T0).suspendedAt(BucketData.T0).version(2)
                .payload("{}").summary("").build();
    }

    private static RunSnapshot released(RunSnapshot s) {
        return s.toBuilder().status(RunStatus.SUSPENDED).lease(null, null).version(s.version() + 1).build();
    }

    private static DecisionRecord decision(String agent, RunSnapshot s, String id, String key) {
        return DecisionRecord.builder().decisionId(id).agentId(agent).runId(s.runId()).threadId(s.threadId())
                .kind(DecisionKind.APPROVE).actor("u").instanceId("i").decidedAt(BucketData.T0).idempotencyKey(key).build();
    }

    private static List<String> ids(RunPage p) {
        return p.items().stream().map(RunSnapshot::runId).toList();
    }

    /** Whether {@code s} comes after the cursor in listing order, runIds compared as Redis does (UTF-8 bytes). */
    private static boolean after(RunQuery.After a, RunSnapshot s) {
        int c = s.createdAt().compareTo(a.createdAt());
        return c < 0 || c == 0 && ShardMerge.compareIds(s.runId(), a.runId()) < 0;
    }

    /** The page over the data itself: the matching runs in listing order, after the cursor, offset skipped, limit kept. */
    private static List<String> bruteForce(RunQuery q) {
        Comparator<RunSnapshot> order = ShardMerge.LISTING_ORDER;
        List<RunSnapshot> m = data.runs.stream().filter(q::matches).sorted(order)
                .filter(s -> q.after() == null || after(q.after(), s)).toList();
        long from = Math.min(q.offset(), m.size());
        long to = q.limit() == null ? m.size() : Math.min(m.size(), from + q.limit());
        return m.subList((int) from, (int) to).stream().map(RunSnapshot::runId).toList();
    }
}
