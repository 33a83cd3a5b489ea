package dev.baton.bench;

import static dev.baton.bench.DecisionTargets.AGENT;
import static dev.baton.bench.DecisionTargets.PAGE;

import dev.baton.agent.Agent;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The audit trail on Redis: {@code Agent.listDecisions} (first page of 50, newest first) by run, thread,
 * resource and actor, against the hand-written equivalent on the same keys, at {@code n} seeded records
 * (default 1,000,000) of one agent and a tenth as many of another; the same data shape as
 * {@link DecisionBenchmark}. Before measuring, Baton's pages and the raw ones are compared on every target.
 *
 * <pre>
 * java -cp benchmarks/target/baton-benchmarks.jar dev.baton.bench.RedisDecisionBenchmark [n] [iterations]
 * </pre>
 * The server comes from {@code BATON_TEST_REDIS_URL} (default {@code redis://127.0.0.1:6379}); the records
 * are written under the key prefix {@code baton_bench:dec_<n>} in exactly the store's layout (decisions.lua:
 * a hash per record, a sorted set per agent, run, thread, resource and actor scored by decidedAt), pipelined,
 * once: the marker key {@code baton_bench:dec_seeded:<n>} keeps them for the next run.
 *
 * <p>The raw side is one Lua script (EVALSHA): ZREVRANGE of the index by rank 0..50 (one more than the
 * page, to know whether there is a next page), then HGETALL of each record. That is the fair comparison:
 * the store's dlist.lua is one script too, so both pay one round trip and read the same hashes; a client
 * pipeline would need two round trips (the ids first, then the hashes) and would not be one consistent read.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RedisDecisionBenchmark extends TrailBenchmark {
    /** What the seeded keys are, beside n: bump it when the layout changes. */
    static final String LAYOUT = "dec1";
    /** The hand-written script: the record hashes are named by the hex of the id (the layout), hex'd as common.lua does. */
    static final String RAW = "local HEX_OF = setmetatable({}, { __index = function(t, c)\n"
            + "  local v = string.format('%02x', string.byte(c)) rawset(t, c, v) return v end })\n"
            + "local out = {}\n"
            + "for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)) do\n"
            + "  out[#out + 1] = redis.call('HGETALL', ARGV[1] .. 'dec:h:' .. string.gsub(id, '.', HEX_OF))\n"
            + "end\n"
            + "return out\n";

    @Param("1000000")
    public int n;

    RedisClient client;
    StatefulRedisConnection<String, String> connection;
    RedisCommands<String, String> raw;
    String sha;
    String base;
    SnapshotStore store;

    static String url() {
        return Backend.env("BATON_TEST_REDIS_URL", "redis://127.0.0.1:6379");
    }

    static String prefix(int n) {
        return Backend.NAMESPACE + ":dec_" + n;
    }

    @Setup(Level.Trial)
    public void setup() throws Exception {
        RedisURI uri = RedisURI.create(url());
        uri.setTimeout(Duration.ofSeconds(60));
        client = RedisClient.create(uri);
        connection = client.connect(StringCodec.UTF8);
        raw = connection.sync();
        seed(connection, n);
        base = RedisBackend.base(prefix(n), AGENT);
        sha = raw.scriptLoad(RAW);
        store = SnapshotStores.open(url(), Map.of("keyPrefix", prefix(n)));
        agent = Agent.builder(AGENT).model(DeterministicModel.builder().build()).store(store).build();
        checkTargets(n);
    }

    @Override
    String rawName(DecisionTargets.Filter f) {
        return switch (f) { case RUN -> "run:"; case THREAD -> "t:"; case RESOURCE -> "r:"; case ACTOR -> "u:"; };
    }

    /**
     * n records of AGENT and n/10 of another, as {@link DecisionTargets#seed} inserts them, written as
     * the store's decisions.lua writes them (HSET of the non-null fields, ZADD to each index, score decidedAt).
     */
    static void seed(StatefulRedisConnection<String, String> c, int n) throws Exception {
        RedisCommands<String, String> sync = c.sync();
        String marker = Backend.NAMESPACE + ":dec_seeded:" + n;
        if ((n + ":" + LAYOUT).equals(sync.get(marker))) return;
        sync.del(marker);
        RedisBackend.deleteKeys(sync, prefix(n) + ":*");
        long start = System.nanoTime();
        int total = DecisionTargets.total(n);
        RedisAsyncCommands<String, String> async = c.async();
        c.setAutoFlushCommands(false);
        try {
            List<RedisFuture<?>> pending = new ArrayList<>();
            Map<String, List<ScoredValue<String>>> zadds = new LinkedHashMap<>();
            DecisionTargets.seed(n, d -> {
                String dec = RedisBackend.base(prefix(n), d.agentId()) + "dec:";
                Map<String, String> h = new HashMap<>();
                h.put("decisionId", d.decisionId());
                h.put("agentId", d.agentId());
                h.put("runId", d.runId());
                h.put("threadId", d.threadId());
                h.put("resourceId", d.resourceId());
                h.put("toolCallId", d.toolCallId());
                h.put("toolName", "charge");
                h.put("kind", "approve");
                h.put("actor", d.actor());
                h.put("instanceId", "bench");
                h.put("decidedAt", Long.toString(d.decidedAt()));
                h.put("reason", "ok");
                h.put("argsDigestBefore", "a".repeat(64));
                h.put("argsDigestAfter", "a".repeat(64));
                pending.add(async.hset(dec + "h:" + RedisBackend.hex(d.decisionId()), h));
                ScoredValue<String> member = ScoredValue.just(d.decidedAt(), d.decisionId());
                for (String index : new String[] {dec + "a", dec + "run:" + RedisBackend.hex(d.runId()),
                    dec + "u:" + RedisBackend.hex(d.actor()), dec + "t:" + RedisBackend.hex(d.threadId()),
                    dec + "r:" + RedisBackend.hex(d.resourceId())}) {
                    zadds.computeIfAbsent(index, x -> new ArrayList<>()).add(member);
                }
                int k = d.k();
                if ((k + 1) % 5_000 == 0 || k + 1 == total) {
                    RedisBackend.flushBatch(c, zadds, pending);
                }
                Backend.progress("redis " + prefix(n), k + 1, total, start);
            });
        } finally {
            c.setAutoFlushCommands(true);
        }
        sync.set(marker, n + ":" + LAYOUT);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.close();
        connection.close();
        client.shutdown();
    }

    /**
     * The hand-written script on index {@code family:value}: page + 1 records, every field of each read
     * into a map (as the store reads them before building records); the ids of the first 50 returned.
     */
    @Override
    List<String> rawQuery(String family, String value) {
        List<Object> reply = raw.evalsha(sha, ScriptOutputType.MULTI, new String[] {base + "dec:" + family + RedisBackend.hex(value)},
                base, Integer.toString(PAGE + 1));
        List<String> out = new ArrayList<>(PAGE);
        for (Object o : reply) {
            @SuppressWarnings("unchecked")
            List<Object> flat = (List<Object>) o;
            Map<String, String> h = new HashMap<>();
            for (int j = 0; j + 1 < flat.size(); j += 2) h.put((String) flat.get(j), (String) flat.get(j + 1));
            if (out.size() < PAGE) out.add(h.get("decisionId"));
        }
        return out;
    }

    /**
     * Runs this benchmark alone.
     *
     * @param args {@code [n] [iterations]}
     * @throws Exception if JMH fails
     */
    public static void main(String[] args) throws Exception {
        TrailBenchmark.main(RedisDecisionBenchmark.class, args, "1000000", "512m", null);
    }
}
