package dev.baton.store.mongo;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.gt;
import static com.mongodb.client.model.Filters.gte;
import static com.mongodb.client.model.Filters.in;
import static com.mongodb.client.model.Filters.lt;
import static com.mongodb.client.model.Filters.lte;
import static com.mongodb.client.model.Filters.or;

import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteException;
import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Facet;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexModel;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.baton.InvalidOptionException;
import dev.baton.SnapshotFormatException;
import dev.baton.StorageException;
import dev.baton.agent.RunStatus;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.bson.Document;
import org.bson.conversions.Bson;
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
 * <p>A page and its total come from one pass over the matches: see {@link #list(RunQuery)}.
 *
 * <p>Thread memory ({@link #memory()}) lives in two more collections named after this one; see
 * {@code docs/stores/mongodb.md}.
 *
 * <p>Capabilities: {@link StoreCapability#SHARED}, {@link StoreCapability#DURABLE},
 * {@link StoreCapability#STORE_CLOCK} and {@link StoreCapability#THREAD_MEMORY}.
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
    /** How often a listing reads its page again when a write landed between the page and its count. */
    static final int LIST_ATTEMPTS = 3;

    /** Index names, fixed so that reopening finds (and does not duplicate) them. */
    static final String INDEX_AGENT = "baton_agent_created";
    static final String INDEX_AGENT_THREAD = "baton_agent_thread_created";
    static final String INDEX_AGENT_RESOURCE = "baton_agent_resource_created";
    static final String INDEX_AGENT_THREAD_RESOURCE = "baton_agent_thread_resource_created";
    static final String INDEX_AGENT_EXPIRES = "baton_agent_expires";

    /** The thread memory's collections are named after the runs' collection: {@code <runs>_threads}, {@code <runs>_messages}. */
    static final String THREADS_SUFFIX = "_threads";
    static final String MESSAGES_SUFFIX = "_messages";

    static final String ID = "_id";
    static final String AGENT_ID = "agentId";
    static final String STATUS = "status";
    static final String THREAD_ID = "threadId";
    static final String RESOURCE_ID = "resourceId";
    static final String CREATED_AT = "createdAt";
    static final String SUSPENDED_AT = "suspendedAt";
    static final String VERSION = "version";
    static final String LEASE_OWNER = "leaseOwner";
    static final String LEASE_EXPIRES_AT = "leaseExpiresAt";
    static final String PAYLOAD = "payload";
    static final String EXPIRES_AT = "expiresAt";
    static final String SUMMARY = "summary";

    private static final Bson ORDER = Sorts.orderBy(Sorts.descending(CREATED_AT), Sorts.descending(ID));
    private static final Bson DUE_ORDER = Sorts.orderBy(Sorts.ascending(EXPIRES_AT), Sorts.ascending(ID));

    /**
     * Every field of a run, named. Reads ask for exactly these: fields someone else added stay on
     * the server, and the in-JVM test server (mongo-java-server), which otherwise encodes its
     * live document while a concurrent update rewrites it field by field, copies the projected
     * fields under its collection lock, so that a read never sees half an update.
     */
    private static final Bson FIELDS = Projections.include(ID, AGENT_ID, STATUS, THREAD_ID, RESOURCE_ID, CREATED_AT,
            SUSPENDED_AT, VERSION, LEASE_OWNER, LEASE_EXPIRES_AT, PAYLOAD, EXPIRES_AT, SUMMARY);

    /** Every field but the payload: what a listing without payloads reads. */
    private static final Bson FIELDS_WITHOUT_PAYLOAD = Projections.include(ID, AGENT_ID, STATUS, THREAD_ID, RESOURCE_ID,
            CREATED_AT, SUSPENDED_AT, VERSION, LEASE_OWNER, LEASE_EXPIRES_AT, EXPIRES_AT, SUMMARY);

    private final MongoCollection<Document> collection;
    private final MongoMemoryStore memory;
    private final MongoDatabase admin;
    private final @Nullable MongoClient ownedClient;
    private final String description;
    /** False once the server answered that it does not know {@code hello}: ask {@code isMaster} instead. */
    private volatile boolean helloKnown = true;
    /** Called between a listing's page and its count; for tests that make a write land there. */
    volatile @Nullable Runnable betweenPageAndCount;
    private volatile boolean closed;

    private MongoSnapshotStore(MongoClient client, boolean owned, String database, String collectionName,
                               String description, WriteConcernLevel writeConcern) {
        this.ownedClient = owned ? client : null;
        this.description = description;
        MongoCollection<Document> c = client.getDatabase(database).getCollection(collectionName)
                // the user's client may carry a codec registry that maps Date or String differently
                .withCodecRegistry(MongoClientSettings.getDefaultCodecRegistry())
                .withReadPreference(ReadPreference.primary());
        // never unacknowledged: an unacknowledged insert cannot report a duplicate key, nor an update its match count
        this.collection = c.withWriteConcern(writeConcern.applyTo(c.getWriteConcern()));
        this.admin = client.getDatabase("admin").withCodecRegistry(MongoClientSettings.getDefaultCodecRegistry());
        MongoCollection<Document> threads = sibling(client, database, collectionName + THREADS_SUFFIX);
        MongoCollection<Document> messages = sibling(client, database, collectionName + MESSAGES_SUFFIX);
        this.memory = new MongoMemoryStore(this::run, threads, messages, description);
        createIndexes(collection, indexModels());
        createIndexes(threads, MongoMemoryStore.threadIndexes());
        createIndexes(messages, MongoMemoryStore.messageIndexes());
    }

    /** Another collection of the store's database, with the same codecs, read preference and write concern as the runs. */
    private MongoCollection<Document> sibling(MongoClient client, String database, String name) {
        return client.getDatabase(database).getCollection(name)
                .withCodecRegistry(MongoClientSettings.getDefaultCodecRegistry())
                .withReadPreference(ReadPreference.primary())
                .withWriteConcern(collection.getWriteConcern());
    }

    /**
     * Starts a store on {@code client}, which the application owns: the store never closes it.
     * Timeouts are the client's own; configure server selection, connect and socket timeouts on it.
     *
     * @param database the database name, e.g. {@code "app"}
     */
    public static Builder builder(MongoClient client, String database) {
        return new Builder(client, database);
    }

    /** Opens a store on a client the store owns and closes. Used by the provider. */
    static MongoSnapshotStore openOwned(MongoClient client, String database, String collection, String description,
                                        WriteConcernLevel writeConcern) {
        try {
            return new MongoSnapshotStore(client, true, database, collection, description, writeConcern);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** Builds a {@link MongoSnapshotStore} on an application-owned {@link MongoClient}. */
    public static final class Builder {
        private final MongoClient client;
        private final String database;
        private String collection = DEFAULT_COLLECTION;
        private WriteConcernLevel writeConcern = WriteConcernLevel.MAJORITY;

        private Builder(MongoClient client, String database) {
            this.client = Objects.requireNonNull(client, "client");
            this.database = checkName("database", database);
        }

        /** The collection holding the runs; default {@value MongoSnapshotStore#DEFAULT_COLLECTION}. */
        public Builder collection(String collection) {
            this.collection = checkName("collection", collection);
            return this;
        }

        /**
         * The least every write asks for; default {@link WriteConcernLevel#MAJORITY}. The client's
         * own write concern is kept where it asks for at least as much.
         */
        public Builder writeConcern(WriteConcernLevel writeConcern) {
            this.writeConcern = Objects.requireNonNull(writeConcern, "writeConcern");
            return this;
        }

        /**
         * Opens the store and creates its indexes if missing.
         *
         * @throws StorageException if the server cannot be reached or refuses the indexes
         */
        public MongoSnapshotStore build() {
            return new MongoSnapshotStore(client, false, database, collection,
                    "MongoDB " + database + "." + collection + " (application client)", writeConcern);
        }
    }

    static String checkName(String option, @Nullable String name) {
        if (name == null || name.isBlank()) throw new InvalidOptionException(option, "must not be empty");
        if (name.indexOf('$') >= 0 || name.indexOf('\0') >= 0) {
            throw new InvalidOptionException(option, "must not contain '$' or NUL, was '" + name + "'");
        }
        return name;
    }

    /** The index specifications, in the order they are created; equality fields first, then the listing order. */
    static List<IndexModel> indexModels() {
        Bson order = Indexes.compoundIndex(Indexes.descending(CREATED_AT), Indexes.descending(ID));
        return List.of(
                new IndexModel(Indexes.compoundIndex(Indexes.ascending(AGENT_ID), order),
                        new IndexOptions().name(INDEX_AGENT)),
                new IndexModel(Indexes.compoundIndex(Indexes.ascending(AGENT_ID, THREAD_ID), order),
                        new IndexOptions().name(INDEX_AGENT_THREAD)),
                new IndexModel(Indexes.compoundIndex(Indexes.ascending(AGENT_ID, RESOURCE_ID), order),
                        new IndexOptions().name(INDEX_AGENT_RESOURCE)),
                new IndexModel(Indexes.compoundIndex(Indexes.ascending(AGENT_ID, THREAD_ID, RESOURCE_ID), order),
                        new IndexOptions().name(INDEX_AGENT_THREAD_RESOURCE)),
                // listDue: a range on expiresAt in the agent's part, in deadline order with the runId tie-break,
                // so the limit stops the scan (no sort of every due run)
                new IndexModel(Indexes.ascending(AGENT_ID, EXPIRES_AT, ID), new IndexOptions().name(INDEX_AGENT_EXPIRES)));
    }

    private void createIndexes(MongoCollection<Document> collection, List<IndexModel> wanted) {
        // createIndexes with the same names and keys is a no-op on the server, so every open may do it
        run("creating the indexes", null, () -> collection.createIndexes(wanted));
        // MongoDB refuses a same-named index with other keys above; check anyway, since not every
        // server that speaks the protocol does, and a wrong index would silently cost every query
        Map<String, List<Document>> found = new HashMap<>();
        run("listing the indexes", null, () -> {
            for (Document index : collection.listIndexes()) {
                found.computeIfAbsent(index.getString("name"), n -> new ArrayList<>()).add(index.get("key", Document.class));
            }
            return found;
        });
        for (IndexModel m : wanted) {
            String name = Objects.requireNonNull(m.getOptions().getName());
            Document expected = Document.parse(m.getKeys().toBsonDocument().toJson());
            List<Document> actual = found.getOrDefault(name, List.of());
            if (actual.isEmpty() || !actual.stream().allMatch(a -> sameKeys(expected, a))) {
                throw new StorageException(description + ": the indexes do not match: the collection "
                        + collection.getNamespace().getCollectionName() + " has an index named "
                        + name + " with keys " + (actual.isEmpty() ? "(missing)" : actual.stream().map(Document::toJson).toList())
                        + " instead of " + expected.toJson() + "; drop it so that the store can create its own");
            }
        }
    }

    /** Same fields in the same order and directions, whatever numeric type the server returns them as. */
    private static boolean sameKeys(Document expected, Document actual) {
        if (!new ArrayList<>(expected.keySet()).equals(new ArrayList<>(actual.keySet()))) return false;
        for (String field : expected.keySet()) {
            Object a = actual.get(field);
            if (!(a instanceof Number n) || n.intValue() != ((Number) expected.get(field)).intValue()) return false;
        }
        return true;
    }

    @Override
    public boolean insert(RunSnapshot snapshot) {
        checkOpen("insert");
        Document doc = toDocument(snapshot);
        try {
            collection.insertOne(doc);
            return true;
        } catch (MongoWriteException e) {
            // _id is the only unique index, so a duplicate key means exactly "this run exists"
            if (e.getError().getCode() == DUPLICATE_KEY) {
                return false;
            }
            throw failure("insert", snapshot.runId(), e);
        } catch (MongoException e) {
            throw failure("insert", snapshot.runId(), e);
        }
    }

    @Override
    public Optional<RunSnapshot> find(String runId) {
        Document doc = run("find", runId, () -> collection.find(eq(ID, runId)).projection(FIELDS).first());
        return Optional.ofNullable(doc).map(MongoSnapshotStore::fromDocument);
    }

    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot replacement) {
        Bson filter = and(eq(ID, replacement.runId()), eq(VERSION, expectedVersion));
        // runId, agentId, threadId, resourceId and createdAt never change (SPI contract): set only the rest
        Bson update = Updates.combine(
                Updates.set(STATUS, replacement.status().name()),
                Updates.set(SUSPENDED_AT, Date.from(replacement.suspendedAt())),
                Updates.set(VERSION, replacement.version()),
                Updates.set(LEASE_OWNER, replacement.leaseOwner()),
                Updates.set(LEASE_EXPIRES_AT, date(replacement.leaseExpiresAt())),
                Updates.set(PAYLOAD, replacement.payload()),
                Updates.set(EXPIRES_AT, date(replacement.expiresAt())),
                Updates.set(SUMMARY, replacement.summary()));
        // the projection keeps the (possibly megabytes large) old payload off the wire
        FindOneAndUpdateOptions options = new FindOneAndUpdateOptions().projection(Projections.include(ID));
        Document before = run("compare-and-set", replacement.runId(),
                () -> collection.findOneAndUpdate(filter, update, options));
        return before != null;
    }

    /**
     * One {@code updateOne}: filter {@code {_id, version, status: "RESUMING", leaseOwner}}, update
     * {@code $set leaseExpiresAt, $inc version}. The payload is neither read nor sent.
     */
    @Override
    public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(owner, "owner");
        Bson filter = and(eq(ID, runId), eq(VERSION, expectedVersion), eq(STATUS, RunStatus.RESUMING.name()),
                eq(LEASE_OWNER, owner));
        Bson update = Updates.combine(Updates.set(LEASE_EXPIRES_AT, Date.from(newExpiry)), Updates.inc(VERSION, 1L));
        long matched = run("lease renewal", runId, () -> collection.updateOne(filter, update).getMatchedCount());
        return matched == 1;
    }

    /**
     * The server's clock: {@code localTime} of the {@code hello} command (of {@code isMaster} on a
     * server that does not know {@code hello}), in milliseconds.
     */
    @Override
    public Instant now() {
        Document reply = run("reading the clock", null, () -> {
            if (helloKnown) {
                try {
                    return admin.runCommand(new Document("hello", 1), ReadPreference.primary());
                } catch (MongoCommandException e) {
                    if (e.getErrorCode() != COMMAND_NOT_FOUND) throw e;
                    helloKnown = false;
                }
            }
            return admin.runCommand(new Document("isMaster", 1), ReadPreference.primary());
        });
        Object localTime = reply.get("localTime");
        if (!(localTime instanceof Date date)) {
            throw new StorageException(description + ": the server's hello reply has no localTime (" + localTime + ")");
        }
        return date.toInstant();
    }

    /** Shared, durable, with the server's clock and thread memory. */
    @Override
    public Set<StoreCapability> capabilities() {
        return Set.of(StoreCapability.SHARED, StoreCapability.DURABLE, StoreCapability.STORE_CLOCK,
                StoreCapability.THREAD_MEMORY);
    }

    /**
     * The thread memory in the same database, on this store's client: collections {@code <runs>_threads} and
     * {@code <runs>_messages} (see {@link MongoMemoryStore}).
     */
    @Override
    public Optional<dev.baton.memory.MemoryStore> memory() {
        checkOpen("memory");
        return Optional.of(memory);
    }

    /** The write concern of every write of this store: the client's, or the {@link WriteConcernLevel} asked for. */
    public WriteConcern writeConcern() {
        return collection.getWriteConcern();
    }

    @Override
    public boolean delete(String runId, long expectedVersion) {
        long deleted = run("delete", runId,
                () -> collection.deleteOne(and(eq(ID, runId), eq(VERSION, expectedVersion))).getDeletedCount());
        return deleted == 1;
    }

    /**
     * One {@code find} for the page; when the page alone cannot tell the total (it is full, or
     * starts past the end, or follows a cursor), one {@code aggregate} that counts the matches and
     * names the page's runs ({@code _id} and {@code version}) in the same pass:
     * {@code [$match, $sort, $facet {page: [$match cursor, $skip, $limit, $project], total: [$count]}]}.
     * The page is returned with that total only if the aggregate names exactly the runs, at exactly
     * the versions, the find returned: then page and total describe the same matches. If a write
     * landed in between, both are read again (at most {@value #LIST_ATTEMPTS} times in all; after
     * that the last page is returned with the last count). The aggregate carries no payloads, so it
     * stays far below the 16 MB a {@code $facet} result may have.
     *
     * <p>A cursor ({@link RunQuery#after()}) is the range {@code createdAt <= c} on the same index,
     * the ties at {@code c} kept only below the cursor's runId: {@code createdAt < c or _id < runId},
     * a condition on the index's own keys. Without payloads the find projects the payload away,
     * and reads it in one more {@code find} by {@code _id} only for the page's runs that have no
     * summary (stored by Baton 0.1).
     */
    @Override
    public RunPage list(RunQuery query) {
        checkOpen("list");
        if (query.emptyDateRange()) return new RunPage(List.of(), 0);
        Bson filter = filter(query);
        Integer limit = query.limit();
        if (limit != null && limit == 0) {
            // MongoDB reads limit(0) as "no limit": a count-only query must not run a find at all
            return new RunPage(List.of(), count(filter));
        }
        long offset = query.offset();
        if (offset > Integer.MAX_VALUE) {
            long total = count(filter);
            if (offset >= total) return new RunPage(List.of(), total);
            throw new InvalidOptionException("offset", "at most " + Integer.MAX_VALUE + " on MongoDB, was " + offset);
        }
        RunQuery.After after = query.after();
        Bson cursor = after == null ? null : after(after);
        Bson pageFilter = cursor == null ? filter : and(filter, cursor);
        boolean withPayload = query.withPayload();
        if (limit == null && cursor != null) {
            // every run after the cursor (core always pages; a rare call): the page, then the total
            List<RunSnapshot> items = page(pageFilter, 0, null, withPayload);
            return new RunPage(items, count(filter));
        }
        List<RunSnapshot> items = List.of();
        long total = 0;
        for (int attempt = 1; attempt <= LIST_ATTEMPTS; attempt++) {
            items = page(pageFilter, offset, limit, withPayload);
            if (limit == null) return new RunPage(items, items.size());
            if (cursor == null && items.size() < limit && (!items.isEmpty() || offset == 0)) {
                // a short page that starts inside the matches ends at the last match: no count needed
                return new RunPage(items, offset + items.size());
            }
            Runnable hook = betweenPageAndCount;
            if (hook != null) hook.run();
            Document facet = facet(filter, cursor, (int) offset, limit);
            total = facetTotal(facet);
            if (samePage(items, facet)) return new RunPage(items, total);
        }
        // still changing under the listing: the last page, and a total that at least covers it
        return new RunPage(items, items.isEmpty() || cursor != null ? total : Math.max(total, offset + items.size()));
    }

    /** The runs strictly after {@code a} in listing order: a range on the listing indexes. */
    static Bson after(RunQuery.After a) {
        Date c = Date.from(a.createdAt());
        return and(lte(CREATED_AT, c), or(lt(CREATED_AT, c), lt(ID, a.runId())));
    }

    private List<RunSnapshot> page(Bson filter, long offset, @Nullable Integer limit, boolean withPayload) {
        List<RunSnapshot> items = run("list", null, () -> {
            FindIterable<Document> find = collection.find(filter).projection(withPayload ? FIELDS : FIELDS_WITHOUT_PAYLOAD)
                    .sort(ORDER);
            if (limit != null) find = find.skip((int) offset).limit(limit);
            List<RunSnapshot> out = new ArrayList<>();
            for (Document d : find) out.add(fromDocument(d, withPayload));
            return out;
        });
        return withPayload ? items : withLegacyPayloads(items);
    }

    /**
     * The runs without payloads, except that a run without a summary (stored by Baton 0.1) gets its
     * payload, read by {@code _id} in one {@code find} for all of them; none on a store Baton 0.2 wrote.
     */
    private List<RunSnapshot> withLegacyPayloads(List<RunSnapshot> items) {
        List<String> legacy = items.stream().filter(r -> r.summary() == null).map(RunSnapshot::runId).toList();
        if (legacy.isEmpty()) return items;
        Map<String, String> payloads = new HashMap<>();
        run("list", null, () -> {
            for (Document d : collection.find(in(ID, legacy)).projection(Projections.include(ID, PAYLOAD))) {
                payloads.put(d.getString(ID), d.getString(PAYLOAD));
            }
            return payloads;
        });
        List<RunSnapshot> out = new ArrayList<>(items.size());
        for (RunSnapshot r : items) {
            String payload = r.summary() == null ? payloads.get(r.runId()) : null;
            out.add(payload == null ? r : new RunSnapshot(r.runId(), r.agentId(), r.status(), r.threadId(), r.resourceId(),
                    r.createdAt(), r.suspendedAt(), r.version(), r.leaseOwner(), r.leaseExpiresAt(), payload, r.expiresAt(),
                    r.summary()));
        }
        return out;
    }

    /** The total and the page's {@code _id}s and versions, from one pass over the matches. */
    private Document facet(Bson filter, @Nullable Bson cursor, int offset, int limit) {
        List<Bson> page = new ArrayList<>(4);
        if (cursor != null) page.add(Aggregates.match(cursor));
        if (offset > 0) page.add(Aggregates.skip(offset));
        page.add(Aggregates.limit(limit));
        page.add(Aggregates.project(Projections.include(ID, VERSION)));
        List<Bson> pipeline = List.of(Aggregates.match(filter), Aggregates.sort(ORDER),
                Aggregates.facet(new Facet("page", page), new Facet("total", Aggregates.count("n"))));
        Document result = run("list", null, () -> collection.aggregate(pipeline).first());
        return result == null ? new Document() : result;
    }

    private static long facetTotal(Document facet) {
        List<?> total = facet.getList("total", Object.class, List.of());
        if (total.isEmpty()) return 0;
        return ((Document) total.get(0)).get("n", Number.class).longValue();
    }

    /** True when the aggregate's page names exactly these runs, in this order, at these versions. */
    private static boolean samePage(List<RunSnapshot> items, Document facet) {
        List<?> page = facet.getList("page", Object.class, List.of());
        if (page.size() != items.size()) return false;
        for (int i = 0; i < items.size(); i++) {
            Document d = (Document) page.get(i);
            Number version = d.get(VERSION, Number.class);
            if (!items.get(i).runId().equals(d.get(ID)) || version == null || version.longValue() != items.get(i).version()) {
                return false;
            }
        }
        return true;
    }

    /**
     * One {@code find} on the index {@code {agentId, expiresAt, _id}}: {@code expiresAt <= now}, effectively
     * suspended at {@code now}, in deadline order, limited; payloads left out as in a listing without them.
     */
    @Override
    public List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        checkOpen("listDue");
        if (limit == 0) return List.of();
        Date at = Date.from(now);
        Bson filter = and(eq(AGENT_ID, agentId), lte(EXPIRES_AT, at), suspendedAt(at));
        List<RunSnapshot> items = run("listDue", null, () -> {
            List<RunSnapshot> out = new ArrayList<>();
            for (Document d : collection.find(filter).projection(FIELDS_WITHOUT_PAYLOAD).sort(DUE_ORDER).limit(limit)) {
                out.add(fromDocument(d, false));
            }
            return out;
        });
        return withLegacyPayloads(items);
    }

    private long count(Bson filter) {
        return run("count", null, () -> collection.countDocuments(filter));
    }

    /**
     * The query as one server-side filter. Every user value is a BSON value under a fixed field
     * name ({@code Filters.eq} with a string), so ids such as {@code $ne} or {@code a.b} are
     * matched literally and never read as operators or paths.
     */
    static Bson filter(RunQuery q) {
        List<Bson> parts = new ArrayList<>(6);
        parts.add(eq(AGENT_ID, q.agentId()));
        if (q.threadId() != null) parts.add(eq(THREAD_ID, q.threadId()));
        if (q.resourceId() != null) parts.add(eq(RESOURCE_ID, q.resourceId()));
        if (q.createdFrom() != null) parts.add(gte(CREATED_AT, Date.from(q.createdFrom())));
        if (q.createdTo() != null) parts.add(lte(CREATED_AT, Date.from(q.createdTo())));
        Date now = Date.from(q.now());
        if (q.status() == RunStatus.SUSPENDED) {
            parts.add(suspendedAt(now));
        } else if (q.status() == RunStatus.RESUMING) {
            parts.add(eq(STATUS, RunStatus.RESUMING.name()));
            parts.add(gt(LEASE_EXPIRES_AT, now));
        }
        return and(parts);
    }

    /**
     * Effective status SUSPENDED at {@code now}: suspended, or resuming with a lease that has lapsed
     * ({@code leaseExpiresAt <= now}); the status guard keeps the date comparison away from the null
     * lease of suspended runs.
     */
    private static Bson suspendedAt(Date now) {
        return or(eq(STATUS, RunStatus.SUSPENDED.name()), and(eq(STATUS, RunStatus.RESUMING.name()), lte(LEASE_EXPIRES_AT, now)));
    }

    static Document toDocument(RunSnapshot s) {
        return new Document(ID, s.runId())
                .append(AGENT_ID, s.agentId())
                .append(STATUS, s.status().name())
                .append(THREAD_ID, s.threadId())
                .append(RESOURCE_ID, s.resourceId())
                .append(CREATED_AT, Date.from(s.createdAt()))
                .append(SUSPENDED_AT, Date.from(s.suspendedAt()))
                .append(VERSION, s.version())
                .append(LEASE_OWNER, s.leaseOwner())
                .append(LEASE_EXPIRES_AT, date(s.leaseExpiresAt()))
                .append(PAYLOAD, s.payload())
                .append(EXPIRES_AT, date(s.expiresAt()))
                .append(SUMMARY, s.summary());
    }

    /**
     * Reads a run document back.
     *
     * @throws SnapshotFormatException if the document lacks a field or has one of the wrong type
     *         (written by something other than this store); it stays in the collection untouched
     */
    static RunSnapshot fromDocument(Document d) {
        return fromDocument(d, true);
    }

    /**
     * Reads a run document back; with {@code payloadRead} false, from a projection that left the payload out,
     * whose run then gets an empty payload.
     */
    static RunSnapshot fromDocument(Document d, boolean payloadRead) {
        try {
            if (!payloadRead && !d.containsKey(PAYLOAD)) d.put(PAYLOAD, "");
            return readDocument(d);
        } catch (RuntimeException e) {
            Object id = d.get(ID);
            throw new SnapshotFormatException(String.valueOf(id), "the MongoDB document is not a Baton run ("
                    + e + ")", e);
        }
    }

    private static RunSnapshot readDocument(Document d) {
        Date lease = d.getDate(LEASE_EXPIRES_AT);
        Date expires = d.getDate(EXPIRES_AT);
        return new RunSnapshot(
                d.getString(ID),
                d.getString(AGENT_ID),
                RunStatus.valueOf(d.getString(STATUS)),
                d.getString(THREAD_ID),
                d.getString(RESOURCE_ID),
                d.getDate(CREATED_AT).toInstant(),
                d.getDate(SUSPENDED_AT).toInstant(),
                d.get(VERSION, Number.class).longValue(),
                d.getString(LEASE_OWNER),
                lease == null ? null : lease.toInstant(),
                d.getString(PAYLOAD),
                expires == null ? null : expires.toInstant(),
                d.getString(SUMMARY));
    }

    private static @Nullable Date date(@Nullable Instant t) {
        return t == null ? null : Date.from(t);
    }

    private void checkOpen(String operation) {
        if (closed) throw new StorageException(description + " is closed; " + operation + " was not done");
    }

    private <T> T run(String operation, @Nullable String runId, Supplier<T> action) {
        checkOpen(operation);
        try {
            return action.get();
        } catch (MongoException e) {
            throw failure(operation, runId, e);
        }
    }

    private StorageException failure(String operation, @Nullable String runId, MongoException e) {
        return StorageException.failed(description, operation, runId, e.getMessage(), e);
    }

    @Override
    public String describe() {
        return description;
    }

    /**
     * Closes the client if the store opened it from a URL; a client passed to {@link #builder} stays
     * open. Idempotent; every later call on this store fails with a {@link StorageException}.
     */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        if (ownedClient != null) ownedClient.close();
    }
}
