package dev.baton.bench;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.util.ArrayList;
import java.util.List;

/**
 * Thread memory by hand on the store's own keys (see {@code RedisKeys} in baton-storage-redis):
 * all keys of a resource's threads share the hash tag {@code r<hex resourceId>}. Last messages:
 * {@code HGET} of the thread's message counter, then one {@code HMGET} of the last 20 seqs from its
 * message hash (two round trips; the values are the store's packed messages, whose JSON content
 * ends each one). A resource's threads: {@code ZCARD} and {@code ZREVRANGE 0 19} of its thread
 * sorted set sent together, then one pipelined {@code HMGET} per thread (two round trips).
 */
final class RedisRawMemory implements RawMemory {
    private final StatefulRedisConnection<String, String> c;
    private final RedisAsyncCommands<String, String> async;
    private final String prefix;

    RedisRawMemory(StatefulRedisConnection<String, String> c, String prefix) {
        this.c = c;
        this.async = c.async();
        this.prefix = prefix;
    }

    private String base(String resourceId) {
        return prefix + ":m:{r" + RedisBackend.hex(resourceId) + "}:";
    }

    @Override
    public List<String> lastMessages(String threadId, String resourceId, int n) {
        String base = base(resourceId);
        String hex = RedisBackend.hex(threadId);
        long total = Long.parseLong(RedisBackend.await(async.hget(base + "th:" + hex, "seq")));
        long from = Math.max(1, total - n + 1);
        String[] seqs = new String[(int) (total - from + 1)];
        for (int k = 0; k < seqs.length; k++) seqs[k] = Long.toString(from + k);
        List<String> out = new ArrayList<>(seqs.length);
        for (var v : RedisBackend.await(async.hmget(base + "msg:" + hex, seqs))) out.add(content(v.getValue()));
        return out;
    }

    /** The JSON content of a packed message: {@code createdAt:runIndex:roleLength:role runIdLength:runId content}. */
    private static String content(String packed) {
        int a = packed.indexOf(':');
        int b = packed.indexOf(':', a + 1);
        int c = packed.indexOf(':', b + 1);
        int roleEnd = c + 1 + Integer.parseInt(packed.substring(b + 1, c));
        int d = packed.indexOf(':', roleEnd);
        return packed.substring(d + 1 + Integer.parseInt(packed.substring(roleEnd, d)));
    }

    @Override
    public Threads threads(String resourceId, int limit) {
        String base = base(resourceId);
        RedisFuture<Long> count = async.zcard(base + "threads");
        RedisFuture<List<String>> page = async.zrevrange(base + "threads", 0, limit - 1);
        List<String> ids = RedisBackend.await(page);
        long total = RedisBackend.await(count);
        List<RedisFuture<List<io.lettuce.core.KeyValue<String, String>>>> hashes = new ArrayList<>(ids.size());
        for (String id : ids) {
            hashes.add(async.hmget(base + "th:" + RedisBackend.hex(id), "id", "resourceId", "title", "metadata", "createdAt", "updatedAt"));
        }
        List<String> out = new ArrayList<>(ids.size());
        for (var f : hashes) out.add(RedisBackend.await(f).get(0).getValue());
        return new Threads(total, out);
    }

    @Override
    public void close() {
        c.close();
    }
}
