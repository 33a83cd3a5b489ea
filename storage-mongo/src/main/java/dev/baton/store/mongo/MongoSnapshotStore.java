package dev.baton.store.mongo;

import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import dev.baton.InvalidOptionException;
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
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.bson.Document;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SnapshotStore} on MongoDB (mongodb-driver-sync). One document per run in one
 * collection (default {@code baton_runs}):
 *
 * <pre>{@code
 * { _id: runId, agentId, status: "SUSPENDED" | "RESUMING", threadId, resourceId,
 *   createdAt: Date, suspendedAt: Date, version: long, leaseOwner, leaseExpiresAt: Date,
 *   payload: "<the run state as JSON text>", expiresAt: Date, summary: "<what a listing shows, JSON text>" }
 * }</pre>
 *
 * <p>Every filter, the order, the count and the page are done by the server, on four compound
 * indexes created (idempotently) when the store opens: {@code {agentId, createdAt: -1, _id: -1}}
 * and the same with {@code threadId}, {@code resourceId}, or both, after {@code agentId}; a fifth,
 * {@code {agentId, expiresAt, _id}}, serves {@link #listDue}. Listings without payloads project
 * the payload away.
 * Compare-and-set is a {@code findOneAndUpdate} whose filter holds the {@code _id} and the
 * expected {@code version}; a duplicate key on insert means the run exists. No transactions
 * and no TTL indexes are needed.
 *
 * <p>Open it by URL with {@code SnapshotStores.open("mongodb://host/dbname")} (the store then owns
 * and closes its client), or from a client the application owns:
 *
 * <pre>{@code
 * SnapshotStore store = MongoSnapshotStore.builder(mongoClient, "app").collection("agent_runs").build();
 * }</pre>
 *
 * A client passed in is never closed by the store. The store reads from the primary, and writes
 * with majority write concern by default ({@link WriteConcernLevel}), because the compare-and-set
 * and "a claimed run is no longer listed" depend on it and a claim acknowledged by the primary
 * alone can be rolled back by a failover.
 *
 * <p>Leases: {@link #renewLease} is one {@code updateOne} whose filter holds the {@code _id}, the
 * expected {@code version}, {@code status: "RESUMING"} and the {@code leaseOwner}, and which
 * {@code $set}s {@code leaseExpiresAt} and {@code $inc}s {@code version}: the payload is neither
 * read nor sent. {@link #now()} is the server's {@code localTime} from the {@code hello} command
 * ({@code isMaster} on servers that do not know {@code hello}); on a sharded cluster it is the
 * clock of the {@code mongos} the client talks to.
 *
 * <p>A page and its total come from one pass over the matches: see {@link #list(RunQuery)}. With
 * {@link Builder#buckets(int)} N &gt; 1 each run also carries {@code bucket} (its thread's), which spreads one
 * agent over N index ranges, and over the shards of a collection sharded on {@code {agentId, bucket, createdAt}}.
 *
 * <p>Thread memory ({@link #memory()}) lives in two more collections named after this one; see
 * {@code docs/stores/mongodb.md}.
 *
 * <p>Capabilities: {@link StoreCapability#SHARED}, {@link StoreCapability#DURABLE},
 * {@link StoreCapability#STORE_CLOCK}, {@link StoreCapability#THREAD_MEMORY} and
 * {@link StoreCapability#DECISIONS} (the audit trail, in {@code <runs>_decisions}; see {@link MongoDecisions}
 * for how a record is written atomically with its run's change without transactions).
 *
 * <p>Thread-safe: one store (and its {@link #memory()}) serves every thread of a process, on the
 * client's connection pool. Whoever opened the store closes it: {@link #close()} closes a client the
 * store opened from a URL, never one passed to {@link #builder}. Driver failures are
 * {@link StorageException}s naming the database, the collection and the run or thread.
 */
public final class MongoSnapshotStore implements SnapshotStore {

    /** The collection used when none is configured. */
    public static final String DEFAULT_COLLECTION = "baton_runs";

    /** The database a {@code mongodb://} URL without a path uses. */
    public static final String DEFAULT_DATABASE = "baton";

    /** MongoDB's error code for a duplicate key (E11000). */
    static final int DUPLICATE_KEY = 11000;
    /** MongoDB's error code for a command the server does not know. */
    static final int COMMAND_NOT_FOUND = 59;

    private final MongoAccess access;
    private final MongoCollection<Document> collection;
    private final MongoClock clock;
    private final MongoRunListing listing;
    private final MongoMemoryStore memory;
    private final MongoDecisions decisions;
    private final MongoRunWrites writes;
    private final @Nullable MongoClient ownedClient;

    private MongoSnapshotStore(MongoClient client, boolean owned, String database, String collectionName,
                               String description, WriteConcernLevel writeConcern, int buckets) {
        this.ownedClient = owned ? client : null;
        this.access = new MongoAccess(description);
        MongoCollections collections = MongoCollections.open(access, client, database, collectionName, writeConcern, buckets);
        this.collection = collections.runs();
        this.clock = new MongoClock(access, collections.admin());
        this.listing = new MongoRunListing(access, collection, buckets);
        this.memory = new MongoMemoryStore(access, collections.threads(), collections.messages());
        this.decisions = new MongoDecisions(access, collection, collections.decisions(), buckets);
        this.writes = new MongoRunWrites(access, collection, decisions, buckets);
        decisions.catchUp();
    }

    /**
     * Starts a store on {@code client}, which the application owns: the store never closes it.
     * Timeouts are the client's own; configure server selection, connect and socket timeouts on it.
     *
     * @param client   the application's client
     * @param database the database name, e.g. {@code "app"}
     * @return a builder; {@link Builder#build()} opens the store
     * @throws InvalidOptionException if the database name is empty or contains {@code $} or NUL
     */
    public static Builder builder(MongoClient client, String database) {
        return new Builder(client, database);
    }

    /** Opens a store on a client the store owns and closes. Used by the provider. */
    static MongoSnapshotStore openOwned(MongoClient client, String database, String collection, String description,
                                        WriteConcernLevel writeConcern, int buckets) {
        try {
            return new MongoSnapshotStore(client, true, database, collection, description, writeConcern, buckets);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** Builds a {@link MongoSnapshotStore} on an application-owned {@link MongoClient}. Not thread-safe: one thread builds a store. */
    public static final class Builder {
        private final MongoClient client;
        private final String database;
        private String collection = DEFAULT_COLLECTION;
        private WriteConcernLevel writeConcern = WriteConcernLevel.MAJORITY;
        private int buckets = 1;

        private Builder(MongoClient client, String database) {
            this.client = Objects.requireNonNull(client, "client");
            this.database = checkName("database", database);
        }

        /**
         * The collection holding the runs; default {@value MongoSnapshotStore#DEFAULT_COLLECTION}. The
         * thread memory's collections are named after it.
         *
         * @param collection the collection's name
         * @return this builder
         * @throws InvalidOptionException if the name is empty or contains {@code $} or NUL
         */
        public Builder collection(String collection) {
            this.collection = checkName("collection", collection);
            return this;
        }

        /**
         * The least every write asks for; default {@link WriteConcernLevel#MAJORITY}. The client's
         * own write concern is kept where it asks for at least as much.
         *
         * @param writeConcern the least every write asks for
         * @return this builder
         */
        public Builder writeConcern(WriteConcernLevel writeConcern) {
            this.writeConcern = Objects.requireNonNull(writeConcern, "writeConcern");
            return this;
        }

        /**
         * How many buckets spread each agent's runs; default 1 (no {@code bucket} field, the layout of a store
         * without this option). With N &gt; 1 every run document carries {@code bucket}, CRC-32 of its
         * threadId's UTF-8 bytes (of its runId without a thread) mod N, so that a thread's runs share one;
         * agent and resource listings read each bucket and merge, a thread's reads its one bucket. Every store
         * on a collection must use the same N: the first one to open with another N re-buckets every run
         * (see {@code docs/stores/mongodb.md}, "Past one server").
         *
         * @param buckets from 1 to 1024
         * @return this builder
         * @throws InvalidOptionException if {@code buckets} is outside [1, 1024]
         */
        public Builder buckets(int buckets) {
            this.buckets = MongoBuckets.check(buckets);
            return this;
        }

        /**
         * Opens the store and creates its indexes if missing; re-buckets the runs if they were bucketed with
         * another count than {@link #buckets(int)}.
         *
         * @return the store, open
         * @throws StorageException if the server cannot be reached or refuses the indexes
         */
        public MongoSnapshotStore build() {
            return new MongoSnapshotStore(client, false, database, collection,
                    "MongoDB " + database + "." + collection + " (application client)", writeConcern, buckets);
        }
    }

    /** {@code name} if MongoDB accepts it as a database or collection name, else an {@link InvalidOptionException} for {@code option}. */
    static String checkName(String option, @Nullable String name) {
        if (name == null || name.isBlank()) throw new InvalidOptionException(option, "must not be empty");
        if (name.indexOf('$') >= 0 || name.indexOf('\0') >= 0) {
            throw new InvalidOptionException(option, "must not contain '$' or NUL, was '" + name + "'");
        }
        return name;
    }

    @Override
    public boolean insert(RunSnapshot snapshot) {
        return writes.insert(snapshot, true);
    }

    @Override
    public Optional<RunSnapshot> find(String runId) {
        return writes.find(runId);
    }

    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot replacement) {
        return writes.compareAndSet(expectedVersion, replacement);
    }

    /**
     * The compare-and-set's one {@code findOneAndUpdate}, which also pushes the records onto the run document's
     * pending list; then the records are copied to {@code <runs>_decisions} (see {@link MongoDecisions}).
     */
    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot replacement, List<DecisionRecord> decisions) {
        MongoDecisions.checkRecords(replacement.agentId(), replacement.runId(), decisions);
        return this.decisions.compareAndSet(replacement.runId(), writes.casFilter(expectedVersion, replacement),
                RunDocuments.replacing(replacement), decisions);
    }

    /** One {@code findOneAndReplace} of the run by a tombstone holding the records, which are then copied out. */
    @Override
    public boolean delete(String runId, long expectedVersion, List<DecisionRecord> decisions) {
        Objects.requireNonNull(runId, "runId");
        MongoDecisions.checkRecords(decisions.isEmpty() ? "" : decisions.get(0).agentId(), runId, decisions);
        return this.decisions.delete(runId, expectedVersion, decisions);
    }

    /** One {@code find} on the index of the query's shape, newest first, {@code limit + 1} documents. */
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

    /**
     * One {@code updateOne}: filter {@code {_id, version, status: "RESUMING", leaseOwner}}, update
     * {@code $set leaseExpiresAt, $inc version}. The payload is neither read nor sent.
     */
    @Override
    public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        return writes.renewLease(runId, expectedVersion, owner, newExpiry);
    }

    /**
     * The server's clock: {@code localTime} of the {@code hello} command (of {@code isMaster} on a
     * server that does not know {@code hello}), in milliseconds.
     */
    @Override
    public Instant now() {
        return clock.now();
    }

    /**
     * {@link QueryFeature#BASELINE} and {@link QueryFeature#DECIDERS}: the deciders filter on the run document's
     * {@code deciders} array and the multikey index {@code baton_agent_deciders_created}.
     */
    @Override
    public Set<QueryFeature> queryFeatures() {
        return Set.of(QueryFeature.BASELINE, QueryFeature.DECIDERS);
    }

    /** Shared, durable, with the server's clock, thread memory, decisions and notifications. */
    @Override
    public Set<StoreCapability> capabilities() {
        return Set.of(StoreCapability.SHARED, StoreCapability.DURABLE, StoreCapability.STORE_CLOCK,
                StoreCapability.THREAD_MEMORY, StoreCapability.DECISIONS, StoreCapability.NOTIFICATIONS);
    }

    /**
     * The thread memory in the same database, on this store's client: collections {@code <runs>_threads} and
     * {@code <runs>_messages} (see {@link MongoMemoryStore}).
     */
    @Override
    public Optional<MemoryStore> memory() {
        access.checkOpen("memory");
        return Optional.of(memory);
    }

    /** {@return the write concern of every write of this store: the client's, or the {@link WriteConcernLevel} asked for} */
    public WriteConcern writeConcern() {
        return collection.getWriteConcern();
    }

    @Override
    public boolean delete(String runId, long expectedVersion) {
        return writes.delete(runId, expectedVersion);
    }

    /**
     * One {@code find} for the page; when the page alone cannot tell the total (it is full, or
     * starts past the end, or follows a cursor), one {@code aggregate} that counts the matches and
     * names the page's runs ({@code _id} and {@code version}) in the same pass:
     * {@code [$match, $sort, $facet {page: [$match cursor, $skip, $limit, $project], total: [$count]}]}.
     * The page is returned with that total only if the aggregate names exactly the runs, at exactly
     * the versions, the find returned: then page and total describe the same matches. If a write
     * landed in between, both are read again (at most {@value MongoRunListing#LIST_ATTEMPTS} times
     * in all; after that the last page is returned with the last count). The aggregate carries no
     * payloads, so it stays far below the 16 MB a {@code $facet} result may have.
     *
     * <p>A cursor ({@link RunQuery#after()}) is the range {@code createdAt <= c} on the same index,
     * the ties at {@code c} kept only below the cursor's runId: {@code createdAt < c or _id < runId},
     * a condition on the index's own keys. Without payloads the find projects the payload away
     * (the summary is what a listing shows), so listing cost does not grow with snapshot size.
     *
     * <p>With {@link Builder#buckets(int) buckets} N &gt; 1, an agent's or resource's listing does the above once
     * per bucket ({@code bucket: b} added to the filter, from 0 with {@code offset + limit} runs), and merges the
     * N pages in listing order: the page is the merge from {@code offset}, the total the sum of the buckets'.
     * A thread's listing is one such query on the thread's bucket.
     */
    @Override
    public RunPage list(RunQuery query) {
        return listing.list(query);
    }

    /**
     * One {@code find} on the index {@code {agentId, expiresAt, _id}}: {@code expiresAt <= now}, effectively
     * suspended at {@code now}, in deadline order, limited; payloads left out as in a listing without them.
     */
    @Override
    public List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        return listing.listDue(agentId, now, limit);
    }

    /** One {@code find} on the index {@code {agentId, notifyAt, _id}}: {@code notifyAt <= now}, oldest first, limited. */
    @Override
    public List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        return listing.listNotificationsDue(agentId, now, limit);
    }

    /** One {@code updateOne}: filter {@code {_id, version, notifyAt}}, update {@code $set notifyAt, notifyState}; the version stays. */
    @Override
    public boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt, @Nullable Instant notifyAt,
            @Nullable String notifyState) {
        return writes.updateNotification(runId, expectedVersion, expectedNotifyAt, notifyAt, notifyState);
    }

    @Override
    public String describe() {
        return access.description;
    }

    /** The listing, for tests that make a write land between a page and its count. */
    MongoRunListing listing() {
        return listing;
    }

    /**
     * Closes the client if the store opened it from a URL; a client passed to {@link #builder} stays
     * open. Idempotent; every later call on this store fails with a {@link StorageException}.
     */
    @Override
    public void close() {
        if (!access.close()) return;
        if (ownedClient != null) ownedClient.close();
    }
}
