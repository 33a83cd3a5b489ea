package dev.baton.store.redis;

import dev.baton.StorageException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What the parts of one {@link RedisSnapshotStore} share: the connection's commands, the key layout,
 * the name the store gives itself in messages, and whether it is closed. Every call of the store,
 * its {@link RedisRunListing} and its {@link RedisMemoryStore} goes through {@link #call}: a closed
 * store refuses it, and a Redis failure becomes a {@link StorageException} naming the store, the
 * operation and the run.
 */
final class RedisAccess {
    final RedisClusterCommands<String, String> redis;
    final RedisKeys keys;
    final RedisBuckets buckets;
    final String description;
    /**
     * True on a standalone server with one bucket: a call on one run by id (find, delete, lease renewal, notification
     * update) reads the run-id lookup key in the same script as the run's hash, and an insert reserves it in the
     * insert's script, one round trip each (the s*.lua scripts). A standalone server lets one script touch keys of
     * several slots; a Cluster does not, so there (and in a bucketed layout) the lookup key takes a round trip of its
     * own ({@link RunLookup}).
     */
    final boolean oneScript;
    private final @Nullable RedisClusterAsyncCommands<String, String> async;
    private final Duration timeout;
    private volatile boolean closed;
    /**
     * Why this store refuses to work: its data was written with another bucket count (see
     * {@link #checkLayout}); null when the layout is this store's. A {@link RedisLayoutMigration} works anyway.
     */
    private volatile @Nullable String layoutRefusal;
    /** True while a {@link RedisLayoutMigration} moves data into this store's layout. */
    volatile boolean migrating;

    RedisAccess(RedisClusterCommands<String, String> redis, @Nullable RedisClusterAsyncCommands<String, String> async,
            Duration timeout, RedisBuckets buckets, String description, boolean cluster) {
        this.redis = redis;
        this.oneScript = !cluster && buckets.count() == 1;
        this.async = async;
        this.timeout = timeout;
        this.keys = buckets.keys();
        this.buckets = buckets;
        this.description = description;
    }

    /** {@return the command timeout} */
    Duration timeout() {
        return timeout;
    }

    /** The key that records the bucket count the data under the key prefix was written with. */
    String layoutKey() {
        return keys.prefix() + ":buckets";
    }

    /**
     * Compares this store's bucket count with the one its data was written with, recorded under
     * {@link #layoutKey()} by the first store that opened the key prefix (data written before the record
     * existed has none: the first store to open records its own count). Another count would list only the
     * runs of its own buckets and miss the others, so this store then refuses every call (an
     * {@link IllegalStateException} naming both counts), except a {@link RedisLayoutMigration}'s.
     *
     * @return null, or the refusal
     */
    @Nullable String checkLayout() {
        String key = layoutKey();
        String mine = Integer.toString(buckets.count());
        String recorded;
        try {
            recorded = Boolean.TRUE.equals(redis.setnx(key, mine)) ? mine : redis.get(key);
        } catch (RedisException e) {
            throw failure("reading the recorded bucket count", null, e);
        }
        if (recorded == null || recorded.equals(mine)) {
            layoutRefusal = null;
        } else {
            layoutRefusal = description + ": its data was written with " + recorded + " bucket(s) (recorded in '" + key
                    + "'), but this store was opened with " + mine + ": it would list only the runs of its own buckets and"
                    + " miss the others. Open it with buckets=" + recorded + ", or, with every instance stopped, move each"
                    + " agent with RedisLayoutMigration (docs/stores/redis-buckets.md), which records " + mine + " when done.";
        }
        return layoutRefusal;
    }

    /** After a layout migration of every agent: the data is in this store's layout now. */
    void recordLayout() {
        redis.set(layoutKey(), Integer.toString(buckets.count()));
        layoutRefusal = null;
    }

    /** Marks the store closed; every later call fails. Returns false if it already was. */
    boolean close() {
        if (closed) return false;
        closed = true;
        return true;
    }

    /** Fails with a {@link StorageException} if the store is closed. */
    void checkOpen(String operation) {
        if (closed) throw closed(operation);
    }

    /**
     * Runs {@code body} if the store is open, Redis failures wrapped.
     *
     * @param operation what is being done, for the message of a failure ("insert", "list", ...)
     * @param runId     the run the call is about, or null
     */
    <T> T call(String operation, @Nullable String runId, Supplier<T> body) {
        if (closed) throw closed(operation);
        String refusal = layoutRefusal;
        if (refusal != null && !migrating) throw new IllegalStateException(refusal);
        try {
            return body.get();
        } catch (RedisException e) {
            throw failure(operation, runId, e);
        }
    }

    /** A Redis failure as the {@link StorageException} the store throws. */
    StorageException failure(String operation, @Nullable String runId, RedisException e) {
        return StorageException.failed(description, operation, runId, e.getMessage(), e);
    }

    /**
     * Runs {@code script} on every bucket base at once (sent together, each to its node; one after the other without
     * an asynchronous connection), and returns the replies in the order of {@code bases}.
     *
     * @param keys the script's keys for a base
     * @param args the script's arguments for a base
     */
    <T> List<T> eachBucket(LuaScript script, ScriptOutputType type, String[] bases, Function<String, String[]> keys,
            Function<String, String[]> args) {
        List<T> out = new ArrayList<>(bases.length);
        if (async == null || bases.length == 1) {
            for (String base : bases) out.add(script.<T>run(redis, type, keys.apply(base), args.apply(base)));
            return out;
        }
        List<CompletableFuture<T>> sent = new ArrayList<>(bases.length);
        for (String base : bases) sent.add(script.runAsync(async, type, keys.apply(base), args.apply(base)));
        long deadline = System.nanoTime() + timeout.toNanos();
        for (CompletableFuture<T> f : sent) {
            try {
                out.add(f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RedisException r) throw r;
                throw new RedisException(e.getCause());
            } catch (TimeoutException e) {
                throw new RedisCommandTimeoutException("the scripts of " + bases.length + " buckets did not answer within " + timeout);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RedisCommandInterruptedException(e);
            }
        }
        return out;
    }

    /** The server's {@code TIME}, in milliseconds. */
    Instant now() {
        return call("reading the clock", null, () -> {
            List<String> time = redis.time();
            if (time == null || time.size() != 2) {
                throw new StorageException(description + ": TIME answered " + time + " instead of seconds and microseconds");
            }
            return Instant.ofEpochMilli(Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000);
        });
    }

    private StorageException closed(String operation) {
        return new StorageException(description + " is closed; " + operation + " was not done");
    }
}
