package dev.baton.bench;

import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link RawCycle} by hand with Lettuce on one connection: one round trip per operation, in the
 * store's key layout under the data set's prefix (the run's hash with the same fields and sizes,
 * the "all" / "sus" / "res" sorted-set indexes of agent, thread, resource and both, the held-lease
 * set, the run-id lookup key, the decision record's hash and its five sorted sets). Insert, claim,
 * result and delete are one short Lua script each (the version check and the index moves need the
 * server side, as a hand-written application would do them), find is one {@code HGETALL}.
 *
 * <p>The run's decider labels ({@code RunSnapshot.deciders()}, the "waiting for me" index) as the store keeps
 * them (storage-redis's common.lua): the hash field {@code deciders} (the labels separated by NUL), and the run
 * in one sorted set per label, {@code PREFIX:{HEX(agentId)}:dl:HEX(label)}, scored by {@code createdAt}, while it
 * is SUSPENDED: added by the insert, removed by the claim (a RESUMING run waits for no decision) and by the delete,
 * as the store's insert, compare-and-set and delete scripts do. The label sets are the scripts' {@code KEYS}
 * after the run's own.
 */
final class RedisRawCycle implements RawCycle {
    // KEYS[1] run hash, KEYS[2] lookup, KEYS[3..] label sets; ARGV[1] base, ARGV[2] runId, ARGV[3..6] the index suffixes,
    // ARGV[7] createdAt, ARGV[8] the lookup value (nonce and agentId), ARGV[9..] pairs
    private static final String INSERT = """
            if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
            redis.call('HSET', KEYS[1], unpack(ARGV, 9))
            for i = 3, 6 do
              redis.call('ZADD', ARGV[1] .. 'all' .. ARGV[i], ARGV[7], ARGV[2])
              redis.call('ZADD', ARGV[1] .. 'sus' .. ARGV[i], ARGV[7], ARGV[2])
            end
            for i = 3, #KEYS do redis.call('ZADD', KEYS[i], ARGV[7], ARGV[2]) end
            redis.call('SET', KEYS[2], ARGV[8])
            return 1
            """;
    // KEYS[1] run hash, KEYS[2..] label sets; ARGV[1] base, ARGV[2] runId, ARGV[3..6] index suffixes, ARGV[7] createdAt,
    // ARGV[8] expected version,
    // ARGV[9] lease expiry, ARGV[10] decision hash key, ARGV[11] decidedAt, ARGV[12..16] decision index keys,
    // ARGV[17] number of decision pairs n, then n pairs, then the run's pairs
    private static final String CLAIM = """
            if redis.call('HGET', KEYS[1], 'version') ~= ARGV[8] then return 0 end
            for i = 2, #KEYS do redis.call('ZREM', KEYS[i], ARGV[2]) end
            for i = 3, 6 do
              redis.call('ZREM', ARGV[1] .. 'sus' .. ARGV[i], ARGV[2])
              redis.call('ZADD', ARGV[1] .. 'res' .. ARGV[i], ARGV[7], ARGV[2])
            end
            redis.call('ZADD', ARGV[1] .. 'lease:held', ARGV[9], ARGV[2])
            local n = tonumber(ARGV[17])
            redis.call('HSET', ARGV[10], unpack(ARGV, 18, 17 + 2 * n))
            for i = 12, 16 do redis.call('ZADD', ARGV[i], ARGV[11], ARGV[10]) end
            redis.call('HSET', KEYS[1], unpack(ARGV, 18 + 2 * n))
            return 1
            """;
    // KEYS[1] run hash; ARGV[1] expected version, ARGV[2..] pairs
    private static final String RESULT = """
            if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
            redis.call('HSET', KEYS[1], unpack(ARGV, 2))
            return 1
            """;
    // KEYS[1] run hash, KEYS[2] lookup, KEYS[3..] label sets; ARGV[1] base, ARGV[2] runId, ARGV[3..6] index suffixes,
    // ARGV[7] expected version ('' for any)
    private static final String DELETE = """
            if ARGV[7] ~= '' and redis.call('HGET', KEYS[1], 'version') ~= ARGV[7] then return 0 end
            for i = 3, #KEYS do redis.call('ZREM', KEYS[i], ARGV[2]) end
            redis.call('DEL', KEYS[1])
            for i = 3, 6 do
              redis.call('ZREM', ARGV[1] .. 'all' .. ARGV[i], ARGV[2])
              redis.call('ZREM', ARGV[1] .. 'sus' .. ARGV[i], ARGV[2])
              redis.call('ZREM', ARGV[1] .. 'res' .. ARGV[i], ARGV[2])
            end
            redis.call('ZREM', ARGV[1] .. 'lease:held', ARGV[2])
            redis.call('DEL', KEYS[2])
            return 1
            """;

    // KEYS[1] run hash; ARGV[1] notification set, ARGV[2] runId, ARGV[3] expected version, ARGV[4] expected notifyAt,
    // ARGV[5] new notifyAt, ARGV[6] new notifyState
    private static final String NOTIFY = """
            local cur = redis.call('HMGET', KEYS[1], 'version', 'notifyAt')
            if cur[1] ~= ARGV[3] or cur[2] ~= ARGV[4] then return 0 end
            redis.call('HSET', KEYS[1], 'notifyAt', ARGV[5], 'notifyState', ARGV[6])
            redis.call('ZADD', ARGV[1], ARGV[5], ARGV[2])
            return 1
            """;

    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> redis;
    private final CycleTemplate t;
    private final String base;
    private final String prefix;
    private final String[] suffixes;
    /** The sorted sets of the template run's decider labels, {@code dl:HEX(label)} (common.lua labelKey). */
    private final String[] labelSets;
    private final String insertSha;
    private final String claimSha;
    private final String resultSha;
    private final String deleteSha;
    private final String notifySha;

    RedisRawCycle(StatefulRedisConnection<String, String> connection, String prefix, CycleTemplate t) {
        this.connection = connection;
        this.redis = connection.sync();
        this.t = t;
        this.prefix = prefix;
        RunSnapshot s = t.inserted();
        this.base = RedisBackend.base(prefix, s.agentId());
        String th = RedisBackend.hex(s.threadId());
        String rs = RedisBackend.hex(s.resourceId());
        this.suffixes = new String[] {":a", ":t:" + th, ":r:" + rs, ":tr:" + th + ":" + rs};
        this.labelSets = s.deciders().stream().map(l -> base + "dl:" + RedisBackend.hex(l)).toArray(String[]::new);
        this.insertSha = redis.scriptLoad(INSERT);
        this.claimSha = redis.scriptLoad(CLAIM);
        this.resultSha = redis.scriptLoad(RESULT);
        this.deleteSha = redis.scriptLoad(DELETE);
        this.notifySha = redis.scriptLoad(NOTIFY);
    }

    private String runKey(String runId) {
        return base + "run:" + RedisBackend.hex(runId);
    }

    /** The store's run-id lookup key (RedisKeys: {@code PREFIX:id:{HEX(runId)}}). */
    private String lookupKey(String runId) {
        return prefix + ":id:{" + RedisBackend.hex(runId) + "}";
    }

    /** {@code first} and then the label sets: a script's KEYS. */
    private String[] keys(String... first) {
        String[] out = java.util.Arrays.copyOf(first, first.length + labelSets.length);
        System.arraycopy(labelSets, 0, out, first.length, labelSets.length);
        return out;
    }

    @Override
    public void cycle(String runId) {
        long sh = t.shiftToNow();
        insert(runId, sh);
        if (redis.hgetall(runKey(runId)).isEmpty()) throw new IllegalStateException("raw find: " + runId + " is not there");
        claim(runId, sh);
        RunSnapshot r = t.as(t.result(), runId, sh);
        List<String> args = new ArrayList<>(40);
        args.add(Long.toString(t.resultVersion()));
        fields(r, args);
        one(redis.evalsha(resultSha, ScriptOutputType.INTEGER, new String[] {runKey(runId)}, args.toArray(String[]::new)),
                "result");
        one(delete(runId, Long.toString(t.deleteVersion())), "delete");
    }

    @Override
    public void suspend(String runId) {
        insert(runId, t.shiftToNow());
    }

    @Override
    public void claim(String runId) {
        claim(runId, t.shiftToNow());
    }

    private void insert(String runId, long sh) {
        RunSnapshot s = t.as(t.inserted(), runId, sh);
        List<String> args = new ArrayList<>(40);
        args.add(base);
        args.add(runId);
        for (String x : suffixes) args.add(x);
        args.add(Long.toString(s.createdAt().toEpochMilli()));
        args.add(NONCE + s.agentId());
        fields(s, args);
        args.add("rsv");
        args.add(NONCE);
        one(redis.evalsha(insertSha, ScriptOutputType.INTEGER, keys(runKey(runId), lookupKey(runId)),
                args.toArray(String[]::new)), "insert");
    }

    private void claim(String runId, long sh) {
        RunSnapshot c = t.as(t.claimed(), runId, sh);
        DecisionRecord d = t.decisionsAs(runId, sh).get(0);
        List<String> args = new ArrayList<>(80);
        args.add(base);
        args.add(runId);
        for (String x : suffixes) args.add(x);
        args.add(Long.toString(c.createdAt().toEpochMilli()));
        args.add(Long.toString(t.claimVersion()));
        args.add(c.leaseExpiresAt() == null ? "0" : Long.toString(c.leaseExpiresAt().toEpochMilli()));
        args.add(base + "dec:h:" + RedisBackend.hex(d.decisionId()));
        args.add(Long.toString(d.decidedAt().toEpochMilli()));
        args.add(base + "dec:a");
        args.add(base + "dec:run:" + RedisBackend.hex(runId));
        args.add(base + "dec:u:" + RedisBackend.hex(d.actor()));
        args.add(base + "dec:t:" + RedisBackend.hex(String.valueOf(d.threadId())));
        args.add(base + "dec:r:" + RedisBackend.hex(String.valueOf(d.resourceId())));
        List<String> pairs = new ArrayList<>(32);
        pair(pairs, "decisionId", d.decisionId());
        pair(pairs, "agentId", d.agentId());
        pair(pairs, "runId", d.runId());
        pair(pairs, "threadId", d.threadId());
        pair(pairs, "resourceId", d.resourceId());
        pair(pairs, "toolCallId", d.toolCallId());
        pair(pairs, "toolName", d.toolName());
        pair(pairs, "kind", d.kind().wireName());
        pair(pairs, "actor", d.actor());
        pair(pairs, "instanceId", d.instanceId());
        pair(pairs, "decidedAt", Long.toString(d.decidedAt().toEpochMilli()));
        pair(pairs, "reason", d.reason());
        pair(pairs, "argsDigestBefore", d.argsDigestBefore());
        pair(pairs, "argsDigestAfter", d.argsDigestAfter());
        pair(pairs, "idempotencyKey", d.idempotencyKey());
        args.add(Integer.toString(pairs.size() / 2));
        args.addAll(pairs);
        fields(c, args);
        one(redis.evalsha(claimSha, ScriptOutputType.INTEGER, keys(runKey(runId)), args.toArray(String[]::new)), "claim");
    }

    @Override
    public void notify(String runId, long version, Instant expectedNotifyAt, Instant notifyAt, String notifyState) {
        one(redis.evalsha(notifySha, ScriptOutputType.INTEGER, new String[] {runKey(runId)}, base + "notify", runId,
                Long.toString(version), millis(expectedNotifyAt), millis(notifyAt), notifyState), "notification");
    }

    @Override
    public void remove(String runId) {
        delete(runId, "");
        redis.del(base + "dec:h:" + RedisBackend.hex(runId + "-d0"), base + "dec:run:" + RedisBackend.hex(runId));
    }

    private Long delete(String runId, String version) {
        List<String> args = new ArrayList<>(8);
        args.add(base);
        args.add(runId);
        for (String x : suffixes) args.add(x);
        args.add(version);
        return redis.evalsha(deleteSha, ScriptOutputType.INTEGER, keys(runKey(runId), lookupKey(runId)),
                args.toArray(String[]::new));
    }

    /** The run's hash fields as the store writes them: every non-null field, times in epoch millis. */
    private static void fields(RunSnapshot s, List<String> out) {
        pair(out, "runId", s.runId());
        pair(out, "agentId", s.agentId());
        pair(out, "status", s.status().name());
        pair(out, "threadId", s.threadId());
        pair(out, "resourceId", s.resourceId());
        pair(out, "createdAt", millis(s.createdAt()));
        pair(out, "suspendedAt", millis(s.suspendedAt()));
        pair(out, "version", Long.toString(s.version()));
        pair(out, "leaseOwner", s.leaseOwner());
        pair(out, "leaseExpiresAt", millis(s.leaseExpiresAt()));
        pair(out, "payload", s.payload());
        pair(out, "expiresAt", millis(s.expiresAt()));
        pair(out, "summary", s.summary());
        pair(out, "notifyAt", millis(s.notifyAt()));
        pair(out, "notifyState", s.notifyState());
        pair(out, "deciders", s.deciders().isEmpty() ? null : String.join("\0", s.deciders()));   // RunHashes: NUL between labels
    }

    /** The run's reservation nonce (16 characters, its {@code rsv} field and the head of its lookup value). */
    private static final String NONCE = "0123456789abcdef";

    private static String millis(Instant i) {
        return i == null ? null : Long.toString(i.toEpochMilli());
    }

    private static void pair(List<String> out, String field, String value) {
        if (value == null) return;
        out.add(field);
        out.add(value);
    }

    private static void one(Long r, String what) {
        if (r == null || r != 1L) throw new IllegalStateException("raw " + what + " answered " + r);
    }

    @Override
    public void close() {
        connection.close();
    }

    /**
     * Removes every key of the raw baseline's agent (runs a suspension alone left, decision records, label sets), the
     * run-id lookup keys of its runs (outside the agent's key space: {@code PREFIX:id:{HEX(runId)}} holding this
     * class's nonce and the agent), and the lookup keys {@code PREFIX:{HEX(runId)}:lookup} of the raw baseline before it
     * used the store's lookup key.
     */
    static void purge(RedisCommands<String, String> redis, String prefix) {
        scan(redis, RedisBackend.base(prefix, CycleTemplate.RAW_AGENT) + "*", keys -> keys);
        String ours = NONCE + CycleTemplate.RAW_AGENT;
        scan(redis, prefix + ":id:{*}", keys -> {
            List<io.lettuce.core.KeyValue<String, String>> values = redis.mget(keys.toArray(String[]::new));
            List<String> out = new ArrayList<>();
            for (io.lettuce.core.KeyValue<String, String> kv : values) {
                if (kv.hasValue() && kv.getValue().equals(ours)) out.add(kv.getKey());
            }
            return out;
        });
        scan(redis, prefix + ":{*}:lookup", keys -> keys);
    }

    /** Deletes the keys matching {@code pattern} that {@code which} keeps, one {@code SCAN} page at a time. */
    private static void scan(RedisCommands<String, String> redis, String pattern,
                             java.util.function.Function<List<String>, List<String>> which) {
        io.lettuce.core.ScanArgs match = io.lettuce.core.ScanArgs.Builder.matches(pattern).limit(1000);
        io.lettuce.core.KeyScanCursor<String> cur = redis.scan(match);
        while (true) {
            if (!cur.getKeys().isEmpty()) {
                List<String> gone = which.apply(cur.getKeys());
                if (!gone.isEmpty()) redis.del(gone.toArray(String[]::new));
            }
            if (cur.isFinished()) break;
            cur = redis.scan(cur, match);
        }
    }
}
