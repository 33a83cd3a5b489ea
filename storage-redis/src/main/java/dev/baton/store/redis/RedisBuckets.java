package dev.baton.store.redis;

import io.lettuce.core.cluster.SlotHash;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;
import org.jspecify.annotations.Nullable;

/**
 * The bucketed layout of one store: an agent's runs (and the decisions written with them) are spread
 * over {@link #count} buckets, each a hash tag of its own, so on a Redis Cluster one busy agent's keys
 * live on several nodes. With one bucket the layout is the original one: the bucket's base is
 * {@link RedisKeys#agentBase}, key for key.
 *
 * <p>With {@code N > 1} buckets, bucket {@code k}'s hash tag is {@code HEX(agentId) + "/" + k + "/" + salt},
 * the salt the smallest integer {@code >= 0} that puts the tag's Cluster slot (CRC16, {@link SlotHash#getSlot})
 * into the k-th of N equal slot ranges, {@code [k * 16384 / N, (k + 1) * 16384 / N)}: on a cluster whose
 * masters own equal slot ranges, N a multiple of the masters spreads an agent evenly. Deterministic, so
 * every instance computes the same tags; cached per agent.
 *
 * <p>A run's bucket is the CRC32 of the UTF-8 bytes of its threadId (of its runId when it has no thread),
 * modulo N: a thread's runs share a bucket, so a thread's listing is one script on one node.
 */
final class RedisBuckets {
    static final int SLOTS = 16384;
    /** The most buckets a store accepts: every bucket needs slots of its own. */
    static final int MAX = 1024;
    private static final int CACHE_LIMIT = 100_000;

    private final RedisKeys keys;
    private final int count;
    private final Map<String, String[]> bases = new ConcurrentHashMap<>();

    RedisBuckets(RedisKeys keys, int count) {
        this.keys = keys;
        this.count = check(count);
    }

    static int check(int count) {
        if (count < 1 || count > MAX) throw new IllegalArgumentException("buckets must be between 1 and " + MAX + ", was " + count);
        return count;
    }

    int count() {
        return count;
    }

    RedisKeys keys() {
        return keys;
    }

    /** {@return the bucket of a run with this thread (null for none) and run id} */
    int of(@Nullable String threadId, String runId) {
        return of(threadId != null ? threadId : runId, count);
    }

    static int of(String id, int count) {
        if (count == 1) return 0;
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % count);
    }

    /** {@return the key base (ending in ':') of bucket {@code k} of {@code agentId}} */
    String base(String agentId, int k) {
        return bases(agentId)[k];
    }

    /** {@return the key bases of every bucket of {@code agentId}, bucket 0 first; do not modify} */
    String[] bases(String agentId) {
        String[] b = bases.get(agentId);
        if (b != null) return b;
        b = bases(keys, agentId, count);
        if (bases.size() >= CACHE_LIMIT) bases.clear();
        bases.put(agentId, b);
        return b;
    }

    /** {@return the bases of {@code agentId} in a layout of {@code n} buckets, cached when n is this store's} */
    String[] bases(String agentId, int n) {
        return n == count ? bases(agentId) : bases(keys, agentId, n);
    }

    /** The bases of {@code agentId} in a layout of {@code n} buckets (any n, not only this store's). */
    static String[] bases(RedisKeys keys, String agentId, int n) {
        String[] b = new String[n];
        if (n == 1) {
            b[0] = keys.agentBase(agentId);
            return b;
        }
        String agentHex = RedisKeys.hex(agentId);
        for (int k = 0; k < n; k++) b[k] = keys.prefix() + ":{" + tag(agentHex, k, n) + "}:";
        return b;
    }

    /** Bucket {@code k}'s hash tag of N buckets: the agent's hex, k, and the smallest salt that lands in k's slot range. */
    static String tag(String agentHex, int k, int n) {
        int from = (int) ((long) k * SLOTS / n);
        int to = (int) ((long) (k + 1) * SLOTS / n);
        for (int salt = 0; ; salt++) {
            String t = agentHex + "/" + k + "/" + salt;
            int slot = SlotHash.getSlot(t);
            if (slot >= from && slot < to) return t;
        }
    }
}
