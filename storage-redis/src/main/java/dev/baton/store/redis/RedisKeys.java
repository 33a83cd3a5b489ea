package dev.baton.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/**
 * Key names. Ids inside key names are the lowercase hex of their UTF-8 bytes, so no character of an
 * id ({@code * ? [ : { }}, spaces, unicode) can act as a separator, break a hash tag or make two
 * keys collide. The Lua scripts build index keys the same way (common.lua).
 *
 * <pre>
 * PREFIX:id:{HEX(runId)}                 string: nonce + agentId, which agent's slot holds the run
 * PREFIX:{HEX(agentId)}:run:HEX(runId)   hash: every RunSnapshot field
 * PREFIX:{HEX(agentId)}:FAMILY:a         zset of runIds, score createdAt millis
 * PREFIX:{HEX(agentId)}:FAMILY:t:HEX(threadId)
 * PREFIX:{HEX(agentId)}:FAMILY:r:HEX(resourceId)
 * PREFIX:{HEX(agentId)}:FAMILY:tr:HEX(threadId):HEX(resourceId)
 * PREFIX:{HEX(agentId)}:lease:held       zset of RESUMING runIds filed as live, score leaseExpiresAt
 * PREFIX:{HEX(agentId)}:lease:lapsed     zset of RESUMING runIds filed as expired, score leaseExpiresAt
 * PREFIX:{HEX(agentId)}:due              zset of runIds with a deadline, score expiresAt
 * PREFIX:{HEX(agentId)}:notify           zset of runIds with a notification due, score notifyAt
 * PREFIX:{HEX(agentId)}:dec:h:HEX(decisionId)   hash: every DecisionRecord field (decisions.lua)
 * PREFIX:{HEX(agentId)}:dec:a             zset of decisionIds, score decidedAt; also per
 *   dec:run:HEX(runId), dec:t:HEX(threadId), dec:r:HEX(resourceId), dec:u:HEX(actor)
 * PREFIX:{HEX(agentId)}:dec:k:HEX(key)    string: the decisionId that carries an idempotency key
 *
 * With N > 1 buckets ({@link RedisBuckets}) every {HEX(agentId)} above is one bucket's tag
 * {HEX(agentId)/k/salt}, and the lookup value is nonce + U+0001 + k + "/" + N + ":" + agentId; an idempotency key
 * is reserved in PREFIX:dk:{HEX(agentId):HEX(key)} (see {@link IdempotencyReservations}), unique per agent.
 *
 * PREFIX:m:id:{HEX(threadId)}            string: nonce + OWNER, which slot holds the thread
 * PREFIX:m:{OWNER}:th:HEX(threadId)      hash: the thread's fields, its message counter (seq) and nonce (rsv)
 * PREFIX:m:{OWNER}:msg:HEX(threadId)     hash: seq to message
 * PREFIX:m:{OWNER}:ids:HEX(threadId)     hash: runIndex:runId to seq, which run messages the thread has
 * PREFIX:m:{OWNER}:threads               zset of the resource's threadIds, score updatedAt
 * </pre>
 * FAMILY is {@code sus} (effectively suspended), {@code res} (resuming, live lease) or {@code all}.
 * OWNER is {@code r} + HEX(resourceId) for a thread with a resource (all threads of one resource share a
 * slot, so its listing is one sorted set), {@code t} + HEX(threadId) for a thread without one.
 */
final class RedisKeys {
    private static final HexFormat HEX = HexFormat.of();

    private final String prefix;

    RedisKeys(String prefix) {
        if (prefix.isEmpty()) throw new IllegalArgumentException("keyPrefix must not be empty");
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException("keyPrefix must not contain '{' or '}' (they delimit Redis Cluster hash tags): " + prefix);
        }
        this.prefix = prefix;
    }

    String prefix() {
        return prefix;
    }

    static String hex(String s) {
        return HEX.formatHex(s.getBytes(StandardCharsets.UTF_8));
    }

    /** The base of every key of one agent, ending in ':'; its hash tag is the agent's. */
    String agentBase(String agentId) {
        return prefix + ":{" + hex(agentId) + "}:";
    }

    String run(String agentId, String runId) {
        return runIn(agentBase(agentId), runId);
    }

    /** The hash of run {@code runId} in the key space (a bucket, see {@link RedisBuckets}) whose base is {@code base}. */
    static String runIn(String base, String runId) {
        return base + "run:" + hex(runId);
    }

    /**
     * The idempotency-key reservation of a bucketed layout ({@link RedisBuckets}, N > 1): in a slot of its own,
     * since the key is unique per agent and the agent's decisions are spread over buckets. Holds
     * {@code reservedAtMillis:bucket/N:decisionId} (see {@link IdempotencyReservations}).
     */
    String idempotency(String agentId, String key) {
        return prefix + ":dk:{" + hex(agentId) + ":" + hex(key) + "}";
    }

    String allIndex(String agentId) {
        return agentBase(agentId) + "all:a";
    }

    String dueIndex(String agentId) {
        return agentBase(agentId) + "due";
    }

    String notifyIndex(String agentId) {
        return agentBase(agentId) + "notify";
    }

    /** The base of the keys of one memory owner (a resource, or an ownerless thread), ending in ':'. */
    String memoryBase(String owner) {
        return prefix + ":m:{" + owner + "}:";
    }

    /** The owner tag of a thread: its resource's, or its own when it has no resource. */
    static String owner(@Nullable String resourceId, String threadId) {
        return resourceId == null ? "t" + hex(threadId) : "r" + hex(resourceId);
    }

    /** The thread-id lookup key; in the thread id's own slot, since most calls know only the thread id. */
    String threadLookup(String threadId) {
        return prefix + ":m:id:{" + hex(threadId) + "}";
    }

    /** The run-id lookup key; in the run id's own slot, since find and delete know only the run id. */
    String lookup(String runId) {
        return prefix + ":id:{" + hex(runId) + "}";
    }
}
