package dev.baton.store.redis;

import dev.baton.store.DecisionRecord;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.ScriptOutputType;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Idempotency keys in a bucketed layout ({@link RedisBuckets}, N &gt; 1). A key is unique per agent, but the agent's
 * decisions are spread over buckets, so the script that writes a decision cannot see the other buckets' keys. Each
 * key is reserved first in a key of its own ({@link RedisKeys#idempotency}), holding
 * {@code reservedAtMillis:k/N:decisionId} ({@code dreserve.lua}, the server's clock): then the script
 * ({@code dcas.lua}, {@code ddelete.lua}) writes the decision in bucket k. When the script changes nothing the
 * reservations made for it are released (only if they still hold our value).
 *
 * <p>A reservation naming another decision: if that decision exists, the key is taken (the write changes nothing,
 * as with one bucket). If it does not exist, the reservation is in flight (its writer is between the reservation and
 * its script) or dangling (the writer died, or lost the connection, in between): younger than
 * {@link #DANGLING_AFTER_MILLIS}, the write waits (up to the command timeout) until that decision's record is written
 * (the key is taken) or the reservation is released (the key is free), and counts it as taken if neither happens
 * in time; older, it is taken over, with a compare-and-set on its value. So a write refused for its key can find
 * the decision holding it at once ({@code findDecision}, the listing), as on one bucket; a crashed writer blocks
 * its key for at most {@link #DANGLING_AFTER_MILLIS}, and a writer that stalls for longer between its
 * reservation and its script (beyond the command timeout) could see its key written twice, in two buckets.
 * A reservation is never removed while its decision exists, except by the purge of that decision.
 */
final class IdempotencyReservations {
    /** How old a reservation whose decision does not exist must be before another decision may take it over. */
    static final long DANGLING_AFTER_MILLIS = 60_000;

    private static final LuaScript RESERVE = LuaScript.load("dreserve", false);
    private static final LuaScript SWAP = LuaScript.compose("swap", "lookup");

    private final RedisAccess access;

    IdempotencyReservations(RedisAccess access) {
        this.access = access;
    }

    /** A reservation this writer made: the key and its value, released if the write fails. */
    record Held(String key, String value) {
    }

    /**
     * Reserves the idempotency keys of {@code decisions} for bucket {@code k}.
     *
     * @return the reservations made (release them if the write changes nothing), or null when a key is taken
     *         (nothing is left reserved)
     */
    @Nullable List<Held> reserve(String agentId, int k, List<DecisionRecord> decisions) {
        List<Held> mine = new ArrayList<>();
        int n = access.buckets.count();
        // in the order of their keys: two writes waiting on each other's reservations (reserveOne) would wait in a circle
        List<DecisionRecord> keyed = new ArrayList<>(decisions.size());
        for (DecisionRecord d : decisions) if (d.idempotencyKey() != null) keyed.add(d);
        keyed.sort(java.util.Comparator.comparing(DecisionRecord::idempotencyKey));
        for (DecisionRecord d : keyed) {
            String key = access.keys.idempotency(agentId, d.idempotencyKey());
            Held h = reserveOne(agentId, key, k + "/" + n + ":" + d.decisionId());
            if (h == TAKEN) {
                release(mine);
                return null;
            }
            if (h != null) mine.add(h);
        }
        return mine;
    }

    /** What {@link #reserveOne} answers when the key is another decision's. */
    private static final Held TAKEN = new Held("", "");

    /**
     * Reserves {@code key} for {@code want} ({@code k/N:decisionId}).
     *
     * <p>A reservation of another decision whose record does not exist yet is in flight (its writer is between the
     * reservation and its script, one round trip) or dangling: this waits, up to the command timeout, until its record
     * is written (the key is taken: refused), it is released (its write changed nothing: ours to take), or it is old
     * enough to take over ({@link #DANGLING_AFTER_MILLIS}). So a write is refused for its key only once the decision
     * holding the key can be found ({@code findDecision}, the listing), as on one bucket, where the check and the record
     * are one script; a writer in flight for longer than the timeout still gets a refusal, as before.
     *
     * @return our reservation; null when the key already names this decision (a retry of the same write);
     *         {@link #TAKEN} when another decision holds it
     */
    private @Nullable Held reserveOne(String agentId, String key, String want) {
        long deadline = System.nanoTime() + access.timeout().toNanos();
        long pauseMillis = 1;
        String expect = "";
        while (true) {
            List<Object> r = RESERVE.run(access.redis, ScriptOutputType.MULTI, new String[] {key}, want, expect);
            long state = (Long) r.get(0);
            if (state == 1L) return new Held(key, (String) r.get(1));
            if (state == 2L) return null;
            String held = (String) r.get(1);
            long age = (Long) r.get(2);
            if (exists(agentId, held)) return TAKEN;
            if (System.nanoTime() >= deadline) return TAKEN;
            if (age >= DANGLING_AFTER_MILLIS) {
                expect = held;   // take it over: only if it still holds that value
                continue;
            }
            expect = "";
            try {
                Thread.sleep(pauseMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RedisCommandInterruptedException(e);
            }
            pauseMillis = Math.min(pauseMillis * 2, 16);
        }
    }

    /** Frees reservations made for a write that changed nothing, each only if it still holds our value. */
    void release(List<Held> mine) {
        for (Held h : mine) SWAP.run(access.redis, ScriptOutputType.INTEGER, new String[] {h.key()}, h.value(), "");
    }

    /** After a purge: frees the key's reservation if it names {@code decisionId}. */
    void drop(String agentId, String idempotencyKey, String decisionId) {
        String key = access.keys.idempotency(agentId, idempotencyKey);
        String v = access.redis.get(key);
        Located at = parse(agentId, v);
        if (at != null && at.decisionId().equals(decisionId)) {
            SWAP.run(access.redis, ScriptOutputType.INTEGER, new String[] {key}, v, "");
        }
    }

    /** Where the reservation of {@code idempotencyKey} says its decision is, or null if it is not reserved. */
    @Nullable Located find(String agentId, String idempotencyKey) {
        return parse(agentId, access.redis.get(access.keys.idempotency(agentId, idempotencyKey)));
    }

    /** A decision's place: the base of its bucket and its id. */
    record Located(String base, String decisionId) {
        String hashKey() {
            return base + "dec:h:" + RedisKeys.hex(decisionId);
        }
    }

    private boolean exists(String agentId, String value) {
        Located at = parse(agentId, value);
        return at != null && access.redis.exists(at.hashKey()) == 1L;
    }

    /** Reads {@code reservedAtMillis:k/N:decisionId}; null for a missing or unreadable value. */
    @Nullable Located parse(String agentId, @Nullable String v) {
        if (v == null) return null;
        int c1 = v.indexOf(':');
        int slash = v.indexOf('/', c1 + 1);
        int c2 = slash < 0 ? -1 : v.indexOf(':', slash + 1);
        if (c1 < 0 || slash < 0 || c2 < 0) return null;
        try {
            int k = Integer.parseInt(v.substring(c1 + 1, slash));
            int n = Integer.parseInt(v.substring(slash + 1, c2));
            if (n < 1 || n > RedisBuckets.MAX || k < 0 || k >= n) return null;
            return new Located(access.buckets.bases(agentId, n)[k], v.substring(c2 + 1));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
