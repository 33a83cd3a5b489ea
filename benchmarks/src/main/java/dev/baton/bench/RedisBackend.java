package dev.baton.bench;

import dev.baton.StorageException;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Redis: one key prefix per data set ({@code baton_bench:10k_2k}), seeded with pipelined HSET / SET /
 * ZADD in exactly the store's layout (see {@code RedisKeys} and {@code common.lua} in
 * baton-storage-redis): a hash per run, the run-id lookup key, and the "all" and "sus" families
 * of sorted-set indexes (agent, agent+thread, agent+resource, agent+thread+resource), scored by
 * createdAt millis. A marker key {@code baton_bench:seeded:TAG} holds the data version.
 */
final class RedisBackend extends Backend {
    private static final HexFormat HEX = HexFormat.of();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final String url;
    /** The seeded hash layout, beside {@link DataSet#VERSION}: "s" since the hashes carry the listing summary. */
    static final String LAYOUT = "s";   // with DataSet version 3: the decider labels (field "deciders", sets dl:HEX(label))
    /** What the store's payload-free listing reads of a run hash (common.lua): every field but the payload. */
    static final String[] LISTED = {"runId", "agentId", "status", "threadId", "resourceId", "createdAt", "suspendedAt",
        "version", "leaseOwner", "leaseExpiresAt", "expiresAt", "summary"};
    private final RedisClient client;

    RedisBackend(String url) {
        super("redis");
        this.url = url;
        io.lettuce.core.RedisURI uri = io.lettuce.core.RedisURI.create(url);
        uri.setTimeout(TIMEOUT);
        this.client = RedisClient.create(uri);
    }

    String prefix(DataSet d) {
        return NAMESPACE + ":" + d.tag();
    }

    String marker(DataSet d) {
        return NAMESPACE + ":seeded:" + d.tag();
    }

    static String hex(String s) {
        return HEX.formatHex(s.getBytes(StandardCharsets.UTF_8));
    }

    static String base(String prefix, String agentId) {
        return prefix + ":{" + hex(agentId) + "}:";
    }

    /** The store's index key of family {@code fam} for a filter on thread and/or resource (common.lua indexKey). */
    static String indexKey(String base, String fam, String thread, String resource) {
        if (thread != null && resource != null) return base + fam + ":tr:" + hex(thread) + ":" + hex(resource);
        if (thread != null) return base + fam + ":t:" + hex(thread);
        if (resource != null) return base + fam + ":r:" + hex(resource);
        return base + fam + ":a";
    }

    @Override
    public String describe() {
        try (StatefulRedisConnection<String, String> c = client.connect(StringCodec.UTF8)) {
            String info = c.sync().info("server");
            String version = info.lines().filter(l -> l.startsWith("redis_version:")).findFirst().orElse("?").substring(14);
            return "Redis " + version + " (" + SnapshotStores.redact(url) + ")";
        } catch (RuntimeException e) {
            throw new StorageException("redis: cannot connect to " + SnapshotStores.redact(url) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public SnapshotStore openStore(DataSet data) {
        return SnapshotStores.open(url, Map.of("keyPrefix", prefix(data)));
    }

    /**
     * The server's {@code INFO commandstats}: per command (a script's inner commands counted under their own names, as
     * Redis counts them), its calls and microseconds so far; for {@link CycleCpu}'s server-side figures.
     */
    Map<String, long[]> commandStats() {
        try (StatefulRedisConnection<String, String> c = client.connect(StringCodec.UTF8)) {
            Map<String, long[]> out = new java.util.TreeMap<>();
            for (String line : c.sync().info("commandstats").split("\r?\n")) {
                if (!line.startsWith("cmdstat_")) continue;
                int colon = line.indexOf(':');
                long calls = 0;
                long usec = 0;
                for (String kv : line.substring(colon + 1).split(",")) {
                    if (kv.startsWith("calls=")) calls = Long.parseLong(kv.substring(6));
                    else if (kv.startsWith("usec=")) usec = Long.parseLong(kv.substring(5));
                }
                out.put(line.substring(8, colon), new long[] {calls, usec});
            }
            return out;
        }
    }

    @Override
    @org.jspecify.annotations.Nullable RawCycle rawCycle(DataSet data, CycleTemplate template) {
        return new RedisRawCycle(client.connect(StringCodec.UTF8), prefix(data), template);
    }

    @Override
    void purgeRaw(DataSet data) {
        try (StatefulRedisConnection<String, String> c = client.connect(StringCodec.UTF8)) {
            RedisRawCycle.purge(c.sync(), prefix(data));
        }
    }

    @Override
    public boolean isSeeded(DataSet data) {
        try (StatefulRedisConnection<String, String> c = client.connect(StringCodec.UTF8)) {
            String v = c.sync().get(marker(data));
            return (data.n + ":" + data.size + ":" + DataSet.VERSION + LAYOUT).equals(v);
        }
    }

    @Override
    public void seed(DataSet data) {
        String prefix = prefix(data);
        try (StatefulRedisConnection<String, String> c = client.connect(StringCodec.UTF8)) {
            RedisCommands<String, String> sync = c.sync();
            sync.del(marker(data));
            deleteKeys(sync, prefix + ":*");
            long start = System.nanoTime();
            RedisAsyncCommands<String, String> async = c.async();
            c.setAutoFlushCommands(false);
            try {
                int batch = 2_000;
                List<RedisFuture<?>> pending = new ArrayList<>();
                Map<String, List<ScoredValue<String>>> zadds = new LinkedHashMap<>();
                for (int i = 0; i < data.n; i++) {
                    RunSnapshot s = data.run(i);
                    String base = base(prefix, s.agentId());
                    String nonce = String.format("%016x", (long) i * 0x9E3779B97F4A7C15L);
                    Map<String, String> h = new HashMap<>();
                    h.put("runId", s.runId());
                    h.put("agentId", s.agentId());
                    h.put("status", s.status().name());
                    h.put("threadId", s.threadId());
                    h.put("resourceId", s.resourceId());
                    h.put("createdAt", Long.toString(s.createdAt().toEpochMilli()));
                    h.put("suspendedAt", Long.toString(s.suspendedAt().toEpochMilli()));
                    h.put("version", Long.toString(s.version()));
                    h.put("payload", s.payload());
                    h.put("summary", Objects.requireNonNull(s.summary(), "summary"));   // what a listing reads instead of the payload
                    h.put("rsv", nonce);
                    if (!s.deciders().isEmpty()) h.put("deciders", String.join("\0", s.deciders()));   // RunHashes: NUL between labels
                    pending.add(async.hset(base + "run:" + hex(s.runId()), h));
                    pending.add(async.set(prefix + ":id:{" + hex(s.runId()) + "}", nonce + s.agentId()));
                    ScoredValue<String> member = ScoredValue.just(s.createdAt().toEpochMilli(), s.runId());
                    for (String label : s.deciders()) {   // common.lua labelKey: the runs stored SUSPENDED with the label
                        zadds.computeIfAbsent(base + "dl:" + hex(label), k -> new ArrayList<>()).add(member);
                    }
                    for (String fam : new String[] {"all", "sus"}) {
                        zadds.computeIfAbsent(indexKey(base, fam, null, null), k -> new ArrayList<>()).add(member);
                        zadds.computeIfAbsent(indexKey(base, fam, s.threadId(), null), k -> new ArrayList<>()).add(member);
                        zadds.computeIfAbsent(indexKey(base, fam, null, s.resourceId()), k -> new ArrayList<>()).add(member);
                        zadds.computeIfAbsent(indexKey(base, fam, s.threadId(), s.resourceId()), k -> new ArrayList<>()).add(member);
                    }
                    if ((i + 1) % batch == 0 || i + 1 == data.n) {
                        flushBatch(c, zadds, pending);
                    }
                    progress("redis " + prefix, i + 1, data.n, start);
                }
            } finally {
                c.setAutoFlushCommands(true);
            }
            sync.set(marker(data), data.n + ":" + data.size + ":" + DataSet.VERSION + LAYOUT);
        }
    }

    static void deleteKeys(RedisCommands<String, String> sync, String pattern) {
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = sync.scan(cursor, ScanArgs.Builder.matches(pattern).limit(10_000));
            if (!page.getKeys().isEmpty()) sync.unlink(page.getKeys().toArray(String[]::new));
            cursor = page;
        } while (!cursor.isFinished());
    }

    /**
     * Ends a pipelined seeding batch: queues one ZADD per sorted set in {@code zadds}, flushes the connection's
     * commands (auto-flush off), waits for every command in {@code pending}, then empties both.
     */
    static void flushBatch(StatefulRedisConnection<String, String> c, Map<String, List<ScoredValue<String>>> zadds,
            List<RedisFuture<?>> pending) {
        RedisAsyncCommands<String, String> async = c.async();
        for (var e : zadds.entrySet()) {
            @SuppressWarnings("unchecked")
            ScoredValue<String>[] members = e.getValue().toArray(ScoredValue[]::new);
            pending.add(async.zadd(e.getKey(), members));
        }
        zadds.clear();
        c.flushCommands();
        for (RedisFuture<?> f : pending) await(f);
        pending.clear();
    }

    static <T> T await(RedisFuture<T> f) {
        try {
            return f.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new StorageException("redis command failed: " + e.getMessage(), e);
        }
    }

    @Override
    public SnapshotStore openMemoryStore(MemoryData data) {
        return SnapshotStores.open(url, Map.of("keyPrefix", NAMESPACE + ":" + data.tag()));
    }

    @Override
    public RawMemory rawMemory(MemoryData data) {
        return new RedisRawMemory(client.connect(StringCodec.UTF8), NAMESPACE + ":" + data.tag());
    }

    @Override
    public int seedParallelism() {
        return 4;
    }

    @Override
    public RawQueries raw(DataSet data) {
        return new Raw(client.connect(StringCodec.UTF8), prefix(data));
    }

    @Override
    public void close() {
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    /**
     * Raw sorted-set commands on the store's own "sus" (effectively suspended) index of the
     * filter: {@code ZCOUNT} and {@code ZREVRANGEBYSCORE ... LIMIT 0 20} sent together, then one
     * pipelined {@code HMGET} per run of the page of the fields a listing reads (all but the payload): two round trips.
     * "Waiting for me" ({@link Query#deciders()}): on the store's per-label sets {@code dl:HEX(label)} (runs stored
     * SUSPENDED, scored by createdAt), one pipeline of {@code ZDIFFSTORE} (granting minus excluding label) per pair
     * into scratch keys, {@code ZUNIONSTORE ... AGGREGATE MAX} of them, {@code ZCARD}, {@code ZREVRANGE 0 19} and
     * {@code DEL} of the scratch keys, then the pipelined {@code HMGET}s: also two round trips.
     */
    static final class Raw implements RawQueries {
        private final StatefulRedisConnection<String, String> c;
        private final RedisAsyncCommands<String, String> async;
        private final String prefix;

        Raw(StatefulRedisConnection<String, String> c, String prefix) {
            this.c = c;
            this.async = c.async();
            this.prefix = prefix;
        }

        @Override
        public boolean deciders() {
            return true;
        }

        @Override
        public Page page(Query q) {
            String base = base(prefix, q.agentId());
            if (q.deciders() != null) return waitingFor(base, q);
            String key = indexKey(base, "sus", q.threadId(), q.resourceId());
            Range<Long> range = Range.from(
                    q.from() == null ? Range.Boundary.unbounded() : Range.Boundary.including(q.from()),
                    q.to() == null ? Range.Boundary.unbounded() : Range.Boundary.including(q.to()));
            RedisFuture<Long> count = async.zcount(key, range);
            RedisFuture<List<String>> ids = async.zrevrangebyscore(key, range, Limit.create(0, q.limit()));
            return rows(base, await(ids), await(count));
        }

        /** The deciders filter (no thread, resource or dates with it in the benchmark). */
        private Page waitingFor(String base, Query q) {
            if (q.threadId() != null || q.resourceId() != null || q.from() != null || q.to() != null) {
                throw new UnsupportedOperationException("the raw waiting-for-me query takes no other filter");
            }
            List<dev.baton.store.RunQuery.Decider> deciders = q.deciders();
            String[] scratch = new String[deciders.size()];
            List<RedisFuture<?>> writes = new ArrayList<>();
            for (int k = 0; k < deciders.size(); k++) {
                scratch[k] = base + "bench:wf:" + k;   // in the agent's hash slot, like the store's scratch sets
                writes.add(async.zdiffstore(scratch[k], base + "dl:" + hex(deciders.get(k).granted()),
                        base + "dl:" + hex(deciders.get(k).unlessExcluded())));
            }
            String union = base + "bench:wf";
            writes.add(async.zunionstore(union, io.lettuce.core.ZStoreArgs.Builder.max(), scratch));
            RedisFuture<Long> count = async.zcard(union);
            RedisFuture<List<String>> ids = async.zrevrange(union, 0, q.limit() - 1);
            String[] all = java.util.Arrays.copyOf(scratch, scratch.length + 1);
            all[scratch.length] = union;
            writes.add(async.del(all));
            List<String> page = await(ids);
            long total = await(count);
            for (RedisFuture<?> w : writes) await(w);
            return rows(base, page, total);
        }

        private Page rows(String base, List<String> page, long total) {
            List<RedisFuture<List<KeyValue<String, String>>>> hashes = new ArrayList<>(page.size());
            for (String id : page) hashes.add(async.hmget(base + "run:" + hex(id), LISTED));
            List<Row> rows = new ArrayList<>(page.size());
            for (RedisFuture<List<KeyValue<String, String>>> f : hashes) {
                List<KeyValue<String, String>> h = await(f);
                rows.add(new Row(h.get(0).getValue(), h.get(1).getValue(), h.get(2).getValue(), h.get(3).getValue(),
                        h.get(4).getValue(), Long.parseLong(h.get(5).getValue()), Long.parseLong(h.get(6).getValue()),
                        Long.parseLong(h.get(7).getValue()), h.get(11).getValue()));
            }
            return new Page(total, rows);
        }

        @Override
        public void close() {
            c.close();
        }
    }
}
