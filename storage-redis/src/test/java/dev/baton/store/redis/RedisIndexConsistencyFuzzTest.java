package dev.baton.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Many threads insert, claim, renew leases, release, delete and list (with offsets, cursors and deadlines) a few
 * runs of two agents at random (seeded),
 * racing on the same run ids; then every key under the test's prefix is read back and checked:
 * each index entry points at an existing run with the same fields, each run is in exactly the
 * indexes its fields and lease demand (the deadline set included), and each run's lookup key names its agent.
 * Listings, cursor pages and due runs then agree with {@link RunQuery#matches} over the runs read back.
 */
class RedisIndexConsistencyFuzzTest {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisIndexConsistencyFuzzTest.class);
    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
    private static final String[] THREADS = {"t0", "t:1 {x}", null};
    private static final String[] RESOURCES = {"r0", "*", null};

    private static final RawRedis REDIS = new RawRedis(PREFIX);

    @AfterAll
    static void disconnect() {
        REDIS.close();
    }

    @Test
    void indexesAndRunsAgreeAfterAConcurrentRandomMix() throws Exception {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        List<String> agents = List.of("fuzz-a-" + tag, "fuzz-{b}-" + tag);
        List<String> runIds = new ArrayList<>();
        for (int i = 0; i < 6; i++) runIds.add("run-" + i + (i % 2 == 0 ? "?*" : " ü") + "-" + tag);
        int threads = 8;
        int opsPerThread = 400;
        AtomicInteger inserts = new AtomicInteger();
        AtomicInteger wins = new AtomicInteger();
        AtomicInteger deletes = new AtomicInteger();
        AtomicInteger renewals = new AtomicInteger();
        AtomicInteger notices = new AtomicInteger();
        try (RedisSnapshotStore store = RedisSnapshotStore.builder(REDIS.client()).keyPrefix(PREFIX).build()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    Random random = new Random(20261202L + t);
                    fs.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < opsPerThread; i++) {
                            int op = i;
                            String runId = runIds.get(random.nextInt(runIds.size()));
                            Instant lease = T0.plusSeconds(random.nextInt(100));
                            switch (random.nextInt(8)) {
                                case 0 -> {
                                    String agent = agents.get(random.nextInt(agents.size()));
                                    Instant created = T0.plusMillis(random.nextInt(5) * 1000L);
                                    Instant expires = random.nextBoolean() ? null : T0.plusSeconds(random.nextInt(100));
                                    RunSnapshot s = RunSnapshot.builder().runId(runId).agentId(agent)
                                            .status(RunStatus.SUSPENDED).threadId(THREADS[random.nextInt(3)])
                                            .resourceId(RESOURCES[random.nextInt(3)]).createdAt(created).suspendedAt(created)
                                            .payload("{\"op\":" + op + "}").expiresAt(expires)
                                            .summary(random.nextBoolean() ? "{\"calls\":[]}" : "{}")
                                            .notification(random.nextBoolean() ? null : created, "{\"n\":" + op + "}").build();
                                    if (store.insert(s)) inserts.incrementAndGet();
                                }
                                case 1 -> store.find(runId).ifPresent(cur -> {
                                    if (store.compareAndSet(cur.version(), cur.claimed("o" + op, lease, "{}"))) wins.incrementAndGet();
                                });
                                case 2 -> store.find(runId).ifPresent(cur -> {
                                    // back to suspended, sometimes with a new deadline (or none)
                                    RunSnapshot back = random.nextBoolean() ? cur.suspended(lease, "{\"back\":1}")
                                            : cur.suspended(lease, "{\"back\":2}", random.nextBoolean() ? null : lease, "{}");
                                    if (random.nextBoolean()) back = back.toBuilder().notification(lease, "{\"back\":1}").build();
                                    if (store.compareAndSet(cur.version(), back)) wins.incrementAndGet();
                                });
                                case 3 -> store.find(runId).ifPresent(cur -> {
                                    // sometimes a stale version, which must change nothing
                                    long v = random.nextInt(4) == 0 ? cur.version() + 1 : cur.version();
                                    if (store.delete(runId, v)) deletes.incrementAndGet();
                                });
                                case 4 -> store.find(runId).ifPresent(cur -> {
                                    if (cur.status() != RunStatus.RESUMING) return;
                                    // sometimes by someone who does not hold the lease, which must change nothing
                                    String owner = random.nextInt(4) == 0 ? "intruder" : cur.leaseOwner();
                                    if (store.renewLease(runId, cur.version(), owner, lease)) renewals.incrementAndGet();
                                });
                                case 5 -> store.find(runId).ifPresent(cur -> {
                                    // claim, move or clear a notification, sometimes on a stale read, which must change nothing
                                    if (cur.notifyAt() == null) return;
                                    Instant expected = random.nextInt(4) == 0 ? cur.notifyAt().plusMillis(1) : cur.notifyAt();
                                    if (store.updateNotification(runId, cur.version(), expected, random.nextBoolean() ? null : lease,
                                            random.nextBoolean() ? null : "{\"claimed\":" + op + "}")) {
                                        notices.incrementAndGet();
                                    }
                                    if (random.nextInt(4) == 0) store.listNotificationsDue(cur.agentId(), lease, 3);
                                });
                                default -> {
                                    // listings at random "now" values re-file leases both ways
                                    RunQuery.Builder q = RunQuery.forAgent(agents.get(random.nextInt(2)),
                                            T0.plusSeconds(random.nextInt(100)));
                                    int status = random.nextInt(3);
                                    q.status(status == 0 ? null : status == 1 ? RunStatus.RESUMING : RunStatus.SUSPENDED);
                                    if (random.nextBoolean()) q.threadId(THREADS[random.nextInt(2)]);
                                    int page = random.nextInt(3);
                                    if (page == 1) q.page(random.nextInt(3), 1 + random.nextInt(3));
                                    // a cursor at a run that may be in this index, in another, or gone: its place
                                    // is found by filing it for the length of the script, which must leave no trace
                                    if (page == 2) {
                                        q.after(new RunQuery.After(T0.plusMillis(random.nextInt(5) * 1000L), runId),
                                                1 + random.nextInt(3));
                                    }
                                    q.withPayload(random.nextBoolean());
                                    store.list(q.build());
                                    if (random.nextInt(4) == 0) {
                                        store.listDue(agents.get(random.nextInt(2)), T0.plusSeconds(random.nextInt(100)), 3);
                                    }
                                }
                            }
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> f : fs) f.get(120, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            assertThat(inserts.get()).as("inserts").isGreaterThan(5);
            assertThat(wins.get()).as("compare-and-set wins").isGreaterThan(20);
            assertThat(deletes.get()).as("deletes").isGreaterThan(5);
            assertThat(renewals.get()).as("lease renewals").isGreaterThan(5);
            assertThat(notices.get()).as("notification updates").isGreaterThan(5);

            checkEveryKey(store);

            // a settled state with leases on both sides of the coming "now" values, all re-filed as lapsed
            for (int i = 0; i < runIds.size(); i++) {
                String runId = runIds.get(i);
                if (store.find(runId).isEmpty()) {
                    Instant created = T0.plusMillis(i * 700L);
                    store.insert(RunSnapshot.builder().runId(runId).agentId(agents.get(i % 2)).status(RunStatus.SUSPENDED)
                            .threadId(THREADS[i % 3]).resourceId(RESOURCES[(i / 2) % 3]).createdAt(created).suspendedAt(created)
                            .payload("{}").summary("{\"calls\":[]}").build());
                }
                RunSnapshot cur = store.find(runId).orElseThrow();
                if (i < 4) assertThat(store.compareAndSet(cur.version(), cur.claimed("settle", T0.plusSeconds(10 + 25L * i), "{}"))).isTrue();
            }
            for (String agent : agents) store.list(RunQuery.forAgent(agent, T0.plusSeconds(99)).countOnly().build());
            checkEveryKey(store);
            // renewals of leases a listing filed as lapsed: to both sides of the coming "now" values again
            for (int i = 0; i < 4; i++) {
                RunSnapshot cur = store.find(runIds.get(i)).orElseThrow();
                assertThat(store.renewLease(cur.runId(), cur.version(), "settle", T0.plusSeconds(30L * i))).isTrue();
            }
            Map<String, RunSnapshot> runs = checkEveryKey(store);
            // and the listings agree with the reference semantics over what is stored
            Random random = new Random(7);
            for (int i = 0; i < 60; i++) {
                RunQuery.Builder b = RunQuery.forAgent(agents.get(random.nextInt(2)), T0.plusSeconds(random.nextInt(100)));
                int status = random.nextInt(3);
                b.status(status == 0 ? null : status == 1 ? RunStatus.RESUMING : RunStatus.SUSPENDED);
                if (random.nextBoolean()) b.threadId(THREADS[random.nextInt(2)]);
                if (random.nextBoolean()) b.resourceId(RESOURCES[random.nextInt(2)]);
                RunQuery q = b.build();
                List<RunSnapshot> expected = runs.values().stream().filter(q::matches).sorted(RunQuery.ORDER).toList();
                RunPage page = store.list(q);
                assertThat(page.items()).as("query %s", q).containsExactlyElementsOf(expected);
                assertThat(page.total()).isEqualTo(expected.size());
                if (!expected.isEmpty()) {
                    RunSnapshot pivot = expected.get(random.nextInt(expected.size()));
                    RunQuery.After after = new RunQuery.After(pivot.createdAt(), pivot.runId());
                    RunQuery next = b.after(after, 2).build();
                    assertThat(store.list(next).items()).as("query %s", next)
                            .containsExactlyElementsOf(expected.stream().filter(after::precedes).limit(2).toList());
                }
                Instant now = T0.plusSeconds(random.nextInt(100));
                String agent = agents.get(random.nextInt(2));
                List<String> due = runs.values().stream()
                        .filter(r -> r.agentId().equals(agent) && r.expiresAt() != null && !r.expiresAt().isAfter(now)
                                && r.effectiveStatus(now) == RunStatus.SUSPENDED)
                        .sorted(java.util.Comparator.comparing(RunSnapshot::expiresAt).thenComparing(RunSnapshot::runId))
                        .map(RunSnapshot::runId).toList();
                assertThat(store.listDue(agent, now, 10)).extracting(RunSnapshot::runId).as("due at %s", now)
                        .containsExactlyElementsOf(due);
                List<String> notify = runs.values().stream()
                        .filter(r -> r.agentId().equals(agent) && r.notifyAt() != null && !r.notifyAt().isAfter(now))
                        .sorted(java.util.Comparator.comparing(RunSnapshot::notifyAt).thenComparing(RunSnapshot::runId))
                        .map(RunSnapshot::runId).toList();
                assertThat(store.listNotificationsDue(agent, now, 10)).extracting(RunSnapshot::runId).as("notifications due at %s", now)
                        .containsExactlyElementsOf(notify.subList(0, Math.min(10, notify.size())));
            }
            checkEveryKey(store);
        }
    }

    /** Reads every key under the prefix (SCAN is fine in a test) and checks them against each other. */
    private Map<String, RunSnapshot> checkEveryKey(RedisSnapshotStore store) {
        RedisCommands<String, String> redis = REDIS.sync();
        Set<String> all = new HashSet<>();
        ScanIterator.scan(redis, ScanArgs.Builder.matches(PREFIX + ":*").limit(500)).forEachRemaining(all::add);
        RedisKeys keys = new RedisKeys(PREFIX);

        Map<String, RunSnapshot> runs = new HashMap<>();
        // expected index entries: key -> member -> score
        Map<String, Map<String, Double>> expected = new HashMap<>();
        for (String key : all) {
            if (!key.contains("}:run:")) continue;
            Map<String, String> h = redis.hgetall(key);
            RunSnapshot s = store.find(h.get("runId")).orElseThrow(() -> new AssertionError("run hash not found by id: " + key));
            assertThat(keys.run(s.agentId(), s.runId())).isEqualTo(key);
            assertThat(redis.get(keys.lookup(s.runId()))).as("lookup key of %s", s.runId()).isEqualTo(h.get("rsv") + s.agentId());
            runs.put(s.runId(), s);
            String base = keys.agentBase(s.agentId());
            double created = s.createdAt().toEpochMilli();
            expect(expected, base, "all", s, created);
            if (s.expiresAt() != null) {
                expected.computeIfAbsent(base + "due", k -> new HashMap<>()).put(s.runId(), (double) s.expiresAt().toEpochMilli());
            }
            if (s.notifyAt() != null) {
                expected.computeIfAbsent(base + "notify", k -> new HashMap<>()).put(s.runId(), (double) s.notifyAt().toEpochMilli());
            }
            if (s.status() == RunStatus.SUSPENDED) {
                expect(expected, base, "sus", s, created);
            } else {
                boolean held = redis.zscore(base + "lease:held", s.runId()) != null;
                boolean lapsed = redis.zscore(base + "lease:lapsed", s.runId()) != null;
                assertThat(held ^ lapsed).as("resuming run %s is in exactly one lease set", s.runId()).isTrue();
                expected.computeIfAbsent(base + (held ? "lease:held" : "lease:lapsed"), k -> new HashMap<>())
                        .put(s.runId(), (double) s.leaseExpiresAt().toEpochMilli());
                expect(expected, base, held ? "res" : "sus", s, created);
            }
        }
        for (String key : all) {
            if (key.contains("}:run:")) continue;
            if (key.equals(PREFIX + ":buckets")) {
                // the bucket count the data was written with (a string, recorded when the store opened)
                assertThat(redis.get(key)).as("recorded bucket count").isEqualTo("1");
                continue;
            }
            if (key.startsWith(PREFIX + ":id:{")) {
                String v = redis.get(key);
                String agent = v.substring(16);
                String runId = runs.values().stream().filter(r -> keys.lookup(r.runId()).equals(key)).map(RunSnapshot::runId)
                        .findFirst().orElseThrow(() -> new AssertionError("lookup key without a run: " + key + " = " + v));
                assertThat(runs.get(runId).agentId()).isEqualTo(agent);
                continue;
            }
            Map<String, Double> actual = new HashMap<>();
            for (ScoredValue<String> sv : redis.zrangeWithScores(key, 0, -1)) actual.put(sv.getValue(), sv.getScore());
            assertThat(actual).as("index %s", key).isEqualTo(expected.getOrDefault(key, Map.of()));
        }
        for (String key : expected.keySet()) assertThat(all).as("missing index key").contains(key);
        return runs;
    }

    private static void expect(Map<String, Map<String, Double>> expected, String base, String fam, RunSnapshot s, double score) {
        List<String> ks = new ArrayList<>();
        ks.add(base + fam + ":a");
        if (s.threadId() != null) ks.add(base + fam + ":t:" + RedisKeys.hex(s.threadId()));
        if (s.resourceId() != null) ks.add(base + fam + ":r:" + RedisKeys.hex(s.resourceId()));
        if (s.threadId() != null && s.resourceId() != null) {
            ks.add(base + fam + ":tr:" + RedisKeys.hex(s.threadId()) + ":" + RedisKeys.hex(s.resourceId()));
        }
        for (String k : ks) expected.computeIfAbsent(k, x -> new HashMap<>()).put(s.runId(), score);
    }
}
