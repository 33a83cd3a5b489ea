package dev.baton.store.redis;

import dev.baton.StorageException;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.MemoryStore;
import dev.baton.store.QueryFeature;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

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
 * an index. See {@link RedisKeys} for the key layout; all keys of one agent share a hash tag, or with
 * {@link Builder#buckets} N &gt; 1 the keys of one bucket do (a thread's runs share a bucket; the agent's and a
 * resource's listings run the script on every bucket and merge: see {@code docs/stores/redis-buckets.md}).
 * {@link #memory()} keeps thread memory in the same Redis (see {@code docs/stores/redis.md}).
 *
 * <p>Open it by URL ({@code SnapshotStores.open("redis://localhost:6379")}, properties
 * {@code keyPrefix}, {@code timeout}, {@code cluster} and {@code buckets}), or from a client the application owns:
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
 * {@link StoreCapability#SHARED}, {@link StoreCapability#DURABLE}, {@link StoreCapability#STORE_CLOCK},
 * {@link StoreCapability#THREAD_MEMORY} and {@link StoreCapability#DECISIONS} (the audit trail: see
 * {@link RedisDecisions}; a decision is written by the same script as the run's change).
 *
 * <p>Thread-safe: one store (and its {@link #memory()}) serves every thread of a process, on one
 * thread-safe Lettuce connection of its own. Whoever opened the store closes it: {@link #close()}
 * closes the store's connection, and the client too if the store opened it from a URL
 * ({@link #open}), never a client passed to {@link #builder(RedisClient)} or
 * {@link #builder(RedisClusterClient)}. Redis failures and timeouts are {@link StorageException}s
 * naming the server, the key prefix and the run or thread.
 */
public final class RedisSnapshotStore implements SnapshotStore {

    /** The key prefix used when none is configured. */
    public static final String DEFAULT_KEY_PREFIX = "baton";
    /** The command (and connect) timeout used when none is configured. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);


    private final RedisConnection connection;
    private final RedisAccess access;
    private final RedisKeys keys;
    private final RunHashes hashes;
    private final RedisRunListing listing;
    private final RedisMemoryStore memory;
    private final RedisDecisions decisions;
    private final RunLookup lookup;
    private final RedisRunWrites writes;

    private RedisSnapshotStore(RedisConnection connection, RedisBuckets buckets) {
        this.connection = connection;
        this.keys = buckets.keys();
        this.access = new RedisAccess(connection.commands, connection.async, connection.timeout(), buckets, "Redis " + connection.where + " (key prefix '" + keys.prefix() + "'"
                + (buckets.count() == 1 ? "" : ", " + buckets.count() + " buckets") + ")", connection.cluster);
        this.hashes = new RunHashes(access.description);
        this.lookup = new RunLookup(access);
        this.writes = new RedisRunWrites(access, hashes, lookup);
        this.listing = new RedisRunListing(access, hashes, lookup);
        this.memory = new RedisMemoryStore(access);
        this.decisions = new RedisDecisions(access);
        connection.checkPersistence(access);
        String refusal = access.checkLayout();
        if (refusal != null) org.slf4j.LoggerFactory.getLogger(RedisSnapshotStore.class).error("{}", refusal);
    }

    /** A store on {@code connection}; if it cannot start, the connection (and the client it owns) is closed. */
    private static RedisSnapshotStore start(RedisConnection connection, RedisBuckets buckets) {
        try {
            return new RedisSnapshotStore(connection, buckets);
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /**
     * Starts a store on a client the application owns; the store never shuts that client down.
     *
     * @param client the application's client of a standalone server
     * @return a builder; {@link Builder#build()} connects
     */
    public static Builder builder(RedisClient client) {
        return new Builder(Objects.requireNonNull(client, "client"));
    }

    /**
     * Starts a store on a Redis Cluster client the application owns; the store never shuts that
     * client down. All keys of one agent (of one bucket of the agent, see {@link Builder#buckets}) share a hash tag,
     * so every script runs on one node.
     *
     * @param client the application's Cluster client
     * @return a builder; {@link Builder#build()} connects
     */
    public static Builder builder(RedisClusterClient client) {
        return new Builder(Objects.requireNonNull(client, "client"));
    }

    /**
     * Opens a store on {@code url} ({@code redis://} or {@code rediss://}, as Lettuce's {@link RedisURI}
     * reads it) with a client of its own, shut down when the store closes.
     *
     * @param url       the server's URL, or a seed node's for a Cluster
     * @param keyPrefix the first part of every key; not empty, without '{' or '}'
     * @param timeout   connect and command timeout; {@code null} takes the URL's {@code timeout}
     *                  parameter if it has one, else {@link #DEFAULT_TIMEOUT}
     * @param cluster   {@code true} to treat the URL as a seed node of a Redis Cluster
     * @return the store, connected; closing it shuts its client down
     * @throws StorageException if the server cannot be reached
     */
    public static RedisSnapshotStore open(String url, String keyPrefix, @Nullable Duration timeout, boolean cluster) {
        return open(url, keyPrefix, timeout, cluster, 1);
    }

    /**
     * Opens a store whose agents' runs are spread over {@code buckets} hash tags (see {@link Builder#buckets});
     * otherwise as {@link #open(String, String, Duration, boolean)}.
     *
     * @param url       the server's URL, or a seed node's for a Cluster
     * @param keyPrefix the first part of every key; not empty, without '{' or '}'
     * @param timeout   connect and command timeout; {@code null} takes the URL's {@code timeout}
     *                  parameter if it has one, else {@link #DEFAULT_TIMEOUT}
     * @param cluster   {@code true} to treat the URL as a seed node of a Redis Cluster
     * @param buckets   the number of buckets per agent, 1 to 1024; 1 is the original layout
     * @return the store, connected; closing it shuts its client down
     * @throws StorageException if the server cannot be reached
     */
    public static RedisSnapshotStore open(String url, String keyPrefix, @Nullable Duration timeout, boolean cluster, int buckets) {
        RedisBuckets layout = new RedisBuckets(new RedisKeys(keyPrefix), buckets);
        return start(RedisConnection.open(url, timeout, cluster), layout);
    }

    /**
     * Opens a store on a standalone server; see {@link #open(String, String, Duration, boolean)}.
     *
     * @param url       the server's URL
     * @param keyPrefix the first part of every key; not empty, without '{' or '}'
     * @param timeout   connect and command timeout; {@code null} takes the URL's {@code timeout}
     *                  parameter if it has one, else {@link #DEFAULT_TIMEOUT}
     * @return the store, connected; closing it shuts its client down
     */
    public static RedisSnapshotStore open(String url, String keyPrefix, @Nullable Duration timeout) {
        return open(url, keyPrefix, timeout, false);
    }

    /**
     * Builds a {@link RedisSnapshotStore} on an application's {@link RedisClient} or {@link RedisClusterClient}.
     * Not thread-safe: one thread builds a store.
     */
    public static final class Builder {
        private final AbstractRedisClient client;
        private String keyPrefix = DEFAULT_KEY_PREFIX;
        private Duration timeout = DEFAULT_TIMEOUT;
        private int buckets = 1;

        private Builder(AbstractRedisClient client) {
            this.client = client;
        }

        /**
         * The first part of every key (default {@value #DEFAULT_KEY_PREFIX}); must not contain '{' or '}'.
         *
         * @param keyPrefix the prefix, checked when the store is built
         * @return this builder
         */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
            return this;
        }

        /**
         * The timeout of every command on the store's connection (default 10 s).
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = RedisConnection.requirePositive(timeout);
            return this;
        }

        /**
         * The number of buckets (hash tags) an agent's runs are spread over (default 1, the original layout:
         * all of an agent's keys under one hash tag). With N &gt; 1 a thread's runs stay in one bucket, and a
         * listing of the agent or of a resource reads every bucket and merges them (see
         * {@code docs/stores/redis.md}). Every instance on the same data must use the same number; changing
         * it needs {@link RedisLayoutMigration}.
         *
         * @param buckets 1 to 1024
         * @return this builder
         */
        public Builder buckets(int buckets) {
            this.buckets = RedisBuckets.check(buckets);
            return this;
        }

        /**
         * Opens the store's own connection from the client; closing the store closes only that connection.
         *
         * @return the store, connected
         */
        public RedisSnapshotStore build() {
            RedisBuckets layout = new RedisBuckets(new RedisKeys(keyPrefix), buckets);
            return start(RedisConnection.connect(client, null, timeout,
                    client instanceof RedisClusterClient ? "(application cluster client)" : "(application client)"), layout);
        }
    }

    @Override
    public boolean insert(RunSnapshot s) {
        return writes.insert(s);
    }

    @Override
    public Optional<RunSnapshot> find(String runId) {
        return writes.find(runId);
    }

    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot replacement) {
        return writes.compareAndSet(expectedVersion, replacement);
    }

    /** One script (dcas.lua): the compare-and-set of cas.lua and the records, in the agent's key space; both or nothing. */
    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot replacement, List<DecisionRecord> decisions) {
        return this.decisions.compareAndSet(expectedVersion, replacement, decisions);
    }

    /** One script (ddelete.lua): the delete of delete.lua and the records, which stay after the run; both or nothing. */
    @Override
    public boolean delete(String runId, long expectedVersion, List<DecisionRecord> decisions) {
        return access.call("delete", runId, () -> {
            if (access.oneScript) {
                Boolean done = this.decisions.deleteInOneScript(runId, expectedVersion, decisions);
                if (done != null) return done;
            }
            RunLookup.Located at = lookup.find(runId);
            if (at == null) return false;
            RedisDecisions.check(at.agentId(), runId, decisions);
            String nonce = this.decisions.delete(at, runId, expectedVersion, decisions);
            if (nonce == null) return false;
            lookup.release(at, runId, nonce);
            return true;
        });
    }

    /** One script (dlist.lua): a rank range of the most selective decision index the query names. */
    @Override
    public DecisionPage listDecisions(DecisionQuery query) {
        return decisions.list(query);
    }

    @Override
    public Optional<DecisionRecord> findDecision(String agentId, String idempotencyKey) {
        return decisions.find(agentId, idempotencyKey);
    }

    @Override
    public int purgeDecisions(String agentId, Instant olderThan, int limit) {
        return decisions.purge(agentId, olderThan, limit);
    }

    /** One script on the run's hash and indexes (renew.lua); the payload is neither read nor sent. */
    @Override
    public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        return writes.renewLease(runId, expectedVersion, owner, newExpiry);
    }

    /** The server's {@code TIME}, in milliseconds. */
    @Override
    public Instant now() {
        return access.now();
    }

    /**
     * {@link QueryFeature#BASELINE} and {@link QueryFeature#DECIDERS}: the deciders filter on the per-label sorted sets
     * {@code PREFIX:{HEX(agentId)}:dl:HEX(label)} of the runs stored SUSPENDED, kept by the same script as the run.
     */
    @Override
    public Set<QueryFeature> queryFeatures() {
        return QUERY_FEATURES;
    }

    private static final Set<QueryFeature> QUERY_FEATURES = Set.of(QueryFeature.BASELINE, QueryFeature.DECIDERS);

    /** Shared, durable (as far as the server's persistence settings make it), with the server's clock, thread memory, decisions
     * and notifications. */
    @Override
    public Set<StoreCapability> capabilities() {
        return CAPABILITIES;
    }

    /** What this store declares, the same set at every call (core asks at every decision whether it keeps records). */
    private static final Set<StoreCapability> CAPABILITIES = Set.of(StoreCapability.SHARED, StoreCapability.DURABLE,
            StoreCapability.STORE_CLOCK, StoreCapability.THREAD_MEMORY, StoreCapability.DECISIONS, StoreCapability.NOTIFICATIONS);

    @Override
    public boolean delete(String runId, long expectedVersion) {
        return writes.delete(runId, expectedVersion);
    }

    /**
     * One script (list.lua): the total, the page as a rank range of one sorted set (after the cursor, if
     * any, found by its rank), and the page's fields, in one round trip. Without payloads the script
     * reads every field but the payload ({@code HMGET}), so a listing costs the same whatever the size
     * of the runs: the summary is what a listing shows.
     */
    @Override
    public RunPage list(RunQuery q) {
        return listing.list(q);
    }

    /** One script (due.lua): a range of the agent's deadline set, skipping runs under a live lease; no payloads. */
    @Override
    public List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        return listing.listDue(agentId, now, limit);
    }

    /** One script (notifydue.lua): a range of the agent's notification set; no payloads. */
    @Override
    public List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        return listing.listNotificationsDue(agentId, now, limit);
    }

    /** One script on the run's hash and the agent's notification set (notify.lua); the version stays. */
    @Override
    public boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt, @Nullable Instant notifyAt,
            @Nullable String notifyState) {
        return listing.updateNotification(runId, expectedVersion, expectedNotifyAt, notifyAt, notifyState);
    }

    /**
     * The thread memory in the same Redis, on this store's connection: see {@link RedisMemoryStore} for
     * its key layout.
     */
    @Override
    public Optional<MemoryStore> memory() {
        access.checkOpen("memory");
        return Optional.of(memory);
    }

    /** The store's connection, key layout and buckets, for {@link RedisLayoutMigration}. */
    RedisAccess access() {
        return access;
    }

    @Override
    public String describe() {
        return access.description;
    }

    /**
     * Closes the store's connection, and the client if the store opened it from a URL. Idempotent;
     * every later call on this store fails with a {@link StorageException}.
     */
    @Override
    public void close() {
        if (!access.close()) return;
        connection.close();
    }
}
