package dev.baton.store.redis;

import io.lettuce.core.ScriptOutputType;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/**
 * The run-id lookup key of one {@link RedisSnapshotStore} ({@link RedisKeys#lookup}): find and delete
 * know only the run id, so a key in the run id's own slot holds {@code nonce + agentId}, naming the
 * agent whose key space has the run. An insert reserves it first ({@code reserve.lua}, with a fresh
 * nonce), and points it back at the run it finds there if the run already existed; a delete frees it
 * afterwards, with the nonce its script returned ({@code swap.lua}: only if no insert re-pointed it
 * since). The callers run these steps inside their {@link RedisAccess#call}.
 */
final class RunLookup {
    private static final LuaScript RESERVE = LuaScript.load("reserve", false);
    private static final LuaScript SWAP = LuaScript.load("swap", false);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int NONCE_LENGTH = 16;

    private final RedisAccess access;

    RunLookup(RedisAccess access) {
        this.access = access;
    }

    /** {@return the agent whose key space has {@code runId}, or null if the lookup key names none} */
    @Nullable String agentOf(String runId) {
        String v = access.redis.get(access.keys.lookup(runId));
        return v == null || v.length() <= NONCE_LENGTH ? null : v.substring(NONCE_LENGTH);
    }

    /**
     * Points the lookup key of {@code runId} at {@code agentId} under a fresh nonce, before the insert script.
     *
     * @return the nonce, or null if the run id belongs to another agent's run (nothing changed)
     */
    @Nullable String reserve(String agentId, String runId) {
        String nonce = nonce();
        Long reserved = RESERVE.run(access.redis, ScriptOutputType.INTEGER, new String[] {access.keys.lookup(runId)},
                agentId, nonce);
        return reserved == null || reserved == 0 ? null : nonce;
    }

    /**
     * After an insert that found the run already there: points the lookup key back at it, from our
     * reservation {@code nonce} to the run's own {@code existing} one (unless someone changed it meanwhile).
     */
    void restore(String agentId, String runId, String nonce, String existing) {
        String lookup = access.keys.lookup(runId);
        Long restored = SWAP.run(access.redis, ScriptOutputType.INTEGER, new String[] {lookup}, nonce + agentId, existing + agentId);
        // a delete between the script and the swap found our reservation in the lookup key and left it;
        // the key now names a run that is gone: clear it (unless an insert re-pointed it since)
        if (restored != null && restored == 1L && !existing.equals(access.redis.hget(access.keys.run(agentId, runId), "rsv"))) {
            SWAP.run(access.redis, ScriptOutputType.INTEGER, new String[] {lookup}, existing + agentId, "");
        }
    }

    /** After a delete that took the run reserved under {@code nonce}: frees the lookup key, only if no insert re-pointed it since. */
    void release(String agentId, String runId, String nonce) {
        SWAP.run(access.redis, ScriptOutputType.INTEGER, new String[] {access.keys.lookup(runId)}, nonce + agentId, "");
    }

    private static String nonce() {
        byte[] b = new byte[NONCE_LENGTH / 2];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
