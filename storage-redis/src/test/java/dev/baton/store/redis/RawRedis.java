package dev.baton.store.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * A Lettuce client on the test server and one raw connection, for the tests that build stores on a
 * client of their own and look under them. Both open on first use (so a test class can hold one in a
 * static final field); closing it also deletes the keys under the test's prefix.
 */
final class RawRedis implements AutoCloseable {
    private final String prefix;
    private RedisClient client;
    private StatefulRedisConnection<String, String> raw;

    RawRedis(String prefix) {
        this.prefix = prefix;
    }

    /** The client stores are built on. */
    synchronized RedisClient client() {
        if (client == null) client = RedisClient.create(RedisTestServer.url());
        return client;
    }

    /** Commands on a connection of its own, for reading and breaking keys directly. */
    synchronized RedisCommands<String, String> sync() {
        if (raw == null) raw = client().connect();
        return raw.sync();
    }

    @Override
    public synchronized void close() {
        if (raw != null) raw.close();
        if (client != null) client.shutdown();
        RedisTestServer.deleteKeys(prefix);
    }
}
