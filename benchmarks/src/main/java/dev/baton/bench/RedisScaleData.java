package dev.baton.bench;

import dev.baton.store.SnapshotStores;
import dev.baton.StorageException;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link ScaleData}'s runs in Redis: the same two busy agents, 10 runs a thread, 100 a resource, one
 * run in 1,000 with the deadline {@link ScaleData#DUE}, the same payloads; inserted through the
 * store itself ({@code store.insert}, 16 threads sharing its connection), so every key is the
 * store's own. Redis has no table to size: the data set gets a database of its own (index
 * {@code db}, default 9, emptied with {@code FLUSHDB} before seeding), and bytes per run are the
 * growth of {@code INFO used_memory} over the seed divided by the runs. A marker key says the seed
 * is complete, so a seeded size is kept until another size is seeded in the same database.
 */
final class RedisScaleData implements ScaleSeed {
    private static final String MARKER = "baton_scale_seed";
    private static final int THREADS = 16;

    private final String url;
    private final int n;

    RedisScaleData(String serverUrl, int db, int n) {
        RedisURI uri = RedisURI.create(serverUrl);
        uri.setDatabase(db);
        this.url = uri.toURI().toString();
        this.n = n;
    }

    @Override
    public String backend() {
        return "redis";
    }

    @Override
    public int n() {
        return n;
    }

    private String markerValue() {
        return n + ":" + ScaleData.VERSION;
    }

    private <T> T withRedis(java.util.function.Function<RedisCommands<String, String>, T> f) {
        RedisURI uri = RedisURI.create(url);
        uri.setTimeout(Duration.ofMinutes(5));
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> c = client.connect(StringCodec.UTF8)) {
            return f.apply(c.sync());
        } finally {
            client.shutdown();
        }
    }

    @Override
    public boolean isSeeded() {
        return withRedis(r -> {
            String v = r.hget(MARKER, "seed");
            return v != null && v.equals(markerValue());
        });
    }

    @Override
    public double seededSeconds() {
        return withRedis(r -> {
            String v = r.hget(MARKER, "seconds");
            return v == null ? Double.NaN : Double.parseDouble(v);
        });
    }

    @Override
    public SnapshotStore openStore() {
        return SnapshotStores.open(url, Map.of("timeout", "PT60S"));
    }

    /** Run {@code g} as {@link ScaleData} seeds it in SQL. */
    static RunSnapshot run(long g, String[] templates, long stepMillis) {
        String runId = String.format(Locale.ROOT, "scale-%010d", g);
        String agentId = ScaleData.agentId((int) ((g / ScaleData.PER_RESOURCE) % ScaleData.AGENTS));
        String thread = ScaleData.threadId(g / ScaleData.PER_THREAD);
        String resource = ScaleData.resourceId(g / ScaleData.PER_RESOURCE);
        boolean due = g % ScaleData.DUE_EVERY == 0;
        Instant created = ScaleData.START.plusMillis(g * stepMillis);
        return RunSnapshot.builder().runId(runId).agentId(agentId).status(RunStatus.SUSPENDED).threadId(thread).resourceId(resource)
                .createdAt(created).suspendedAt(created.plusSeconds(1))
                .payload(ScaleData.fill(templates[due ? 1 : 0], runId, agentId, thread, resource))
                .summary(ScaleData.fill(templates[due ? 3 : 2], runId, agentId, thread, resource))
                .expiresAt(due ? ScaleData.DUE : null).build();
    }

    @Override
    public double seed() {
        long t0 = System.nanoTime();
        long before = withRedis(r -> {
            r.flushdb();
            return usedMemory(r);
        });
        String[] templates = ScaleData.templates();
        long step = Math.max(1, Duration.ofDays(30).toMillis() / n);
        AtomicLong next = new AtomicLong(), done = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (SnapshotStore store = openStore()) {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                workers.add(pool.submit(() -> {
                    for (long g = next.getAndIncrement(); g < n; g = next.getAndIncrement()) {
                        if (!store.insert(run(g, templates, step))) throw new IllegalStateException("run " + g + " was already stored");
                        Backend.progress("redis scale", done.incrementAndGet(), n, t0);
                    }
                    return null;
                }));
            }
            for (Future<?> w : workers) w.get();
        } catch (Exception e) {
            throw new StorageException("redis: seeding " + n + " runs failed: " + e.getMessage(), e);
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        withRedis(r -> {
            long after = usedMemory(r);
            long keys = r.dbsize();
            r.hset(MARKER, Map.of("seed", markerValue(), "seconds", Double.toString(seconds), "bytes", Long.toString(after - before),
                    "keys", Long.toString(keys)));
            return null;
        });
        return seconds;
    }

    private static long usedMemory(RedisCommands<String, String> r) {
        return r.info("memory").lines().filter(l -> l.startsWith("used_memory:")).mapToLong(l -> Long.parseLong(l.substring(12).trim()))
                .findFirst().orElseThrow();
    }

    @Override
    public Map<String, Object> footprint() {
        return withRedis(r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            long bytes = Long.parseLong(r.hget(MARKER, "bytes"));
            m.put("totalBytes", bytes);
            m.put("keys", Long.parseLong(r.hget(MARKER, "keys")));
            m.put("rows", (long) n);
            m.put("usedMemoryNow", usedMemory(r));
            m.put("bytesPerRun", bytes / (double) n);
            return m;
        });
    }
}
