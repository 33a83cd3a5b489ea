package dev.baton.bench;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.gte;
import static com.mongodb.client.model.Filters.lte;
import static com.mongodb.client.model.Filters.or;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.jspecify.annotations.Nullable;

/**
 * MongoDB: a real server from {@code BATON_TEST_MONGO_URL} if set, else the in-JVM
 * {@code mongo-java-server} (memory backend), whose numbers are <em>not representative</em>: it
 * has no query planner and filters, sorts and counts by scanning in Java. One collection per data
 * set ({@code baton_bench.runs_10k_2k}) in the store's document layout, filled with insertMany.
 */
final class MongoBackend extends Backend {
    static final String DATABASE = NAMESPACE;

    private final @Nullable MongoServer server;
    private final String url;
    private final MongoClient client;

    MongoBackend(@Nullable String url) {
        super("mongo");
        if (url == null || url.isBlank()) {
            server = new MongoServer(new MemoryBackend());
            InetSocketAddress a = server.bind();
            this.url = "mongodb://127.0.0.1:" + a.getPort() + "/" + DATABASE;
        } else {
            server = null;
            this.url = url;
        }
        client = MongoClients.create(this.url);
    }

    @Override
    public boolean representative() {
        return server == null;
    }

    String collection(DataSet d) {
        return "runs_" + d.tag();
    }

    private MongoDatabase db() {
        return client.getDatabase(DATABASE);
    }

    @Override
    public String describe() {
        Document info = db().runCommand(new Document("buildInfo", 1));
        return (server != null ? "mongo-java-server (in-JVM, memory backend; NOT representative), wire version "
                : "MongoDB ") + info.getString("version") + (server != null ? "" : " (" + SnapshotStores.redact(url) + ")");
    }

    @Override
    public SnapshotStore openStore(DataSet data) {
        // the store's URL names the database; a URL from the environment may name another one
        String u = server != null ? url : url.replaceFirst("(mongodb(\\+srv)?://[^/]+)(/[^?]*)?", "$1/" + DATABASE);
        return SnapshotStores.open(u, Map.of("collection", collection(data)));
    }

    @Override
    public SnapshotStore openMemoryStore(MemoryData data) {
        String u = server != null ? url : url.replaceFirst("(mongodb(\\+srv)?://[^/]+)(/[^?]*)?", "$1/" + DATABASE);
        return SnapshotStores.open(u, Map.of("collection", "runs_" + data.tag()));
    }

    @Override
    public RawMemory rawMemory(MemoryData data) {
        return new MongoRawMemory(db(), "runs_" + data.tag());
    }

    @Override
    public boolean isSeeded(DataSet data) {
        Document m = db().getCollection(NAMESPACE + "_seed").find(eq("_id", collection(data))).first();
        return m != null && m.get("n", Number.class).longValue() == data.n && m.getInteger("size") == data.size
                && m.getInteger("version") == DataSet.VERSION && "s".equals(m.getString("layout"));
    }

    @Override
    public void seed(DataSet data) {
        MongoCollection<Document> markers = db().getCollection(NAMESPACE + "_seed");
        markers.deleteOne(eq("_id", collection(data)));
        for (String existing : db().listCollectionNames()) {
            if (existing.equals(collection(data))) db().getCollection(existing).drop();
        }
        try (SnapshotStore store = openStore(data)) {   // creates the store's indexes
            store.describe();
        }
        MongoCollection<Document> c = db().getCollection(collection(data));
        long start = System.nanoTime();
        List<Document> batch = new ArrayList<>(1000);
        for (int i = 0; i < data.n; i++) {
            batch.add(document(data.run(i)));
            if (batch.size() == 1000 || i + 1 == data.n) {
                c.insertMany(batch, new InsertManyOptions().ordered(false));
                batch.clear();
            }
            progress("mongo " + collection(data), i + 1, data.n, start);
        }
        markers.insertOne(new Document("_id", collection(data)).append("n", (long) data.n).append("size", data.size)
                .append("version", DataSet.VERSION).append("layout", "s").append("seededAt", new Date()));
    }

    /** The store's document layout (RunDocuments.toDocument in baton-storage-mongo), nulls included. */
    static Document document(RunSnapshot s) {
        return new Document("_id", s.runId())
                .append("agentId", s.agentId())
                .append("status", s.status().name())
                .append("threadId", s.threadId())
                .append("resourceId", s.resourceId())
                .append("createdAt", Date.from(s.createdAt()))
                .append("suspendedAt", Date.from(s.suspendedAt()))
                .append("version", s.version())
                .append("leaseOwner", null)
                .append("leaseExpiresAt", null)
                .append("payload", s.payload())
                .append("expiresAt", null)
                .append("summary", s.summary())   // what a listing reads instead of the payload
                .append("deciders", List.copyOf(s.deciders()));   // the "waiting for me" labels, an array (empty for none)
    }

    @Override
    public void purge(SnapshotStore store, DataSet data, String agentId) {
        db().getCollection(collection(data)).deleteMany(eq("agentId", agentId));
    }

    @Override
    public RawQueries raw(DataSet data) {
        MongoCollection<Document> c = db().getCollection(collection(data));
        Bson order = Sorts.orderBy(Sorts.descending("createdAt"), Sorts.descending("_id"));
        return new RawQueries() {
            @Override
            public boolean deciders() {
                return true;
            }

            @Override
            public Page page(Query q) {
                List<Bson> parts = new ArrayList<>();
                parts.add(eq("agentId", q.agentId()));
                if (q.threadId() != null) parts.add(eq("threadId", q.threadId()));
                if (q.resourceId() != null) parts.add(eq("resourceId", q.resourceId()));
                if (q.from() != null) parts.add(gte("createdAt", new Date(q.from())));
                if (q.to() != null) parts.add(lte("createdAt", new Date(q.to())));
                if (q.deciders() != null) {   // stored status SUSPENDED, and some pair's granting label held and its excluding one not
                    parts.add(eq("status", SUSPENDED));
                    List<Bson> any = new ArrayList<>();
                    for (dev.baton.store.RunQuery.Decider d : q.deciders()) {
                        any.add(and(eq("deciders", d.granted()), com.mongodb.client.model.Filters.ne("deciders", d.unlessExcluded())));
                    }
                    parts.add(or(any));
                } else {
                    parts.add(or(eq("status", SUSPENDED), and(eq("status", "RESUMING"), lte("leaseExpiresAt", new Date()))));
                }
                Bson filter = and(parts);
                List<Row> rows = new ArrayList<>(q.limit());
                for (Document d : c.find(filter).projection(Projections.exclude("payload")).sort(order).limit(q.limit())) {
                    rows.add(new Row(d.getString("_id"), d.getString("agentId"), d.getString("status"), d.getString("threadId"),
                            d.getString("resourceId"), d.getDate("createdAt").getTime(), d.getDate("suspendedAt").getTime(),
                            d.get("version", Number.class).longValue(), d.getString("summary")));
                }
                return new Page(c.countDocuments(filter), rows);
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public void close() {
        client.close();
        if (server != null) server.shutdownNow();
    }
}
