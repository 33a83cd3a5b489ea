package dev.baton.store.redis;

import dev.baton.StorageException;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Moves one agent's runs and decision records from a layout of {@code fromBuckets} buckets (see
 * {@link RedisSnapshotStore.Builder#buckets}) to the layout of the store it is given. Run it while no instance
 * works on the agent (every instance stopped, or at least none serving the agent): the moves are not atomic
 * with respect to other writers, and a listing during the move may count a run in two buckets.
 *
 * <p>Each record moves in three steps, each idempotent: copy it into its bucket of the new layout (a script that
 * changes nothing when the copy is there), point its lookup key (a run's run-id lookup, a decision's idempotency
 * reservation) at the copy, then delete it from the old bucket (one script: hash and every index). A run or
 * record already in place (same bucket key space in both layouts) stays. So a migration that stops anywhere (a
 * crash, a lost connection, {@code maxRecords}) and is run again loses nothing and duplicates nothing: the
 * second run finds every record either still in an old bucket (and finishes moving it) or in its new one.
 *
 * <pre>{@code
 * // every instance stopped; the data was written with buckets = 1
 * try (RedisSnapshotStore store = RedisSnapshotStore.builder(client).buckets(6).build()) {
 *     RedisLayoutMigration.Result r = RedisLayoutMigration.of(store).migrate("agent-id", 1);
 * }
 * // start the instances with buckets = 6
 * }</pre>
 *
 * <p>Thread memory is not in the buckets (it is keyed per resource and thread) and does not move.
 *
 * <p>The key prefix records the bucket count its data was written with ({@code <prefix>:buckets}); a store
 * opened with another count refuses every call, naming both counts, so that it never lists a part of the
 * runs. The store given to a migration works all the same, and a complete migration records the store's
 * count: migrate every agent of the prefix before starting the instances with the new count.
 */
public final class RedisLayoutMigration {
    private static final LuaScript INSERT = LuaScript.load("insert", true);
    private static final LuaScript DELETE = LuaScript.load("delete", true);
    private static final LuaScript PUT = LuaScript.loadWithDecisions("dput");
    private static final LuaScript DROP = LuaScript.loadWithDecisions("ddrop");
    private static final int BATCH = 200;

    private final RedisAccess access;
    /** Test hook: throws after this many steps of record moves (0: never), as a crash would stop the migration. */
    int crashAfterSteps;
    private int steps;

    private RedisLayoutMigration(RedisAccess access) {
        this.access = access;
    }

    /**
     * A migration into the layout of {@code store} (its key prefix and bucket count).
     *
     * @param store the store, open, with the target number of buckets
     * @return the migration
     */
    public static RedisLayoutMigration of(RedisSnapshotStore store) {
        RedisAccess access = Objects.requireNonNull(store, "store").access();
        access.migrating = true;   // a store opened with another count than its data's works for the migration
        return new RedisLayoutMigration(access);
    }

    /**
     * What one {@link #migrate} call did.
     *
     * @param runs      runs moved to another bucket
     * @param decisions decision records moved to another bucket
     * @param complete  true when nothing of the agent is left in a bucket of the old layout that is not also one of
     *                  the new (false when {@code maxRecords} stopped it: run it again)
     */
    public record Result(long runs, long decisions, boolean complete) {
    }

    /**
     * Moves every run and decision record of {@code agentId} from the layout of {@code fromBuckets} buckets to the
     * store's layout.
     *
     * @param agentId     the agent
     * @param fromBuckets the bucket count the data was written with, 1 to 1024
     * @return what was moved
     * @throws StorageException if Redis fails; run it again, it continues where it stopped
     */
    public Result migrate(String agentId, int fromBuckets) {
        return migrate(agentId, fromBuckets, Long.MAX_VALUE);
    }

    /**
     * As {@link #migrate(String, int)}, stopping after {@code maxRecords} records moved (to spread a large move over
     * several calls); call it again until {@link Result#complete()}.
     *
     * @param agentId     the agent
     * @param fromBuckets the bucket count the data was written with, 1 to 1024
     * @param maxRecords  the most records (runs and decisions) to move in this call, at least 1
     * @return what was moved
     */
    public Result migrate(String agentId, int fromBuckets, long maxRecords) {
        Objects.requireNonNull(agentId, "agentId");
        RedisBuckets.check(fromBuckets);
        if (maxRecords < 1) throw new IllegalArgumentException("maxRecords must be >= 1, was " + maxRecords);
        return access.call("layout migration of agent " + agentId, null, () -> {
            String[] from = access.buckets.bases(agentId, fromBuckets);
            long runs = 0;
            long decisions = 0;
            for (int k = 0; k < from.length; k++) {
                runs += moveRuns(agentId, from[k], RunLookup.suffix(agentId, k, fromBuckets), maxRecords - runs - decisions);
                if (runs + decisions >= maxRecords) return new Result(runs, decisions, false);
            }
            for (String base : from) {
                decisions += moveDecisions(agentId, base, maxRecords - runs - decisions);
                if (runs + decisions >= maxRecords) return new Result(runs, decisions, false);
            }
            access.recordLayout();   // the data the store is opened on is in its layout now
            return new Result(runs, decisions, true);
        });
    }

    /** Moves the runs of one old bucket; returns how many moved (at most {@code max}). */
    private long moveRuns(String agentId, String source, String oldSuffix, long max) {
        long moved = 0;
        long stayed = 0;
        while (moved < max) {
            List<String> ids = access.redis.zrange(source + "all:a", stayed, stayed + BATCH - 1);
            if (ids.isEmpty()) return moved;
            for (String runId : ids) {
                if (moved >= max) return moved;
                if (moveRun(agentId, source, oldSuffix, runId)) moved++; else stayed++;
            }
        }
        return moved;
    }

    /** Copies the run into its new bucket, points its lookup there, deletes the old copy; false when it is in place. */
    private boolean moveRun(String agentId, String source, String oldSuffix, String runId) {
        Map<String, String> h = access.redis.hgetall(RedisKeys.runIn(source, runId));
        if (h.isEmpty()) throw new StorageException(access.description + ": run " + runId + " is in the index of " + source
                + " without its hash");
        int k = access.buckets.of(h.get("threadId"), runId);
        String target = access.buckets.base(agentId, k);
        if (target.equals(source)) return false;
        List<String> args = new ArrayList<>(List.of(target, runId));
        h.forEach((f, v) -> {
            args.add(f);
            args.add(v);
        });
        INSERT.run(access.redis, ScriptOutputType.MULTI, new String[] {RedisKeys.runIn(target, runId)}, args.toArray(String[]::new));
        step();
        String lookup = access.keys.lookup(runId);
        String rsv = h.getOrDefault("rsv", "");
        String newValue = rsv + RunLookup.suffix(agentId, k, access.buckets.count());
        String current = access.redis.get(lookup);
        if (current == null || current.equals(rsv + oldSuffix)) access.redis.set(lookup, newValue);
        step();
        DELETE.run(access.redis, ScriptOutputType.VALUE, new String[] {RedisKeys.runIn(source, runId)}, source, runId, h.get("version"));
        step();
        return true;
    }

    /** Moves the decision records of one old bucket; returns how many moved (at most {@code max}). */
    private long moveDecisions(String agentId, String source, long max) {
        long moved = 0;
        long stayed = 0;
        while (moved < max) {
            List<String> ids = access.redis.zrange(source + "dec:a", stayed, stayed + BATCH - 1);
            if (ids.isEmpty()) return moved;
            for (String id : ids) {
                if (moved >= max) return moved;
                if (moveDecision(agentId, source, id)) moved++; else stayed++;
            }
        }
        return moved;
    }

    private boolean moveDecision(String agentId, String source, String decisionId) {
        String hashKey = source + "dec:h:" + RedisKeys.hex(decisionId);
        Map<String, String> h = access.redis.hgetall(hashKey);
        if (h.isEmpty()) throw new StorageException(access.description + ": decision " + decisionId + " is in the index of "
                + source + " without its hash");
        int k = access.buckets.of(h.get("threadId"), h.get("runId"));
        String target = access.buckets.base(agentId, k);
        if (target.equals(source)) return false;
        List<String> args = new ArrayList<>(List.of(target));
        h.forEach((f, v) -> {
            args.add(f);
            args.add(v);
        });
        PUT.run(access.redis, ScriptOutputType.INTEGER, new String[] {target + "dec:h:" + RedisKeys.hex(decisionId)},
                args.toArray(String[]::new));
        step();
        String key = h.get("idempotencyKey");
        if (key != null) {
            String reservation = access.keys.idempotency(agentId, key);
            if (access.buckets.count() > 1) {
                // reserved long ago (0): the record exists, so the reservation is never taken over
                access.redis.set(reservation, "0:" + k + "/" + access.buckets.count() + ":" + decisionId);
            } else {
                access.redis.del(reservation);   // one bucket: the bucket's own key (dput.lua) holds it
            }
        }
        step();
        DROP.run(access.redis, ScriptOutputType.INTEGER, new String[] {hashKey}, source, decisionId);
        step();
        return true;
    }

    private void step() {
        if (crashAfterSteps > 0 && ++steps >= crashAfterSteps) {
            crashAfterSteps = 0;
            steps = 0;
            throw new RedisException("simulated crash of the layout migration");
        }
    }
}
