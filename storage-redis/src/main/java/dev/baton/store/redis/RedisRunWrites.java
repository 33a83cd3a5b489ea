package dev.baton.store.redis;

import dev.baton.store.RunSnapshot;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The writes (and the find) of one run for {@link RedisSnapshotStore}: insert, find, compare-and-set, lease renewal
 * and delete, each one script on the run's hash and indexes in its bucket ({@link RedisBuckets}), with the run-id
 * lookup ({@link RunLookup}) around them: a round trip of its own on a Cluster or in a bucketed layout, inside the
 * same script on a standalone server with one bucket ({@link RedisAccess#oneScript}: sinsert.lua, sfind.lua,
 * sdelete.lua, srenew.lua), so that each call is one round trip there. A compare-and-set knows the run's key space
 * from the replacement and never reads the lookup key.
 */
final class RedisRunWrites {
    private static final LuaScript INSERT = LuaScript.load("insert", true);
    private static final LuaScript CAS = LuaScript.load("cas", true);
    private static final LuaScript DELETE = LuaScript.load("delete", true);
    private static final LuaScript RENEW = LuaScript.load("renew", true);
    private static final LuaScript INSERT_ONE = LuaScript.compose("sinsert", "common", "lookup");
    private static final LuaScript FIND_ONE = LuaScript.compose("sfind", "common");
    private static final LuaScript DELETE_ONE = LuaScript.compose("sdelete", "common", "lookup");
    private static final LuaScript RENEW_ONE = LuaScript.compose("srenew", "common");
    /** What the s*.lua scripts answer when the lookup value is in the bucketed form: nothing changed, do it in steps. */
    static final long IN_STEPS = 2L;

    private final RedisAccess access;
    private final RedisClusterCommands<String, String> redis;
    private final RedisBuckets buckets;
    private final RunHashes hashes;
    private final RunLookup lookup;

    RedisRunWrites(RedisAccess access, RunHashes hashes, RunLookup lookup) {
        this.access = access;
        this.redis = access.redis;
        this.buckets = access.buckets;
        this.hashes = hashes;
        this.lookup = lookup;
    }

    boolean insert(RunSnapshot s) {
        if (buckets.count() > 1 && s.agentId().charAt(0) == RunLookup.BUCKET_MARK) {
            throw new IllegalArgumentException("agentId must not start with U+0001 in a bucketed Redis layout: " + s.agentId());
        }
        return access.call("insert", s.runId(), () -> {
            int k = buckets.of(s.threadId(), s.runId());
            String base = buckets.base(s.agentId(), k);
            String suffix = RunLookup.suffix(s.agentId(), k, buckets.count());
            if (access.oneScript) {
                // reserve, insert and restore in one script: atomic, so at least as strong as the steps below
                List<String> args = new ArrayList<>(List.of(base, s.runId(), suffix, RunLookup.nonce()));
                RunHashes.fields(s, args);
                args.add("rsv");
                args.add(args.get(3));
                List<Object> r = INSERT_ONE.run(redis, ScriptOutputType.MULTI,
                        new String[] {RedisKeys.runIn(base, s.runId()), access.keys.lookup(s.runId())}, args.toArray(String[]::new));
                return ((Long) r.get(0)) == 1L;
            }
            String nonce = lookup.reserve(suffix, s.runId());
            if (nonce == null) return false; // the run id belongs to another agent's run
            List<String> args = new ArrayList<>(List.of(base, s.runId()));
            RunHashes.fields(s, args);
            args.add("rsv");
            args.add(nonce);
            List<Object> r = INSERT.run(redis, ScriptOutputType.MULTI, new String[] {RedisKeys.runIn(base, s.runId())},
                    args.toArray(String[]::new));
            if (((Long) r.get(0)) == 1L) return true;
            // the run exists: point the lookup key back at it (and clear it if a delete took the run meanwhile)
            lookup.restore(suffix, base, s.runId(), nonce, (String) r.get(1));
            return false;
        });
    }

    Optional<RunSnapshot> find(String runId) {
        return access.call("find", runId, () -> {
            if (access.oneScript) {
                List<Object> r = FIND_ONE.run(redis, ScriptOutputType.MULTI, new String[] {access.keys.lookup(runId)},
                        access.keys.prefix(), runId);
                long found = (Long) r.get(0);
                if (found == 0L) return Optional.empty();
                if (found == 1L) {
                    Map<String, String> h = RunHashes.map(r.get(1));
                    return h.isEmpty() ? Optional.empty() : Optional.of(hashes.snapshot(h));
                }
            }
            RunLookup.Located at = lookup.find(runId);
            if (at == null) return Optional.empty();
            Map<String, String> h = redis.hgetall(at.runKey(runId));
            return h.isEmpty() ? Optional.empty() : Optional.of(hashes.snapshot(h));
        });
    }

    boolean compareAndSet(long expectedVersion, RunSnapshot replacement) {
        return access.call("compare-and-set", replacement.runId(), () -> {
            // the contract keeps threadId (and runId) across a compare-and-set, so the run's bucket is the replacement's
            String base = buckets.base(replacement.agentId(), buckets.of(replacement.threadId(), replacement.runId()));
            List<String> args = new ArrayList<>(List.of(base, replacement.runId(), Long.toString(expectedVersion)));
            RunHashes.fields(replacement, args);
            Long r = CAS.run(redis, ScriptOutputType.INTEGER,
                    new String[] {RedisKeys.runIn(base, replacement.runId())}, args.toArray(String[]::new));
            return r != null && r == 1L;
        });
    }

    boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(owner, "owner");
        return access.call("lease renewal", runId, () -> {
            if (access.oneScript) {
                Long r = RENEW_ONE.run(redis, ScriptOutputType.INTEGER, new String[] {access.keys.lookup(runId)},
                        access.keys.prefix(), runId, Long.toString(expectedVersion), owner,
                        Long.toString(newExpiry.toEpochMilli()), Long.toString(expectedVersion + 1));
                if (r == null || r != IN_STEPS) return r != null && r == 1L;
            }
            RunLookup.Located at = lookup.find(runId);
            if (at == null) return false;
            Long r = RENEW.run(redis, ScriptOutputType.INTEGER, new String[] {at.runKey(runId)},
                    at.base(), runId, Long.toString(expectedVersion), owner,
                    Long.toString(newExpiry.toEpochMilli()), Long.toString(expectedVersion + 1));
            return r != null && r == 1L;
        });
    }

    boolean delete(String runId, long expectedVersion) {
        return access.call("delete", runId, () -> {
            if (access.oneScript) {
                // find, delete and release in one script: atomic, so at least as strong as the steps below
                Long r = DELETE_ONE.run(redis, ScriptOutputType.INTEGER, new String[] {access.keys.lookup(runId)},
                        access.keys.prefix(), runId, Long.toString(expectedVersion));
                if (r == null || r != IN_STEPS) return r != null && r == 1L;
            }
            RunLookup.Located at = lookup.find(runId);
            if (at == null) return false;
            String nonce = DELETE.run(redis, ScriptOutputType.VALUE, new String[] {at.runKey(runId)},
                    at.base(), runId, Long.toString(expectedVersion));
            if (nonce == null) return false;
            lookup.release(at, runId, nonce);   // only if no insert of the same run id re-pointed it since
            return true;
        });
    }
}
