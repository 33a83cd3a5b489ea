package dev.baton.store.mongo;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.mongodb.ConnectionString;
import com.mongodb.ExplainVerbosity;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import dev.baton.StorageException;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.support.Snapshots;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The indexes exist with the expected keys, queries use them, and every filter, sort, count and page goes to the server. */
class MongoIndexTest {
    private static final Logger LOG = LoggerFactory.getLogger(MongoIndexTest.class);

    /** Commands sent, copied: the driver reuses an event's buffer once the callback returns. */
    private static final List<Sent> COMMANDS = new CopyOnWriteArrayList<>();
    private record Sent(String name, BsonDocument command) {
    }

    private static MongoClient client;
    private static String database;

    @BeforeAll
    static void connect() {
        database = MongoTestServer.database();
        client = MongoClients.create(MongoClientSettings.builder().applyConnectionString(new ConnectionString(MongoTestServer.url()))
                .addCommandListener(new CommandListener() {
                    @Override
                    public void commandStarted(CommandStartedEvent event) {
                        COMMANDS.add(new Sent(event.getCommandName(), event.getCommand().clone()));
                    }
                }).build());
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    private static Map<String, Document> indexKeys(String collection) {
        Map<String, Document> keys = new LinkedHashMap<>();
        for (Document index : client.getDatabase(database).getCollection(collection).listIndexes()) {
            keys.put(index.getString("name"), index.get("key", Document.class));
        }
        return keys;
    }

    /** Index key documents as {field: direction} with the direction normalised to an int. */
    private static Map<String, Integer> normalised(Document key) {
        Map<String, Integer> out = new LinkedHashMap<>();
        key.forEach((field, dir) -> out.put(field, ((Number) dir).intValue()));
        return out;
    }

    private static Map<String, Integer> key(Object... fieldsAndDirections) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < fieldsAndDirections.length; i += 2) {
            out.put((String) fieldsAndDirections[i], (Integer) fieldsAndDirections[i + 1]);
        }
        return out;
    }

    @Test
    void openingCreatesTheSixCompoundIndexesAndThePendingDecisionsIndexWithTheirKeysInOrder() {
        String collection = uniqueId("idx");
        try (SnapshotStore store = SnapshotStores.open(MongoTestServer.url(), Map.of("collection", collection))) {
            assertThat(store.describe()).contains(collection);
        }
        Map<String, Document> keys = indexKeys(collection);
        assertThat(keys).containsKeys("_id_", MongoIndexes.INDEX_AGENT, MongoIndexes.INDEX_AGENT_THREAD,
                MongoIndexes.INDEX_AGENT_RESOURCE, MongoIndexes.INDEX_AGENT_THREAD_RESOURCE);
        // entry order matters in an index key: containsExactly checks it
        assertThat(normalised(keys.get(MongoIndexes.INDEX_AGENT)))
                .containsExactlyEntriesOf(key("agentId", 1, "createdAt", -1, "_id", -1));
        assertThat(normalised(keys.get(MongoIndexes.INDEX_AGENT_THREAD)))
                .containsExactlyEntriesOf(key("agentId", 1, "threadId", 1, "createdAt", -1, "_id", -1));
        assertThat(normalised(keys.get(MongoIndexes.INDEX_AGENT_RESOURCE)))
                .containsExactlyEntriesOf(key("agentId", 1, "resourceId", 1, "createdAt", -1, "_id", -1));
        assertThat(normalised(keys.get(MongoIndexes.INDEX_AGENT_THREAD_RESOURCE)))
                .containsExactlyEntriesOf(key("agentId", 1, "threadId", 1, "resourceId", 1, "createdAt", -1, "_id", -1));
        assertThat(normalised(keys.get(MongoIndexes.INDEX_AGENT_EXPIRES)))
                .containsExactlyEntriesOf(key("agentId", 1, "expiresAt", 1, "_id", 1));
        assertThat(normalised(keys.get(MongoIndexes.INDEX_AGENT_NOTIFY)))
                .containsExactlyEntriesOf(key("agentId", 1, "notifyAt", 1, "_id", 1));
        // the deciders filter: multikey on the labels, in listing order
        assertThat(normalised(keys.get(MongoIndexes.INDEX_AGENT_DECIDERS)))
                .containsExactlyEntriesOf(key("agentId", 1, "deciders", 1, "createdAt", -1, "_id", -1));
        // the audit trail's records a crash left pending in run documents (MongoDecisions)
        assertThat(normalised(keys.get(MongoDecisions.INDEX_PENDING))).containsExactlyEntriesOf(key("pendingDecisions._id", 1));
        assertThat(keys).hasSize(9);
    }

    @Test
    void openingCreatesTheThreadMemoryCollectionsIndexesNamedAfterTheRunsCollection() {
        String collection = uniqueId("mem");
        try (SnapshotStore store = SnapshotStores.open(MongoTestServer.url(), Map.of("collection", collection))) {
            assertThat(store.memory()).isPresent();
        }
        Map<String, Document> threads = indexKeys(collection + MongoCollections.THREADS_SUFFIX);
        assertThat(normalised(threads.get(MongoMemoryStore.INDEX_THREADS_RESOURCE)))
                .containsExactlyEntriesOf(key("resourceId", 1, "updatedAt", -1, "_id", -1));
        assertThat(threads).hasSize(2);
        Map<String, Document> messages = indexKeys(collection + MongoCollections.MESSAGES_SUFFIX);
        assertThat(normalised(messages.get(MongoMemoryStore.INDEX_MESSAGES_SEQ)))
                .containsExactlyEntriesOf(key("threadId", 1, "gen", 1, "seq", 1));
        assertThat(normalised(messages.get(MongoMemoryStore.INDEX_MESSAGES_RUN)))
                .containsExactlyEntriesOf(key("threadId", 1, "gen", 1, "runId", 1, "runIndex", 1));
        assertThat(messages).hasSize(3);
        for (Document index : client.getDatabase(database).getCollection(collection + MongoCollections.MESSAGES_SUFFIX)
                .listIndexes()) {
            if (!index.getString("name").equals("_id_")) {
                assertThat(index.getBoolean("unique")).as("index %s is unique", index.getString("name")).isTrue();
            }
        }
    }

    @Test
    void reopeningLeavesTheIndexesAsTheyWere() {
        String collection = uniqueId("idx");
        for (int i = 0; i < 3; i++) {
            try (SnapshotStore store = SnapshotStores.open(MongoTestServer.url(), Map.of("collection", collection))) {
                store.insert(suspended("agent", uniqueId("run"), "t", "r", i));
            }
        }
        assertThat(indexKeys(collection)).hasSize(9);
        assertThat(indexKeys(collection + MongoCollections.DECISIONS_SUFFIX)).hasSize(7);
        assertThat(indexKeys(collection + MongoCollections.THREADS_SUFFIX)).hasSize(2);
        assertThat(indexKeys(collection + MongoCollections.MESSAGES_SUFFIX)).hasSize(3);
    }

    @Test
    void theDefaultCollectionHasTheIndexesToo() {
        try (SnapshotStore store = SnapshotStores.open(MongoTestServer.url())) {
            assertThat(store.describe()).contains(MongoSnapshotStore.DEFAULT_COLLECTION);
        }
        assertThat(indexKeys(MongoSnapshotStore.DEFAULT_COLLECTION)).containsKeys(MongoIndexes.INDEX_AGENT,
                MongoIndexes.INDEX_AGENT_THREAD, MongoIndexes.INDEX_AGENT_RESOURCE,
                MongoIndexes.INDEX_AGENT_THREAD_RESOURCE);
    }

    @Test
    void anIndexOfTheSameNameWithOtherKeysMakesOpeningFailClearly() {
        String collection = uniqueId("clash");
        client.getDatabase(database).getCollection(collection).createIndex(new Document("agentId", 1),
                new com.mongodb.client.model.IndexOptions().name(MongoIndexes.INDEX_AGENT));
        assertThatThrownBy(() -> MongoSnapshotStore.builder(client, database).collection(collection).build())
                .isInstanceOf(StorageException.class).hasMessageContaining("indexes").hasMessageContaining(collection);
    }

    /**
     * On a server with {@code explain} the thread-filtered listing runs on the agent+thread index
     * with no collection scan and no in-memory sort. The in-JVM server has no {@code explain}
     * (CommandNotFound); only there is this one assertion left out, and only after checking that.
     */
    @Test
    void theThreadFilteredQueryUsesAnIndexWhereTheServerCanExplain() {
        String collection = uniqueId("explain");
        String agent = uniqueId("agent");
        try (SnapshotStore store = MongoSnapshotStore.builder(client, database).collection(collection).build()) {
            for (int i = 0; i < 40; i++) {
                store.insert(suspended(agent + (i % 4), agent + "-run-" + i, "t" + (i % 5), "r" + (i % 3), i));
            }
        }
        RunQuery q = RunQuery.forAgent(agent + "1", T0.plusSeconds(60)).threadId("t1").page(0, 10).build();
        MongoCollection<Document> c = client.getDatabase(database).getCollection(collection);
        Document plan;
        try {
            plan = c.find(MongoRunListing.filter(q)).sort(new Document("createdAt", -1).append("_id", -1))
                    .limit(10).explain(ExplainVerbosity.QUERY_PLANNER);
        } catch (MongoCommandException e) {
            if (e.getErrorCode() == 59 && MongoTestServer.inJvm()) {
                LOG.info("explain is not supported by the in-JVM server ({}); index keys checked, plan not", e.getErrorMessage());
                return;
            }
            throw e;
        }
        assertUsesOnly(plan, MongoIndexes.INDEX_AGENT_THREAD);
    }

    /**
     * On a server with {@code explain}: a cursor page runs on the agent+thread index with no
     * collection scan and no in-memory sort, and the due runs on the deadline index likewise.
     */
    @Test
    void theCursorAndTheDueQueriesUseTheirIndexesWhereTheServerCanExplain() {
        String collection = uniqueId("explain");
        String agent = uniqueId("agent");
        try (SnapshotStore store = MongoSnapshotStore.builder(client, database).collection(collection).build()) {
            for (int i = 0; i < 40; i++) {
                RunSnapshot s = suspended(agent + (i % 4), agent + "-run-" + i, "t" + (i % 5), "r" + (i % 3), i);
                store.insert(s.toBuilder().expiresAt(T0.plusSeconds(i % 7)).summary("{}").build());
            }
        }
        RunQuery q = RunQuery.forAgent(agent + "1", T0.plusSeconds(60)).threadId("t1")
                .after(new RunQuery.After(T0.plusMillis(20), agent + "-run-21"), 10).build();
        MongoCollection<Document> c = client.getDatabase(database).getCollection(collection);
        Document cursorPlan;
        Document duePlan;
        try {
            cursorPlan = c.find(com.mongodb.client.model.Filters.and(MongoRunListing.filter(q), MongoRunListing.after(q.after())))
                    .sort(new Document("createdAt", -1).append("_id", -1)).limit(10).explain(ExplainVerbosity.QUERY_PLANNER);
            duePlan = c.find(com.mongodb.client.model.Filters.and(com.mongodb.client.model.Filters.eq("agentId", agent + "1"),
                            com.mongodb.client.model.Filters.lte("expiresAt", java.util.Date.from(T0.plusSeconds(3)))))
                    .sort(new Document("expiresAt", 1).append("_id", 1)).limit(5).explain(ExplainVerbosity.QUERY_PLANNER);
        } catch (MongoCommandException e) {
            if (e.getErrorCode() == 59 && MongoTestServer.inJvm()) {
                LOG.info("explain is not supported by the in-JVM server ({}); index keys checked, plans not", e.getErrorMessage());
                return;
            }
            throw e;
        }
        assertUsesOnly(cursorPlan, MongoIndexes.INDEX_AGENT_THREAD);
        assertUsesOnly(duePlan, MongoIndexes.INDEX_AGENT_EXPIRES);
    }

    /** Asserts that a {@code queryPlanner} explain's winning plan scans only {@code index}, with no collection scan and no sort. */
    static void assertUsesOnly(Document plan, String index) {
        Document winning = plan.get("queryPlanner", Document.class).get("winningPlan", Document.class);
        List<Document> stages = new ArrayList<>();
        collectStages(winning, stages);
        List<String> names = stages.stream().map(s -> s.getString("stage")).toList();
        LOG.info("winning plan stages on {}: {}", MongoTestServer.kind(), names);
        assertThat(names).as("plan %s", winning.toJson()).contains("IXSCAN").doesNotContain("COLLSCAN", "SORT");
        assertThat(stages).filteredOn(s -> "IXSCAN".equals(s.getString("stage")))
                .extracting(s -> s.getString("indexName")).containsOnly(index);
    }

    /** Walks a plan tree (inputStage, inputStages, queryPlan) collecting every stage document. */
    private static void collectStages(Object node, List<Document> out) {
        if (node instanceof Document d) {
            if (d.containsKey("stage")) out.add(d);
            for (Object v : d.values()) collectStages(v, out);
        } else if (node instanceof List<?> l) {
            for (Object v : l) collectStages(v, out);
        }
    }

    /** The commands on the wire carry the filter, the sort, the skip and the limit: nothing is filtered in Java. */
    @Test
    void filterSortPageAndCountAreSentToTheServer() {
        String collection = uniqueId("wire");
        String agent = uniqueId("agent");
        try (SnapshotStore store = MongoSnapshotStore.builder(client, database).collection(collection).build()) {
            for (int i = 0; i < 12; i++) store.insert(suspended(agent, agent + "-" + i, "t", "r", i));
            COMMANDS.clear();
            RunQuery q = RunQuery.forAgent(agent, T0.plusSeconds(60)).status(RunStatus.SUSPENDED).threadId("t")
                    .resourceId("r").createdFrom(T0).createdTo(T0.plusSeconds(1)).page(5, 3).build();
            assertThat(store.list(q).total()).isEqualTo(12);

            BsonDocument find = command("find");
            BsonDocument filter = find.getDocument("filter");
            assertThat(filter.toJson()).contains("\"agentId\": \"" + agent + "\"", "\"threadId\": \"t\"",
                    "\"resourceId\": \"r\"", "\"$gte\"", "\"$lte\"", "\"$or\"", "\"leaseExpiresAt\"");
            assertThat(find.getDocument("sort"))
                    .isEqualTo(new BsonDocument("createdAt", new BsonInt32(-1)).append("_id", new BsonInt32(-1)));
            assertThat(find.getNumber("skip").intValue()).isEqualTo(5);
            assertThat(find.getNumber("limit").intValue()).isEqualTo(3);
            BsonDocument count = command("aggregate");
            assertThat(count.getArray("pipeline").get(0).asDocument().getDocument("$match")).isEqualTo(filter);

            COMMANDS.clear();
            assertThat(store.list(RunQuery.forAgent(agent, T0.plusSeconds(60)).countOnly().build()).total()).isEqualTo(12);
            assertThat(COMMANDS).extracting(Sent::name).containsExactly("aggregate");

            COMMANDS.clear();
            store.find("$ne");
            assertThat(command("find").getDocument("filter")).isEqualTo(new BsonDocument("_id", new BsonString("$ne")));
        }
    }

    /**
     * A cursor page without payloads: the filter carries the cursor's range, the projection leaves the
     * payload on the server, and no payload is read at all. Due runs: the deadline range, in deadline
     * order, limited, without payloads.
     */
    @Test
    void aCursorPageWithoutPayloadsAndTheDueRunsAreAskedOfTheServerAsRangesWithoutPayloads() {
        String collection = uniqueId("wire");
        String agent = uniqueId("agent");
        try (SnapshotStore store = MongoSnapshotStore.builder(client, database).collection(collection).build()) {
            for (int i = 0; i < 6; i++) {
                RunSnapshot s = suspended(agent, agent + "-" + i, "t", "r", i * 1000L);
                // run 1 has no deadline
                store.insert(i == 1 ? s : s.toBuilder().expiresAt(T0.plusSeconds(i)).build());
            }
            COMMANDS.clear();
            RunQuery q = RunQuery.forAgent(agent, T0.plusSeconds(60)).threadId("t")
                    .after(new RunQuery.After(T0.plusMillis(4000), agent + "-4"), 3).withPayload(false).build();
            RunPage page = store.list(q);
            assertThat(page.items()).extracting(RunSnapshot::runId).containsExactly(agent + "-3", agent + "-2", agent + "-1");
            assertThat(page.items()).extracting(RunSnapshot::payload).containsExactly("", "", "");
            assertThat(page.items()).extracting(RunSnapshot::summary).containsOnly(Snapshots.EMPTY_SUMMARY);
            assertThat(page.total()).isEqualTo(6);
            List<BsonDocument> finds = COMMANDS.stream().filter(e -> e.name().equals("find")).map(Sent::command).toList();
            assertThat(finds).hasSize(1);
            assertThat(finds.get(0).getDocument("filter").toJson()).contains("\"$lte\"", "\"$lt\"", "\"$or\"", "createdAt", "_id");
            assertThat(finds.get(0).getDocument("projection").keySet()).contains("summary", "expiresAt").doesNotContain("payload");
            assertThat(command("aggregate").getArray("pipeline").get(0).asDocument().getDocument("$match"))
                    .isEqualTo(MongoRunListing.filter(q).toBsonDocument());

            COMMANDS.clear();
            assertThat(store.listDue(agent, T0.plusSeconds(3), 2)).extracting(RunSnapshot::runId)
                    .containsExactly(agent + "-0", agent + "-2");
            BsonDocument due = command("find");
            assertThat(due.getDocument("filter").toJson()).contains("\"expiresAt\"", "\"$lte\"", agent);
            assertThat(due.getDocument("sort")).isEqualTo(new BsonDocument("expiresAt", new BsonInt32(1)).append("_id", new BsonInt32(1)));
            assertThat(due.getNumber("limit").intValue()).isEqualTo(2);
            assertThat(due.getDocument("projection").keySet()).doesNotContain("payload");
        }
    }

    private static BsonDocument command(String name) {
        return COMMANDS.stream().filter(e -> e.name().equals(name)).findFirst().map(Sent::command)
                .orElseGet(() -> fail("no %s command among %s", name, COMMANDS.stream().map(Sent::name).toList()));
    }
}
