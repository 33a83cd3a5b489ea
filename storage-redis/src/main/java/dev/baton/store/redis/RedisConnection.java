package dev.baton.store.redis;

import dev.baton.StorageException;
import dev.baton.store.SnapshotStores;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection of one {@link RedisSnapshotStore}: a client made from a URL (standalone or Cluster,
 * with the timeout on connect and on every command), or an application's client, which the store
 * never shuts down; the store's own connection on it, with its synchronous commands; and the check,
 * at open, that the server keeps its data on disk.
 */
final class RedisConnection {
    /** The store's logger: the warning about persistence is the store's, whoever checks. */
    private static final Logger LOG = LoggerFactory.getLogger(RedisSnapshotStore.class);
    /** Servers already warned about, so that each one gets one warning per JVM, not one per store. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private final @Nullable AbstractRedisClient ownedClient;
    private final StatefulConnection<String, String> connection;
    final RedisClusterCommands<String, String> commands;
    /** The same connection's asynchronous commands: a bucketed listing sends its per-bucket scripts at once. */
    final RedisClusterAsyncCommands<String, String> async;
    /** {@return the command timeout} */
    Duration timeout() {
        return connection.getTimeout();
    }

    /** The redacted URL or "(application client)", for messages. */
    final String where;
    /** True on a Redis Cluster: a script may touch only keys of one slot. */
    final boolean cluster;

    private RedisConnection(@Nullable AbstractRedisClient ownedClient, StatefulConnection<String, String> connection,
                            RedisClusterCommands<String, String> commands, RedisClusterAsyncCommands<String, String> async,
                            String where, boolean cluster) {
        this.ownedClient = ownedClient;
        this.cluster = cluster;
        this.connection = connection;
        this.commands = commands;
        this.async = async;
        this.where = where;
    }

    /**
     * Connects to {@code url} with a client of its own, shut down when the connection closes (see
     * {@link RedisSnapshotStore#open(String, String, Duration, boolean)}); a client that cannot
     * connect is shut down at once.
     */
    static RedisConnection open(String url, @Nullable Duration timeout, boolean cluster) {
        RedisURI uri = RedisURI.create(url);
        if (timeout == null) {
            timeout = uri.getTimeout().equals(RedisURI.DEFAULT_TIMEOUT_DURATION) ? RedisSnapshotStore.DEFAULT_TIMEOUT : uri.getTimeout();
        }
        requirePositive(timeout);
        uri.setTimeout(timeout);
        SocketOptions socket = SocketOptions.builder().connectTimeout(timeout).build();
        TimeoutOptions timeouts = TimeoutOptions.enabled(timeout);
        String where = SnapshotStores.redact(url) + (cluster ? " (cluster)" : "");
        AbstractRedisClient client;
        if (cluster) {
            RedisClusterClient c = RedisClusterClient.create(uri);
            c.setOptions(ClusterClientOptions.builder().socketOptions(socket).timeoutOptions(timeouts).build());
            client = c;
        } else {
            RedisClient c = RedisClient.create(uri);
            c.setOptions(ClientOptions.builder().socketOptions(socket).timeoutOptions(timeouts).build());
            client = c;
        }
        try {
            return connect(client, client, timeout, where);
        } catch (RuntimeException e) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            throw e;
        }
    }

    /**
     * Opens a connection of its own on {@code client}, its commands timing out after {@code timeout}.
     *
     * @param owned the client to shut down with the connection, or null for an application's client
     */
    static RedisConnection connect(AbstractRedisClient client, @Nullable AbstractRedisClient owned, Duration timeout,
                                   String where) {
        StatefulConnection<String, String> connection;
        RedisClusterCommands<String, String> commands;
        RedisClusterAsyncCommands<String, String> async;
        try {
            if (client instanceof RedisClusterClient c) {
                StatefulRedisClusterConnection<String, String> cc = c.connect(StringCodec.UTF8);
                connection = cc;
                commands = cc.sync();
                async = cc.async();
            } else {
                StatefulRedisConnection<String, String> rc = ((RedisClient) client).connect(StringCodec.UTF8);
                connection = rc;
                commands = rc.sync();
                async = rc.async();
            }
        } catch (RedisException e) {
            throw new StorageException("Redis " + where + ": cannot connect: " + e.getMessage(), e);
        }
        boolean cluster;
        try {
            connection.setTimeout(timeout);
            cluster = client instanceof RedisClusterClient || clusterEnabled(commands);
        } catch (RedisException e) {
            connection.close();
            throw new StorageException("Redis " + where + ": cannot connect: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
        return new RedisConnection(owned, connection, commands, async, where, cluster);
    }

    /**
     * Whether the server runs in cluster mode, also when reached through a plain {@link RedisClient} (a one-node
     * cluster): then a script may touch only keys of one slot. A server that refuses {@code INFO} counts as one.
     */
    private static boolean clusterEnabled(RedisClusterCommands<String, String> commands) {
        try {
            return !commands.info("cluster").contains("cluster_enabled:0");
        } catch (RedisCommandExecutionException e) {
            return true;
        }
    }

    static Duration requirePositive(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        return timeout;
    }

    /**
     * Warns once when the server keeps nothing on disk; servers that refuse CONFIG are left alone.
     *
     * @param access the store, for its name and for how it reports a Redis failure
     */
    void checkPersistence(RedisAccess access) {
        String appendonly;
        String save;
        try {
            appendonly = commands.configGet("appendonly").getOrDefault("appendonly", "");
            save = commands.configGet("save").getOrDefault("save", "");
        } catch (RedisCommandExecutionException e) {
            LOG.debug("{}: cannot read the persistence settings (CONFIG GET refused: {})", access.description, e.getMessage());
            return;
        } catch (RedisException e) {
            throw access.failure("open", null, e);
        }
        if (!persists(appendonly, save) && WARNED.add(where)) {
            LOG.warn("{} keeps nothing on disk (appendonly no, save \"\"): suspended runs will not survive a Redis restart."
                    + " Set appendonly yes and appendfsync everysec.", "Redis " + where);
        }
    }

    /** True when the server settings keep data across a restart: AOF on, or at least one RDB save rule. */
    static boolean persists(String appendonly, String save) {
        return "yes".equalsIgnoreCase(appendonly.trim()) || !save.isBlank();
    }

    /** Closes the connection, and shuts the client down if the connection owns it. */
    void close() {
        try {
            connection.close();
        } finally {
            if (ownedClient != null) ownedClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
