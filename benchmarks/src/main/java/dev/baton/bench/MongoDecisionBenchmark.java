package dev.baton.bench;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static dev.baton.bench.DecisionTargets.AGENT;
import static dev.baton.bench.DecisionTargets.PAGE;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Sorts;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.baton.agent.Agent;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The audit trail on the in-JVM {@code mongo-java-server} (no real MongoDB server here): it has no
 * query planner and scans, so these figures are NOT representative of MongoDB; they only show that
 * Baton's listing costs what the same driver query costs on the same server. {@code n} records
 * (default 100,000) of one agent and a tenth as many of another, the data of {@link DecisionBenchmark},
 * inserted into the store's own {@code <runs>_decisions} collection in its document layout; Baton's pages
 * are checked equal to the raw ones on every target first. The raw side is the store's query with the
 * driver: {@code find({agentId, <field>}).sort({decidedAt: -1, _id: -1}).limit(51)}.
 *
 * <pre>
 * java -cp benchmarks/target/baton-benchmarks.jar dev.baton.bench.MongoDecisionBenchmark [n] [iterations]
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MongoDecisionBenchmark extends TrailBenchmark {
    static final Bson ORDER = Sorts.descending("decidedAt", "_id");

    @Param("100000")
    public int n;

    MongoServer server;
    MongoClient client;
    MongoCollection<Document> decisions;
    SnapshotStore store;

    @Setup(Level.Trial)
    public void setup() throws Exception {
        server = new MongoServer(new MemoryBackend());
        InetSocketAddress a = server.bind();
        String url = "mongodb://127.0.0.1:" + a.getPort() + "/" + Backend.NAMESPACE;
        store = SnapshotStores.open(url, Map.of("collection", "dec_runs"));   // creates the collections and indexes
        agent = Agent.builder(AGENT).model(DeterministicModel.builder().build()).store(store).build();
        client = MongoClients.create(url);
        decisions = client.getDatabase(Backend.NAMESPACE).getCollection("dec_runs_decisions");
        seed(decisions, n);
        checkTargets(n);
    }

    @Override
    String rawName(DecisionTargets.Filter f) {
        return switch (f) { case RUN -> "runId"; case THREAD -> "threadId"; case RESOURCE -> "resourceId"; case ACTOR -> "actor"; };
    }

    /** The records of {@link DecisionTargets#seed}, as the store's DecisionDocuments writes them. */
    static void seed(MongoCollection<Document> c, int n) throws Exception {
        int total = DecisionTargets.total(n);
        List<Document> batch = new ArrayList<>();
        DecisionTargets.seed(n, d -> {
            batch.add(new Document("_id", d.decisionId()).append("agentId", d.agentId()).append("runId", d.runId())
                    .append("threadId", d.threadId()).append("resourceId", d.resourceId())
                    .append("toolCallId", d.toolCallId()).append("toolName", "charge").append("kind", "approve")
                    .append("actor", d.actor()).append("instanceId", "bench").append("decidedAt", new Date(d.decidedAt()))
                    .append("reason", "ok").append("argsDigestBefore", "a".repeat(64)).append("argsDigestAfter", "a".repeat(64))
                    .append("idempotencyKey", null).append("uniqueKey", "d:" + d.decisionId()));
            if (batch.size() == 5_000 || d.k() + 1 == total) {
                c.insertMany(batch);
                batch.clear();
            }
        });
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        store.close();
        client.close();
        server.shutdownNow();
    }

    /** The store's query with the driver: page + 1 documents, all fields; the ids of the first 50. */
    @Override
    List<String> rawQuery(String field, String value) {
        List<String> out = new ArrayList<>(PAGE);
        for (Document d : decisions.find(and(eq("agentId", AGENT), eq(field, value))).sort(ORDER).limit(PAGE + 1)) {
            if (out.size() < PAGE) out.add(d.getString("_id"));
        }
        return out;
    }

    /**
     * Runs this benchmark alone.
     *
     * @param args {@code [n] [iterations]}
     * @throws Exception if JMH fails
     */
    public static void main(String[] args) throws Exception {
        TrailBenchmark.main(MongoDecisionBenchmark.class, args, "100000", "1g", null);
    }
}
