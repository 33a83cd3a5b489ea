package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStoreProvider;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * Opens {@link RedisSnapshotStore}s for {@code redis://} and {@code rediss://} URLs, in Lettuce's
 * URI form ({@code redis://[user:password@]host[:port][/database]}). Properties:
 * <ul>
 *   <li>{@code keyPrefix}: first part of every key, default {@code baton};</li>
 *   <li>{@code timeout}: connect and command timeout, an ISO-8601 duration ({@code PT5S}) or
 *       milliseconds ({@code 5000}); else the URL's {@code ?timeout=5s} parameter; else 10 seconds;</li>
 *   <li>{@code cluster}: {@code true} when the URL names a seed node of a Redis Cluster, default {@code false};</li>
 *   <li>{@code buckets}: how many hash tags an agent's runs are spread over, 1 to 1024, default 1 (the original
 *       layout); see {@link RedisSnapshotStore.Builder#buckets}.</li>
 * </ul>
 *
 * <p>Stateless and thread-safe; found by {@code SnapshotStores.open} through the service loader.
 * Each store it opens owns its client, which {@link SnapshotStore#close()} shuts down; the caller
 * closes each store it opens.
 */
public final class RedisSnapshotStoreProvider implements SnapshotStoreProvider {

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public List<String> schemes() {
        return List.of("redis://", "rediss://");
    }

    @Override
    public boolean accepts(String url) {
        return url.startsWith("redis://") || url.startsWith("rediss://");
    }

    @Override
    public SnapshotStore open(String url, Map<String, String> properties) {
        SnapshotStoreProvider.requireKnownProperties("Redis", properties, java.util.Set.of("keyPrefix", "timeout", "cluster", "buckets"));
        String prefix = properties.getOrDefault("keyPrefix", RedisSnapshotStore.DEFAULT_KEY_PREFIX);
        String timeout = properties.get("timeout");
        String cluster = properties.getOrDefault("cluster", "false");
        if (!cluster.equals("true") && !cluster.equals("false")) {
            throw new IllegalArgumentException("cluster: expected true or false, was '" + cluster + "'");
        }
        return RedisSnapshotStore.open(url, prefix, timeout == null ? null : duration(timeout), cluster.equals("true"),
                buckets(properties.getOrDefault("buckets", "1")));
    }

    static int buckets(String text) {
        try {
            return RedisBuckets.check(Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("buckets: expected a whole number from 1 to " + RedisBuckets.MAX + ", was '" + text + "'", e);
        }
    }

    static Duration duration(String text) {
        String t = text.trim();
        try {
            return t.chars().allMatch(Character::isDigit) && !t.isEmpty() ? Duration.ofMillis(Long.parseLong(t)) : Duration.parse(t);
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException("timeout: expected milliseconds or an ISO-8601 duration such as PT5S, was '" + text + "'", e);
        }
    }
}
