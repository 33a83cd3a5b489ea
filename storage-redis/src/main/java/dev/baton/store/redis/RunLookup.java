package dev.baton.store.redis;

import io.lettuce.core.ScriptOutputType;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/**
 * The run-id lookup key of one {@link RedisSnapshotStore} ({@link RedisKeys#lookup}): find and delete
 * know only the run id, so a key in the run id's own slot holds {@code nonce + agentId}, naming the
 * agent whose key space has the run; in a bucketed layout ({@link RedisBuckets}, N > 1) it holds
 * {@code nonce + U+0001 + k + "/" + N + ":" + agentId}, naming the bucket too (core refuses ids with control
 * characters, and a bucketed store refuses an agent id starting with U+0001, so the two forms cannot be
 * confused; a value without the mark names the one-bucket layout's key space). An insert reserves it first
 * ({@code reserve.lua}, with a fresh nonce), and points it back at the run it finds there if the run already
 * existed; a delete frees it afterwards, with the nonce its script returned ({@code swap.lua}: only if no
 * insert re-pointed it since). The callers run these steps inside their {@link RedisAccess#call}.
 *
 * <p>On a standalone server with one bucket ({@link RedisAccess#oneScript}) the same steps run inside the run's own
 * script instead (sinsert.lua, sfind.lua, sdelete.lua, sddelete.lua, srenew.lua, snotify.lua, through the same Lua
 * functions as reserve.lua and swap.lua: lookup.lua's reserveLookup and swapLookup, common.lua's locateRun). One
 * script is atomic, so that is at least as strong as the steps: the same nonces and checks, and none of the
 * interleavings the steps guard against (a delete between an insert and its restore, an insert re-pointing the key
 * between a delete and its release) can happen. A Cluster forbids a script keys of two slots, and a bucketed layout
 * names buckets Lua cannot compute: both keep the steps.
 */
final class RunLookup {
    private static final LuaScript RESERVE = LuaScript.compose("reserve", "lookup");
    private static final LuaScript SWAP = LuaScript.compose("swap", "lookup");
    private static final SecureRandom RANDOM = new SecureRandom();
    static final int NONCE_LENGTH = 16;
    static final char BUCKET_MARK = '\u0001';

    /** Where a run is: its agent and the base of the key space (bucket) that holds its hash. */
    record Located(String agentId, String base, String suffix) {
        String runKey(String runId) {
            return RedisKeys.runIn(base, runId);
        }
    }

    private final RedisAccess access;

    RunLookup(RedisAccess access) {
        this.access = access;
    }

    /** The part of a lookup value after the nonce, for a run of {@code agentId} in bucket {@code k} of {@code n}. */
    static String suffix(String agentId, int k, int n) {
        return n == 1 ? agentId : BUCKET_MARK + Integer.toString(k) + "/" + n + ":" + agentId;
    }

    /** {@return where {@code runId} is, or null if the lookup key names nothing} */
    @Nullable Located find(String runId) {
        return parse(access.buckets, access.redis.get(access.keys.lookup(runId)));
    }

    /** Reads a lookup value (null or too short: nothing). */
    static @Nullable Located parse(RedisBuckets buckets, @Nullable String v) {
        if (v == null || v.length() <= NONCE_LENGTH) return null;
        String s = v.substring(NONCE_LENGTH);
        if (s.charAt(0) == BUCKET_MARK) {
            int slash = s.indexOf('/');
            int colon = s.indexOf(':', slash);
            if (slash > 1 && colon > slash + 1) {
                try {
                    int k = Integer.parseInt(s.substring(1, slash));
                    int n = Integer.parseInt(s.substring(slash + 1, colon));
                    if (n >= 1 && n <= RedisBuckets.MAX && k >= 0 && k < n) {
                        String agentId = s.substring(colon + 1);
                        return new Located(agentId, buckets.bases(agentId, n)[k], s);
                    }
                } catch (NumberFormatException e) {
                    // not the bucketed form: read it as an agent id
                }
            }
        }
        return new Located(s, buckets.keys().agentBase(s), s);
    }

    /**
     * Points the lookup key of {@code runId} at {@code suffix} ({@link #suffix}) under a fresh nonce, before the
     * insert script.
     *
     * @return the nonce, or null if the run id belongs to another run (another agent's, or another bucket's):
     *         nothing changed
     */
    @Nullable String reserve(String suffix, String runId) {
        String nonce = nonce();
        Long reserved = RESERVE.run(access.redis, ScriptOutputType.INTEGER, new String[] {access.keys.lookup(runId)},
                suffix, nonce);
        return reserved == null || reserved == 0 ? null : nonce;
    }

    /**
     * After an insert that found the run already there: points the lookup key back at it, from our
     * reservation {@code nonce} to the run's own {@code existing} one (unless someone changed it meanwhile).
     */
    void restore(String suffix, String base, String runId, String nonce, String existing) {
        String lookup = access.keys.lookup(runId);
        Long restored = SWAP.run(access.redis, ScriptOutputType.INTEGER, new String[] {lookup}, nonce + suffix, existing + suffix);
        // a delete between the script and the swap found our reservation in the lookup key and left it;
        // the key now names a run that is gone: clear it (unless an insert re-pointed it since)
        if (restored != null && restored == 1L && !existing.equals(access.redis.hget(RedisKeys.runIn(base, runId), "rsv"))) {
            SWAP.run(access.redis, ScriptOutputType.INTEGER, new String[] {lookup}, existing + suffix, "");
        }
    }

    /** After a delete that took the run reserved under {@code nonce}: frees the lookup key, only if no insert re-pointed it since. */
    void release(Located at, String runId, String nonce) {
        SWAP.run(access.redis, ScriptOutputType.INTEGER, new String[] {access.keys.lookup(runId)}, nonce + at.suffix(), "");
    }

    /** A fresh reservation nonce, {@link #NONCE_LENGTH} hex characters. */
    static String nonce() {
        byte[] b = new byte[NONCE_LENGTH / 2];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
