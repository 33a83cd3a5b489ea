package dev.baton.store.mongo;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ExplainVerbosity;
import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail's MongoDB design (see {@link MongoDecisions}): its indexes; what a crash between the atomic write
 * (records pending in the run document, or in a tombstone) and the copy to {@code <runs>_decisions} leaves, and that
 * the next store copies it before anything reads; and, where the server can explain, that listings run on their
 * indexes.
 */
class MongoDecisionsTest {
    private static final Logger LOG = LoggerFactory.getLogger(MongoDecisionsTest.class);
    private static final RawMongo MONGO = new RawMongo();

    @AfterAll
    static void disconnect() {
        MONGO.close();
    }

    private static DecisionRecord record(RunSnapshot run, String actor, long millis, String key) {
        return DecisionRecord.builder().decisionId(uniqueId("d")).agentId(run.agentId()).runId(run.runId())
                .threadId(run.threadId()).resourceId(run.resourceId()).toolCallId("call-1").toolName("charge")
                .kind(DecisionKind.APPROVE).actor(actor).instanceId("i-1").decidedAt(T0.plusMillis(millis))
                .idempotencyKey(key).build();
    }

    private static MongoSnapshotStore open(String collection) {
        return MongoSnapshotStore.builder(MONGO.client(), MONGO.database()).collection(collection).build();
    }

    private static Map<String, Document> indexes(String collection) {
        Map<String, Document> out = new LinkedHashMap<>();
        for (Document index : MONGO.collection(collection).listIndexes()) {
            out.put(index.getString("name"), index);
        }
        return out;
    }

    @Test
    void theDecisionsCollectionHasOneIndexPerQueryShapeAndAUniqueKey() {
        String collection = uniqueId("dec");
        open(collection).close();
        Map<String, Document> idx = indexes(collection + MongoCollections.DECISIONS_SUFFIX);
        assertThat(idx.get(DecisionDocuments.INDEX_AGENT).get("key", Document.class).toJson())
                .isEqualTo(new Document("agentId", 1).append("decidedAt", -1).append("_id", -1).toJson());
        for (String[] shape : new String[][] {{DecisionDocuments.INDEX_RUN, "runId"}, {DecisionDocuments.INDEX_THREAD, "threadId"},
                {DecisionDocuments.INDEX_RESOURCE, "resourceId"}, {DecisionDocuments.INDEX_ACTOR, "actor"}}) {
            assertThat(idx.get(shape[0]).get("key", Document.class).toJson()).isEqualTo(new Document("agentId", 1)
                    .append(shape[1], 1).append("decidedAt", -1).append("_id", -1).toJson());
        }
        Document unique = idx.get(DecisionDocuments.INDEX_KEY);
        assertThat(unique.get("key", Document.class).toJson()).isEqualTo(new Document("agentId", 1).append("uniqueKey", 1).toJson());
        assertThat(unique.getBoolean("unique")).isTrue();
        assertThat(indexes(collection).get(MongoDecisions.INDEX_PENDING).getBoolean("sparse")).isTrue();
    }

    /** A crash right after the compare-and-set: the records are in the run document only; the next store copies them at open. */
    @Test
    void recordsACrashLeftPendingInTheRunDocumentAreCopiedBeforeAnyoneReads() {
        String collection = uniqueId("dec");
        String agent = uniqueId("agent");
        RunSnapshot run = suspended(agent, uniqueId("run"), "t", "r", 1);
        DecisionRecord d = record(run, "alice", 5, "key-1");
        try (MongoSnapshotStore store = open(collection)) {
            assertThat(store.insert(run)).isTrue();
        }
        // what the compare-and-set's findOneAndUpdate wrote, and nothing after it
        MongoCollection<Document> runs = MONGO.collection(collection);
        RunSnapshot v2 = run.suspended(T0.plusSeconds(1), "{\"v\":2}");
        runs.updateOne(Filters.eq("_id", run.runId()), Updates.combine(RunDocuments.replacing(v2),
                Updates.pushEach(MongoDecisions.PENDING, List.of(DecisionDocuments.toDocument(d)))));
        MongoCollection<Document> decisions = MONGO.collection(collection + MongoCollections.DECISIONS_SUFFIX);
        assertThat(decisions.countDocuments()).isZero();

        try (MongoSnapshotStore store = open(collection)) {
            assertThat(decisions.countDocuments()).isEqualTo(1);
            assertThat(store.find(run.runId())).contains(v2);
            assertThat(store.listDecisions(DecisionQuery.forAgent(agent).build()).items()).containsExactly(d);
            assertThat(store.findDecision(agent, "key-1")).contains(d);
            // the key is taken: a retry of the same decision changes nothing
            RunSnapshot v3 = v2.suspended(T0.plusSeconds(2), "{\"v\":3}");
            assertThat(store.compareAndSet(2, v3, List.of(record(run, "alice", 6, "key-1")))).isFalse();
            assertThat(store.find(run.runId())).contains(v2);
        }
        assertThat(runs.find(Filters.eq("_id", run.runId())).first().getList(MongoDecisions.PENDING, Document.class)).isEmpty();
    }

    /** A crash right after a delete's findOneAndReplace: a tombstone that no run query sees, whose records reads copy. */
    @Test
    void aTombstoneACrashLeftIsNoRunAndItsRecordsAreCopiedAndTheRunIdFreed() {
        String collection = uniqueId("dec");
        String agent = uniqueId("agent");
        RunSnapshot run = suspended(agent, uniqueId("run"), "t", "r", 1);
        DecisionRecord d = record(run, "bob", 7, null);
        try (MongoSnapshotStore store = open(collection)) {
            assertThat(store.insert(run)).isTrue();
            MongoCollection<Document> runs = MONGO.collection(collection);
            runs.replaceOne(Filters.eq("_id", run.runId()), new Document("_id", run.runId()).append(MongoDecisions.TOMBSTONE, true)
                    .append(MongoDecisions.PENDING, List.of(DecisionDocuments.toDocument(d))));
            assertThat(store.find(run.runId())).isEmpty();
            assertThat(store.list(RunQuery.forAgent(agent, T0.plusSeconds(60)).build()).total()).isZero();
            assertThat(store.listDue(agent, T0.plusSeconds(600), 10)).isEmpty();
            assertThat(store.compareAndSet(1, run.suspended(T0.plusSeconds(1), "{}"))).isFalse();
            assertThat(store.delete(run.runId(), 1)).isFalse();
            // the run id is free again: insert copies the tombstone's records and takes the id
            assertThat(store.insert(run)).isTrue();
            assertThat(store.find(run.runId())).contains(run);
            assertThat(store.listDecisions(DecisionQuery.forAgent(agent).runId(run.runId()).build()).items()).containsExactly(d);
        }
    }

    /** On a server with {@code explain}: each query shape runs on its own index, with no collection scan and no sort. */
    @Test
    void eachQueryShapeUsesItsIndexWhereTheServerCanExplain() {
        String collection = uniqueId("dec");
        String agent = uniqueId("agent");
        try (MongoSnapshotStore store = open(collection)) {
            for (int i = 0; i < 20; i++) {
                RunSnapshot run = suspended(agent, agent + "-run-" + i, "t" + (i % 3), "r" + (i % 2), i);
                store.insert(run);
                store.compareAndSet(1, run.suspended(T0.plusSeconds(1), "{}"), List.of(record(run, "actor" + (i % 4), i, null)));
            }
        }
        MongoCollection<Document> c = MONGO.collection(collection + MongoCollections.DECISIONS_SUFFIX);
        Map<String, org.bson.conversions.Bson> shapes = new LinkedHashMap<>();
        shapes.put(DecisionDocuments.INDEX_AGENT, Filters.eq("agentId", agent));
        shapes.put(DecisionDocuments.INDEX_RUN, Filters.and(Filters.eq("agentId", agent), Filters.eq("runId", agent + "-run-3")));
        shapes.put(DecisionDocuments.INDEX_THREAD, Filters.and(Filters.eq("agentId", agent), Filters.eq("threadId", "t1")));
        shapes.put(DecisionDocuments.INDEX_RESOURCE, Filters.and(Filters.eq("agentId", agent), Filters.eq("resourceId", "r1")));
        shapes.put(DecisionDocuments.INDEX_ACTOR, Filters.and(Filters.eq("agentId", agent), Filters.eq("actor", "actor2")));
        for (Map.Entry<String, org.bson.conversions.Bson> shape : shapes.entrySet()) {
            Document plan;
            try {
                plan = c.find(shape.getValue()).sort(new Document("decidedAt", -1).append("_id", -1)).hintString(shape.getKey())
                        .limit(11).explain(ExplainVerbosity.QUERY_PLANNER);
            } catch (MongoCommandException e) {
                if (e.getErrorCode() == 59 && MongoTestServer.inJvm()) {
                    LOG.info("explain is not supported by the in-JVM server ({}); decision plans not checked", e.getErrorMessage());
                    return;
                }
                throw e;
            }
            List<String> stages = new ArrayList<>();
            collect(plan.get("queryPlanner", Document.class).get("winningPlan", Document.class), stages);
            assertThat(stages).as("%s: %s", shape.getKey(), plan.toJson()).contains("IXSCAN").doesNotContain("COLLSCAN", "SORT");
        }
    }

    private static void collect(Object node, List<String> out) {
        if (node instanceof Document d) {
            if (d.containsKey("stage")) out.add(d.getString("stage"));
            for (Object v : d.values()) collect(v, out);
        } else if (node instanceof List<?> l) {
            for (Object v : l) collect(v, out);
        }
    }
}
