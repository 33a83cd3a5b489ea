package dev.baton.bench;

import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.redis.RedisSnapshotStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Redis store's bucketed layout on a local Redis Cluster ({@link LocalRedisCluster}): one agent's runs with
 * {@code buckets = 1} (every key of the agent on one node) and {@code buckets = 6}, on three masters.
 *
 * <pre>
 * java -cp benchmarks/target/baton-benchmarks.jar dev.baton.bench.RedisBucketBenchmark [runs] [seedSeconds] [cycleSeconds]
 * </pre>
 * defaults 1,000,000 runs, at most 600 s of seeding per layout (it stops there and says how many runs it stored),
 * 10 s per throughput measurement. Needs {@code redis-server} on the PATH (or {@code BATON_REDIS_SERVER}); starts
 * and stops its own nodes on 127.0.0.1 (no persistence).
 *
 * <p>Per layout: the runs of one agent are inserted through the store (32 threads on its connection; 10 runs a
 * thread, 100 a resource, a 100-byte payload); then per node its keys (DBSIZE), memory and calls (INFO
 * commandstats, reset before the seed: every command, and the scripts alone); then the latency, on one thread, of
 * 2,000 thread pages (10 runs), 500 first pages of the agent (50 runs, with the exact total), 500 agent pages after
 * a cursor at a random run, and 100 agent pages at offset 1,000; then the calls per node of those reads. Then the approval cycle (insert,
 * find, claim with compare-and-set, delete with its decision record) on 16 threads for {@code cycleSeconds}, with
 * 1, 2 and 3 masters, buckets 1 and 6.
 */
public final class RedisBucketBenchmark {
    private static final String AGENT = "busy-agent";
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final String PAYLOAD = "{\"messages\":[\"" + "x".repeat(80) + "\"]}";

    private RedisBucketBenchmark() {
    }

    /**
     * Runs the measurements and prints them.
     *
     * @param args runs, seed seconds, cycle seconds (all optional)
     * @throws Exception if a node cannot start or Redis fails
     */
    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int seedSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 600;
        int cycleSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        try (LocalRedisCluster cluster = new LocalRedisCluster(3)) {
            for (int buckets : new int[] {1, 6}) {
                cluster.flush();
                cluster.resetStats();
                layout(cluster, buckets, runs, seedSeconds);
            }
        }
        System.out.println();
        System.out.println("approval cycle (insert, find, claim, delete with a decision), 16 threads, " + cycleSeconds + " s each:");
        for (int masters = 1; masters <= 3; masters++) {
            try (LocalRedisCluster cluster = new LocalRedisCluster(masters)) {
                for (int buckets : new int[] {1, 6}) {
                    double rate = cycles(cluster, buckets, cycleSeconds);
                    System.out.printf(Locale.ROOT, "  masters=%d buckets=%d: %,.0f cycles/s%n", masters, buckets, rate);
                }
            }
        }
    }

    private static RedisSnapshotStore open(LocalRedisCluster cluster, int buckets, String prefix) {
        return RedisSnapshotStore.open(cluster.url(), prefix, Duration.ofSeconds(60), true, buckets);
    }

    private static RunSnapshot run(long i) {
        Instant created = T0.plusMillis(i);
        return RunSnapshot.builder().runId("run-" + i).agentId(AGENT).status(RunStatus.SUSPENDED)
                .threadId("thread-" + i / 10).resourceId("resource-" + i / 100).createdAt(created).suspendedAt(created)
                .version(1).payload(PAYLOAD).summary("waiting for approval").build();
    }

    private static void layout(LocalRedisCluster cluster, int buckets, int runs, int seedSeconds) throws Exception {
        try (RedisSnapshotStore store = open(cluster, buckets, "bench")) {
            long start = System.nanoTime();
            long deadline = start + seedSeconds * 1_000_000_000L;
            AtomicLong next = new AtomicLong();
            AtomicLong stored = new AtomicLong();
            ExecutorService pool = Executors.newFixedThreadPool(32);
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 32; t++) {
                fs.add(pool.submit(() -> {
                    long i;
                    while ((i = next.getAndIncrement()) < runs && System.nanoTime() < deadline) {
                        if (store.insert(run(i))) stored.incrementAndGet();
                    }
                }));
            }
            for (Future<?> f : fs) f.get();
            pool.shutdown();
            double seconds = (System.nanoTime() - start) / 1e9;
            long n = stored.get();
            System.out.printf(Locale.ROOT, "%nbuckets=%d: %,d runs of one agent stored in %.0f s (%,.0f inserts/s)%s%n", buckets, n,
                    seconds, n / seconds, n < runs ? " -- stopped by the seeding time limit" : "");
            printNodes(cluster.stats(), "after the seed");
            cluster.resetStats();
            Random random = new Random(1);
            double[] thread = new double[2000];
            for (int k = 0; k < thread.length; k++) {
                String t = "thread-" + random.nextInt((int) Math.max(1, n / 10));
                long s = System.nanoTime();
                RunPage p = store.list(RunQuery.forAgent(AGENT, T0).threadId(t).page(0, 10).build());
                thread[k] = (System.nanoTime() - s) / 1e6;
                if (p.items().isEmpty()) throw new IllegalStateException("empty thread page of " + t);
            }
            double[] agent = new double[500];
            for (int k = 0; k < agent.length; k++) {
                long s = System.nanoTime();
                RunPage p = store.list(RunQuery.forAgent(AGENT, T0).page(0, 50).build());
                agent[k] = (System.nanoTime() - s) / 1e6;
                if (p.total() != n || p.items().size() != 50) throw new IllegalStateException("agent page: total " + p.total());
            }
            double[] deep = new double[500];
            for (int k = 0; k < deep.length; k++) {
                long i = 100 + random.nextInt((int) Math.max(1, n - 100));
                long s = System.nanoTime();
                RunPage p = store.list(RunQuery.forAgent(AGENT, T0).after(new RunQuery.After(T0.plusMillis(i), "run-" + i), 50).build());
                deep[k] = (System.nanoTime() - s) / 1e6;
                if (p.total() != n || p.items().size() != 50) throw new IllegalStateException("cursor page: total " + p.total());
            }
            double[] offset = new double[100];
            for (int k = 0; k < offset.length; k++) {
                long s = System.nanoTime();
                RunPage p = store.list(RunQuery.forAgent(AGENT, T0).page(1000, 50).build());
                offset[k] = (System.nanoTime() - s) / 1e6;
                if (p.total() != n || p.items().size() != 50) throw new IllegalStateException("offset page: total " + p.total());
            }
            System.out.printf(Locale.ROOT, "  thread page (10 runs): p50 %.2f ms, p99 %.2f ms; agent's first page (50 runs + total): "
                    + "p50 %.2f ms, p99 %.2f ms; agent page after a cursor: p50 %.2f ms, p99 %.2f ms; at offset 1,000: p50 %.2f ms%n",
                    pct(thread, 50), pct(thread, 99), pct(agent, 50), pct(agent, 99), pct(deep, 50), pct(deep, 99), pct(offset, 50));
            printNodes(cluster.stats(), "calls of the page reads");
        }
    }

    private static void printNodes(List<Map<String, Long>> stats, String what) {
        long keys = stats.stream().mapToLong(m -> m.get("keys")).sum();
        long calls = stats.stream().mapToLong(m -> m.get("calls")).sum();
        long scripts = stats.stream().mapToLong(m -> m.get("scripts")).sum();
        for (int i = 0; i < stats.size(); i++) {
            Map<String, Long> m = stats.get(i);
            System.out.printf(Locale.ROOT, "  node %d: %,d keys (%s of even), %,d MB, %,d calls (%s), %,d scripts (%s) [%s]%n", i,
                    m.get("keys"), share(m.get("keys"), keys, stats.size()), m.get("used_memory") >> 20, m.get("calls"),
                    share(m.get("calls"), calls, stats.size()), m.get("scripts"), share(m.get("scripts"), scripts, stats.size()), what);
        }
    }

    private static String share(long v, long total, int nodes) {
        return total == 0 ? "-" : String.format(Locale.ROOT, "%+.1f%%", 100.0 * (v * nodes - total) / total);
    }

    private static double pct(double[] v, int p) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)];
    }

    /** The approval cycle on 16 threads for {@code seconds}: cycles per second. */
    private static double cycles(LocalRedisCluster cluster, int buckets, int seconds) throws Exception {
        try (RedisSnapshotStore store = open(cluster, buckets, "cycle" + buckets)) {
            AtomicLong done = new AtomicLong();
            AtomicLong ids = new AtomicLong();
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            ExecutorService pool = Executors.newFixedThreadPool(16);
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                fs.add(pool.submit(() -> {
                    while (System.nanoTime() < end) {
                        RunSnapshot s = run(ids.getAndIncrement());
                        if (!store.insert(s)) throw new IllegalStateException("insert of " + s.runId());
                        RunSnapshot found = store.find(s.runId()).orElseThrow();
                        RunSnapshot claimed = found.toBuilder().status(RunStatus.RESUMING).version(2)
                                .lease("instance", T0.plusSeconds(60)).build();
                        if (!store.compareAndSet(1, claimed)) throw new IllegalStateException("claim of " + s.runId());
                        DecisionRecord d = DecisionRecord.builder().decisionId("d-" + s.runId()).agentId(AGENT).runId(s.runId())
                                .threadId(s.threadId()).resourceId(s.resourceId()).kind(DecisionKind.APPROVE).actor("alice")
                                .instanceId("instance").decidedAt(T0).build();
                        if (!store.delete(s.runId(), 2, List.of(d))) throw new IllegalStateException("delete of " + s.runId());
                        done.incrementAndGet();
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) f.get();
            pool.shutdown();
            return done.get() / (double) seconds;
        }
    }
}
