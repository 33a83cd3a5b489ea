package dev.baton.examples.stores;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.redis.RedisSnapshotStore;
import io.lettuce.core.RedisClient;
import java.time.Duration;
import java.util.Map;

/**
 * Redis (module {@code baton-storage-redis}, Lettuce). Needs a running server; suspended runs last as
 * long as Redis keeps its data (turn on AOF or RDB):
 * {@code java -cp baton-examples.jar dev.baton.examples.stores.RedisExample redis://127.0.0.1:6379}.
 */
public final class RedisExample {
    private RedisExample() {
    }

    public static void main(String[] args) {
        String url = ApprovalRoundTrip.url(args, "BATON_TEST_REDIS_URL", "redis://127.0.0.1:6379");

        // 1. By URL: the store creates its own client and shuts it down on close().
        try (SnapshotStore store = SnapshotStores.open(url, Map.of("keyPrefix", "myapp"))) {
            ApprovalRoundTrip.run(store);
        }

        // 2. On the application's RedisClient: closing the store closes only its own connection.
        RedisClient client = RedisClient.create(url);
        try (SnapshotStore store = RedisSnapshotStore.builder(client).keyPrefix("myapp").timeout(Duration.ofSeconds(5)).build()) {
            ApprovalRoundTrip.run(store);
        } finally {
            client.shutdown();
        }
    }
}
