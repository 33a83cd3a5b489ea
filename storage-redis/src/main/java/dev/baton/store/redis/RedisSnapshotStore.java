package dev.baton.store.redis;

import dev.baton.StorageException;
import dev.baton.agent.RunStatus;
import dev.baton.memory.MemoryStore;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.StoreCapability;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.StringCodec;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link SnapshotStore} on Redis, through Lettuce's synchronous API with a command timeout.
 *
 * <p>Each run is a hash in the key space of its agent; sorted sets scored by creation time index
 * the runs of an agent, of an agent and thread, of an agent and resource, and of all three, once
 * for suspended runs, once for runs being resumed under a live lease, and once for both; a sorted
 * set scored by deadline serves {@link #listDue}. Every listing is then one script, one round trip:
 * {@code ZCOUNT} for the total, a rank range of one sorted set for the page (after a cursor, from
 * the cursor run's rank), and the page's fields without payloads unless asked for;
 * creation-time ties come out by runId descending in binary order, as sorted sets order members.
 * Insert, compare-and-set, delete and list are each one Lua script that updates the run and all
 * its indexes together, so no crash leaves an index entry without its run or a run missing from
 * an index. See {@link RedisKeys} for the key layout; all keys of one agent share a hash tag.
 * {@link #memory()} keeps thread memory in the same Redis (see {@code docs/stores/redis.md}).
 *
 * <p>Open it by URL ({@code SnapshotStores.open("redis://localhost:6379")}, properties
 * {@code keyPrefix} and {@code timeout}), or from a client the application owns:
 *
 * <pre>{@code
 * RedisClient client = RedisClient.create("redis://localhost:6379");
 * SnapshotStore store = RedisSnapshotStore.builder(client).keyPrefix("myapp").build();
 * ...
 * store.close();      // closes the store's connection; the client stays open
 * client.shutdown();
 * }</pre>
 *
 * <p>Leases: {@link #renewLease} is one Lua script that checks the version, the status and the
 * owner, sets {@code leaseExpiresAt} and the version in the hash, and moves the run in the lease
 * sorted sets exactly as a compare-and-set to the renewed snapshot would; the payload is neither
 * read nor sent. {@link #now()} is the server's {@code TIME} (on a Cluster, the clock of the node
 * the connection sends key-less commands to).
 *
 * <p>Durability is Redis's: without AOF or RDB snapshots suspended runs are lost when Redis
 * restarts; the store logs a warning at open when it sees such a server. It declares
 * {@link StoreCapability#SHARED}, {@link StoreCapability#DURABLE}, {@link StoreCapability#STORE_CLOCK}
 * and {@link StoreCapability#THREAD_MEMORY}.
 */
public final class RedisSnapshotStore implements SnapshotStore {
    private static final Logger LOG = LoggerFactory.getLogger(RedisSnapshotStore.class);

    /** The key prefix used when none is configured. */
    public static final String DEFAULT_KEY_PREFIX = "baton";
    /** The command (and connect) timeout used when none is configured. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private static final LuaScript INSERT = LuaScript.load("insert", true);
    private static final LuaScript CAS = LuaScript.load("cas", true);
    private static final LuaScript DELETE = LuaScript.load("delete", true);
    private static final LuaScript RENEW = LuaScript.load("renew", true);
    private static final LuaScript LIST = LuaScript.load("list", true);
    private static final LuaScript DUE = LuaScript.load("due", true);
    private static final LuaScript RESERVE = LuaScript.load("reserve", false);
    private static final LuaScript SWAP = LuaScript.load("swap", false);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int NONCE_LENGTH = 16;
    /** Servers already warned about, so that each one gets one warning per JVM, not one per store. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private final @Nullable AbstractRedisClient ownedClient;
    private final StatefulConnection<String, String> connection;
    private final RedisClusterCommands<String, String> redis;
    private final RedisKeys keys;
    private final String description;
    private final RedisMemoryStore memory;
    private volatile boolean closed;

    private RedisSnapshotStore(@Nullable AbstractRedisClient ownedClient, StatefulConnection<String, String> connection,
                               RedisClusterCommands<String, String> redis, RedisKeys keys, Duration timeout, String where) {
        this.ownedClient = ownedClient;
        this.connection = connection;
        this.connection.setTimeout(timeout);
        this.redis = redis;
        this.keys = keys;
        this.description = "Redis " + where + " (key prefix '" + keys.prefix() + "')";
        this.memory = new RedisMemoryStore(this::call, redis, keys, description);
        checkPersistence(where);
    }

    /** Starts a store on a client the application owns; the store never shuts that client down. */
    public static Builder builder(RedisClient client) {
        return new Builder(Objects.requireNonNull(client, "client"));
    }

    /**
     * Starts a store on a Redis Cluster client the application owns; the store never shuts that
     * client down. All keys of one agent share a hash tag, so every script runs on one node.
     */
    public static Builder builder(RedisClusterClient client) {
        return new Builder(Objects.requireNonNull(client, "client"));
    }

    /**
     * Opens a store on {@code url} ({@code redis://} or {@code rediss://}, as Lettuce's {@link RedisURI}
     * reads it) with a client of its own, shut down when the store closes.
     *
     * @param cluster {@code true} to treat the URL as a seed node of a Redis Cluster
     * @param timeout connect and command timeout; {@code null} takes the URL's {@code timeout}
     *                parameter if it has one, else {@link #DEFAULT_TIMEOUT}
     */
    public static RedisSnapshotStore open(String url, String keyPrefix, @Nullable Duration timeout, boolean cluster) {
        RedisKeys keys = new RedisKeys(keyPrefix);
        RedisURI uri = RedisURI.create(url);
        if (timeout == null) {
            timeout = uri.getTimeout().equals(RedisURI.DEFAULT_TIMEOUT_DURATION) ? DEFAULT_TIMEOUT : uri.getTimeout();
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
            return connect(client, client, keys, timeout, where);
        } catch (RuntimeException e) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            throw e;
        }
    }

    /** Opens a store on a standalone server; see {@link #open(String, String, Duration, boolean)}. */
    public static RedisSnapshotStore open(String url, String keyPrefix, @Nullable Duration timeout) {
        return open(url, keyPrefix, timeout, false);
    }

    private static RedisSnapshotStore connect(AbstractRedisClient client, @Nullable AbstractRedisClient owned, RedisKeys keys,
                                              Duration timeout, String where) {
        StatefulConnection<String, String> connection;
        RedisClusterCommands<String, String> commands;
        try {
            if (client instanceof RedisClusterClient c) {
                StatefulRedisClusterConnection<String, String> cc = c.connect(StringCodec.UTF8);
                connection = cc;
                commands = cc.sync();
            } else {
                StatefulRedisConnection<String, String> rc = ((RedisClient) client).connect(StringCodec.UTF8);
                connection = rc;
                commands = rc.sync();
            }
        } catch (RedisException e) {
            throw new StorageException("Redis " + where + ": cannot connect: " + e.getMessage(), e);
        }
        try {
            return new RedisSnapshotStore(owned, connection, commands, keys, timeout, where);
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /** Builds a {@link RedisSnapshotStore} on an application's {@link RedisClient} or {@link RedisClusterClient}. */
    public static final class Builder {
        private final AbstractRedisClient client;
        private String keyPrefix = DEFAULT_KEY_PREFIX;
        private Duration timeout = DEFAULT_TIMEOUT;

        private Builder(AbstractRedisClient client) {
            this.client = client;
        }

        /** The first part of every key (default {@value #DEFAULT_KEY_PREFIX}); must not contain '{' or '}'. */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
            return this;
        }

        /** The timeout of every command on the store's connection (default 10 s). */
        public Builder timeout(Duration timeout) {
            this.timeout = requirePositive(timeout);
            return this;
        }

        /** Opens the store's own connection from the client; closing the store closes only that connection. */
        public RedisSnapshotStore build() {
            return connect(client, null, new RedisKeys(keyPrefix), timeout,
                    client instanceof RedisClusterClient ? "(application cluster client)" : "(application client)");
        }
    }

    private static Duration requirePositive(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        return timeout;
    }

    /** Warns once when the server keeps nothing on disk; servers that refuse CONFIG are left alone. */
    private void checkPersistence(String where) {
        String appendonly;
        String save;
        try {
            appendonly = redis.configGet("appendonly").getOrDefault("appendonly", "");
            save = redis.configGet("save").getOrDefault("save", "");
        } catch (RedisCommandExecutionException e) {
            LOG.debug("{}: cannot read the persistence settings (CONFIG GET refused: {})", description, e.getMessage());
            return;
        } catch (RedisException e) {
            throw failure("open", null, e);
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

    @Override
    public boolean insert(RunSnapshot s) {
        return call("insert", s.runId(), () -> {
            String nonce = nonce();
            String lookup = keys.lookup(s.runId());
            Long reserved = RESERVE.run(redis, ScriptOutputType.INTEGER, new String[] {lookup}, s.agentId(), nonce);
            if (reserved == null || reserved == 0) return false; // the run id belongs to another agent's run
            List<String> args = new ArrayList<>(List.of(keys.agentBase(s.agentId()), s.runId()));
            fields(s, args);
            args.add("rsv");
            args.add(nonce);
            List<Object> r = INSERT.run(redis, ScriptOutputType.MULTI, new String[] {keys.run(s.agentId(), s.runId())},
                    args.toArray(String[]::new));
            if (((Long) r.get(0)) == 1L) return true;
            // the run exists: point the lookup key back at it (unless someone changed it meanwhile)
            SWAP.run(redis, ScriptOutputType.INTEGER, new String[] {lookup}, nonce + s.agentId(), r.get(1) + s.agentId());
            return false;
        });
    }

    @Override
    public Optional<RunSnapshot> find(String runId) {
        return call("find", runId, () -> {
            String agentId = agentOf(runId);
            if (agentId == null) return Optional.empty();
            Map<String, String> h = redis.hgetall(keys.run(agentId, runId));
            return h.isEmpty() ? Optional.empty() : Optional.of(snapshot(h));
        });
    }

    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot replacement) {
        return call("compare-and-set", replacement.runId(), () -> {
            List<String> args = new ArrayList<>(List.of(keys.agentBase(replacement.agentId()), replacement.runId(),
                    Long.toString(expectedVersion)));
            fields(replacement, args);
            Long r = CAS.run(redis, ScriptOutputType.INTEGER,
                    new String[] {keys.run(replacement.agentId(), replacement.runId())}, args.toArray(String[]::new));
            return r != null && r == 1L;
        });
    }

    /** One script on the run's hash and indexes (renew.lua); the payload is neither read nor sent. */
    @Override
    public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(owner, "owner");
        return call("lease renewal", runId, () -> {
            String agentId = agentOf(runId);
            if (agentId == null) return false;
            Long r = RENEW.run(redis, ScriptOutputType.INTEGER, new String[] {keys.run(agentId, runId)},
                    keys.agentBase(agentId), runId, Long.toString(expectedVersion), owner,
                    Long.toString(newExpiry.toEpochMilli()), Long.toString(expectedVersion + 1));
            return r != null && r == 1L;
        });
    }

    /** The server's {@code TIME}, in milliseconds. */
    @Override
    public Instant now() {
        return call("reading the clock", null, () -> {
            List<String> time = redis.time();
            if (time == null || time.size() != 2) {
                throw new StorageException(description + ": TIME answered " + time + " instead of seconds and microseconds");
            }
            return Instant.ofEpochMilli(Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000);
        });
    }

    /** Shared, durable (as far as the server's persistence settings make it), with the server's clock and thread memory. */
    @Override
    public Set<StoreCapability> capabilities() {
        return Set.of(StoreCapability.SHARED, StoreCapability.DURABLE, StoreCapability.STORE_CLOCK,
                StoreCapability.THREAD_MEMORY);
    }

    @Override
    public boolean delete(String runId, long expectedVersion) {
        return call("delete", runId, () -> {
            String agentId = agentOf(runId);
            if (agentId == null) return false;
            String nonce = DELETE.run(redis, ScriptOutputType.VALUE, new String[] {keys.run(agentId, runId)},
                    keys.agentBase(agentId), runId, Long.toString(expectedVersion));
            if (nonce == null) return false;
            // only if no insert of the same run id re-pointed it since
            SWAP.run(redis, ScriptOutputType.INTEGER, new String[] {keys.lookup(runId)}, nonce + agentId, "");
            return true;
        });
    }

    /**
     * One script (list.lua): the total, the page as a rank range of one sorted set (after the cursor, if
     * any, found by its rank), and the page's fields, in one round trip. Without payloads the script
     * reads every field but the payload ({@code HMGET}), so a listing costs the same whatever the size
     * of the runs, except for a run without a summary (stored by Baton 0.1), whose payload it returns.
     */
    @Override
    public RunPage list(RunQuery q) {
        if (closed) throw closed("list");
        if (q.emptyDateRange()) return new RunPage(List.of(), 0);
        return call("list", null, () -> {
            Integer limit = q.limit();
            RunQuery.After after = q.after();
            List<Object> r = LIST.run(redis, ScriptOutputType.MULTI, new String[] {keys.allIndex(q.agentId())},
                    keys.agentBase(q.agentId()),
                    Long.toString(q.now().toEpochMilli()),
                    q.status() == null ? "" : q.status().name(),
                    q.threadId() == null ? "0" : "1", q.threadId() == null ? "" : q.threadId(),
                    q.resourceId() == null ? "0" : "1", q.resourceId() == null ? "" : q.resourceId(),
                    q.createdFrom() == null ? "-inf" : Long.toString(q.createdFrom().toEpochMilli()),
                    q.createdTo() == null ? "+inf" : Long.toString(q.createdTo().toEpochMilli()),
                    Long.toString(q.offset()),
                    limit == null ? "-1" : Integer.toString(limit),
                    q.withPayload() ? "1" : "0",
                    after == null ? "0" : "1",
                    after == null ? "" : Long.toString(after.createdAt().toEpochMilli()),
                    after == null ? "" : after.runId());
            long total = (Long) r.get(0);
            List<RunSnapshot> items = new ArrayList<>(r.size() - 1);
            for (int i = 1; i < r.size(); i++) items.add(row(r.get(i)));
            return new RunPage(items, total);
        });
    }

    /** One script (due.lua): a range of the agent's deadline set, skipping runs under a live lease; no payloads. */
    @Override
    public List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        return call("listDue", null, () -> {
            if (limit == 0) return List.of();
            List<Object> r = DUE.run(redis, ScriptOutputType.MULTI, new String[] {keys.dueIndex(agentId)},
                    keys.agentBase(agentId), Long.toString(now.toEpochMilli()), Integer.toString(limit));
            List<RunSnapshot> items = new ArrayList<>(r.size());
            for (Object o : r) items.add(row(o));
            return items;
        });
    }

    /**
     * The thread memory in the same Redis, on this store's connection: see {@link RedisMemoryStore} for
     * its key layout.
     */
    @Override
    public Optional<MemoryStore> memory() {
        if (closed) throw closed("memory");
        return Optional.of(memory);
    }

    private @Nullable String agentOf(String runId) {
        String v = redis.get(keys.lookup(runId));
        return v == null || v.length() <= NONCE_LENGTH ? null : v.substring(NONCE_LENGTH);
    }

    private static String nonce() {
        byte[] b = new byte[NONCE_LENGTH / 2];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static void fields(RunSnapshot s, List<String> out) {
        put(out, "runId", s.runId());
        put(out, "agentId", s.agentId());
        put(out, "status", s.status().name());
        put(out, "threadId", s.threadId());
        put(out, "resourceId", s.resourceId());
        put(out, "createdAt", Long.toString(s.createdAt().toEpochMilli()));
        put(out, "suspendedAt", Long.toString(s.suspendedAt().toEpochMilli()));
        put(out, "version", Long.toString(s.version()));
        put(out, "leaseOwner", s.leaseOwner());
        put(out, "leaseExpiresAt", s.leaseExpiresAt() == null ? null : Long.toString(s.leaseExpiresAt().toEpochMilli()));
        put(out, "payload", s.payload());
        put(out, "expiresAt", s.expiresAt() == null ? null : Long.toString(s.expiresAt().toEpochMilli()));
        put(out, "summary", s.summary());
    }

    private static void put(List<String> out, String field, @Nullable String value) {
        if (value == null) return; // absent field = null; an empty string stays a value
        out.add(field);
        out.add(value);
    }

    private RunSnapshot snapshot(Map<String, String> h) {
        String runId = h.get("runId");
        try {
            return new RunSnapshot(runId, h.get("agentId"), RunStatus.valueOf(h.get("status")), h.get("threadId"),
                    h.get("resourceId"), millis(h.get("createdAt")), millis(h.get("suspendedAt")),
                    Long.parseLong(h.get("version")), h.get("leaseOwner"), millisOrNull(h.get("leaseExpiresAt")),
                    h.get("payload"), millisOrNull(h.get("expiresAt")), h.get("summary"));
        } catch (RuntimeException e) {
            throw invalid(runId, e);
        }
    }

    /** A run as list.lua and due.lua return it (common.lua's row()): fixed positions, nulls where absent, the payload last. */
    private RunSnapshot row(Object reply) {
        @SuppressWarnings("unchecked")
        List<Object> f = (List<Object>) reply;
        String runId = (String) f.get(0);
        try {
            return new RunSnapshot(runId, (String) f.get(1), RunStatus.valueOf((String) f.get(2)), (String) f.get(3),
                    (String) f.get(4), millis((String) f.get(5)), millis((String) f.get(6)),
                    Long.parseLong((String) f.get(7)), (String) f.get(8), millisOrNull((String) f.get(9)),
                    (String) f.get(12), millisOrNull((String) f.get(10)), (String) f.get(11));
        } catch (RuntimeException e) {
            throw invalid(runId, e);
        }
    }

    private static Instant millis(String epochMillis) {
        return Instant.ofEpochMilli(Long.parseLong(epochMillis));
    }

    private static @Nullable Instant millisOrNull(@Nullable String epochMillis) {
        return epochMillis == null ? null : millis(epochMillis);
    }

    private StorageException invalid(@Nullable String runId, RuntimeException e) {
        return new StorageException(description + ": the stored hash of run '" + runId + "' is not a valid run ("
                + e.getMessage() + "); was it written by something else than Baton?", e);
    }

    private StorageException closed(String operation) {
        return new StorageException(description + " is closed; " + operation + " was not done");
    }

    private <T> T call(String operation, @Nullable String runId, Supplier<T> body) {
        if (closed) throw closed(operation);
        try {
            return body.get();
        } catch (RedisException e) {
            throw failure(operation, runId, e);
        }
    }

    private StorageException failure(String operation, @Nullable String runId, RedisException e) {
        return StorageException.failed(description, operation, runId, e.getMessage(), e);
    }

    @Override
    public String describe() {
        return description;
    }

    /**
     * Closes the store's connection, and the client if the store opened it from a URL. Idempotent;
     * every later call on this store fails with a {@link StorageException}.
     */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            connection.close();
        } finally {
            if (ownedClient != null) ownedClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
