package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.StoreFaults;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import java.time.Duration;

/**
 * One application-owned {@link RedisClient} for a test class, shared by every store the class
 * opens (as an application shares its client), in a key prefix of its own; {@link #close()}
 * shuts the client down and removes the keys.
 */
final class ApplicationClient {
    private final String prefix;
    private RedisClient client;

    ApplicationClient(Class<?> test) {
        this.prefix = RedisTestServer.uniquePrefix(test);
    }

    /** A store on the shared client; Baton never closes the client. */
    synchronized RedisSnapshotStore open() {
        if (client == null) client = RedisClient.create(RedisTestServer.url());
        return RedisSnapshotStore.builder(client).keyPrefix(prefix).build();
    }

    /**
     * Faults for the storage TCK: a second application-owned client, reaching the server through a
     * TCP proxy the TCK cuts or freezes, and a store on it with a 2 s call timeout; closing the
     * faults closes the store, the proxy and that client.
     */
    StoreFaults faults() throws Exception {
        RedisURI target = RedisURI.create(RedisTestServer.url());
        RedisClient[] proxied = new RedisClient[1];
        StoreFaults through = StoreFaults.throughProxy(target.getHost(), target.getPort(), Duration.ofSeconds(2), (host, port) -> {
            proxied[0] = RedisClient.create(RedisURI.builder(target).withHost(host).withPort(port).build());
            return RedisSnapshotStore.builder(proxied[0]).keyPrefix(prefix).timeout(Duration.ofSeconds(2)).build();
        });
        return new StoreFaults() {
            @Override
            public SnapshotStore store() {
                return through.store();
            }

            @Override
            public void cut() throws Exception {
                through.cut();
            }

            @Override
            public void silence() throws Exception {
                through.silence();
            }

            @Override
            public Duration callTimeout() {
                return through.callTimeout();
            }

            @Override
            public void close() throws Exception {
                try {
                    through.close();
                } finally {
                    proxied[0].shutdown(Duration.ZERO, Duration.ofSeconds(2));
                }
            }
        };
    }

    synchronized void close() {
        if (client != null) client.shutdown();
        client = null;
        RedisTestServer.deleteKeys(prefix);
    }
}
