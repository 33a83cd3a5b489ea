package dev.baton.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

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
 * </pre>
 * FAMILY is {@code sus} (effectively suspended), {@code res} (resuming, live lease) or {@code all}.
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
        return agentBase(agentId) + "run:" + hex(runId);
    }

    String allIndex(String agentId) {
        return agentBase(agentId) + "all:a";
    }

    /** The run-id lookup key; in the run id's own slot, since find and delete know only the run id. */
    String lookup(String runId) {
        return prefix + ":id:{" + hex(runId) + "}";
    }
}
