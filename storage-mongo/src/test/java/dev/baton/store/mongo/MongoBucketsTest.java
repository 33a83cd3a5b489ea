package dev.baton.store.mongo;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspendedAt;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import dev.baton.InvalidOptionException;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bson.BsonDocument;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Buckets (issue 27) on the server: what is stored, the re-bucketing of runs written with another count (or none),
 * and which queries a listing sends. The TCK runs with four buckets in the {@code MongoBucketed*Test} classes.
 */
class MongoBucketsTest {
    private static final Instant NOW = T0.plusSeconds(3600);
    /** The filters of the finds sent, copied (the driver reuses an event's buffer). */
    private static final List<BsonDocument> FINDS = new CopyOnWriteArrayList<>();
    /** The findAndModify commands sent (query, update), copied. */
    private static final List<BsonDocument> FIND_AND_MODIFIES = new CopyOnWriteArrayList<>();

    private static MongoClient client;
    private static String database;

    @BeforeAll
    static void connect() {
        database = MongoTestServer.database();
        client = MongoClients.create(MongoClientSettings.builder().applyConnectionString(new ConnectionString(MongoTestServer.url())).addCommandListener(new CommandListener() {
            @Override
            public void commandStarted(CommandStartedEvent event) {
                if (event.getCommandName().equals("find")) FINDS.add(copy(event.getCommand().getDocument("filter")));
                if (event.getCommandName().equals("findAndModify")) FIND_AND_MODIFIES.add(copy(event.getCommand()));
            }
        }).build());
    }

    /** A copy that outlives the event (the driver reuses the command's buffer once the callback returns). */
    private static BsonDocument copy(BsonDocument d) {
        return BsonDocument.parse(d.toJson());
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    private static MongoSnapshotStore open(String collection, int buckets) {
        return MongoSnapshotStore.builder(client, database).collection(collection).buckets(buckets).build();
    }

    private static MongoCollection<Document> raw(String collection) {
        return client.getDatabase(database).getCollection(collection);
    }

    /** Threads t0..t5 (and runs without one), two resources, deadlines and notifications, ties on creation time. */
    private static List<RunSnapshot> seed(SnapshotStore store, String agent, int count, long seed) {
        Random random = new Random(seed);
        List<RunSnapshot> runs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String thread = random.nextInt(4) == 0 ? null : "t" + random.nextInt(6);
            Instant created = T0.plusSeconds(random.nextInt(count / 2 + 1));
            RunSnapshot.Builder b = suspendedAt(agent, agent + "-run-" + i, created).threadId(thread).resourceId("r" + random.nextInt(2));
            if (random.nextBoolean()) b.expiresAt(T0.plusSeconds(random.nextInt(20)));
            if (random.nextInt(3) == 0) b.notification(T0.plusSeconds(random.nextInt(20)), "n");
            RunSnapshot s = b.build();
            assertThat(store.insert(s)).isTrue();
            runs.add(s);
        }
        return runs;
    }

    /** What the test compares between stores: pages, totals, cursors, a thread's and a resource's runs, the due runs. */
    private static Map<String, Object> answers(SnapshotStore store, String agent) {
        Map<String, Object> out = new HashMap<>();
        RunPage all = store.list(RunQuery.forAgent(agent, NOW).build());
        out.put("all", all);
        out.put("page", store.list(RunQuery.forAgent(agent, NOW).page(5, 7).build()));
        out.put("past the end", store.list(RunQuery.forAgent(agent, NOW).page(500, 7).build()));
        RunSnapshot tenth = all.items().get(9);
        out.put("cursor", store.list(RunQuery.forAgent(agent, NOW).after(new RunQuery.After(tenth.createdAt(), tenth.runId()), 6).build()));
        out.put("count", store.list(RunQuery.forAgent(agent, NOW).countOnly().build()).total());
        out.put("thread", store.list(RunQuery.forAgent(agent, NOW).threadId("t3").page(1, 4).build()));
        out.put("resource", store.list(RunQuery.forAgent(agent, NOW).resourceId("r1").page(2, 9).build()));
        out.put("due", store.listDue(agent, T0.plusSeconds(10), 7));
        out.put("notifications", store.listNotificationsDue(agent, T0.plusSeconds(10), 5));
        return out;
    }

    @Test
    void runsWrittenWithOneBucketAreReadTheSameByAStoreWithFour() {
        String collection = uniqueId("legacy");
        String agent = uniqueId("agent");
        List<RunSnapshot> runs;
        Map<String, Object> before;
        try (MongoSnapshotStore one = open(collection, 1)) {
            runs = seed(one, agent, 60, 1);
            before = answers(one, agent);
        }
        // one bucket stores no bucket field: the layout of a store without the option (or of an older Baton)
        assertThat(raw(collection).countDocuments(Filters.exists(MongoBuckets.FIELD))).isZero();
        try (MongoSnapshotStore four = open(collection, 4)) {
            for (Document d : raw(collection).find()) {
                String thread = d.getString("threadId");
                assertThat(d.getInteger(MongoBuckets.FIELD)).as(d.getString("_id"))
                        .isEqualTo(MongoBuckets.of(thread != null ? thread : d.getString("_id"), 4));
            }
            assertThat(raw(collection + MongoBuckets.META_SUFFIX).find().first()).containsEntry(MongoBuckets.RECORD, 4);
            assertThat(answers(four, agent)).isEqualTo(before);
            assertThat(((RunPage) before.get("all")).items()).containsExactlyElementsOf(runs.stream().sorted(RunQuery.ORDER).toList());
            // and a run it writes itself lands in its thread's bucket
            RunSnapshot added = suspendedAt(agent, agent + "-new", T0.plusSeconds(999)).threadId("t3").build();
            assertThat(four.insert(added)).isTrue();
            assertThat(raw(collection).find(Filters.eq("_id", added.runId())).first().getInteger(MongoBuckets.FIELD))
                    .isEqualTo(MongoBuckets.of("t3", 4));
            assertThat(four.list(RunQuery.forAgent(agent, NOW).threadId("t3").page(0, 1).build()).items()).containsExactly(added);
        }
    }

    @Test
    void anotherCountRebucketsAndOneBucketDropsTheRecord() {
        String collection = uniqueId("recount");
        String agent = uniqueId("agent");
        Map<String, Object> expected;
        try (MongoSnapshotStore four = open(collection, 4)) {
            seed(four, agent, 40, 2);
            expected = answers(four, agent);
        }
        try (MongoSnapshotStore eight = open(collection, 8)) {
            assertThat(raw(collection).find().map(d -> d.getInteger(MongoBuckets.FIELD)).into(new ArrayList<>())).anyMatch(b -> b >= 4);
            assertThat(answers(eight, agent)).isEqualTo(expected);
        }
        RunSnapshot late = suspendedAt(agent, agent + "-late", T0.plusSeconds(998)).threadId("t1").build();
        try (MongoSnapshotStore one = open(collection, 1)) {
            assertThat(raw(collection + MongoBuckets.META_SUFFIX).countDocuments()).isZero();
            assertThat(one.insert(late)).isTrue();
        }
        try (MongoSnapshotStore four = open(collection, 4)) {
            // the run the one-bucket store wrote without a bucket is re-bucketed and found in its thread's bucket
            assertThat(four.list(RunQuery.forAgent(agent, NOW).threadId("t1").page(0, 1).build()).items()).containsExactly(late);
            assertThat(four.list(RunQuery.forAgent(agent, NOW).countOnly().build()).total()).isEqualTo(41);
        }
    }

    @Test
    void aThreadListingIsOneQueryOnItsBucketAndAnAgentListingOnePerBucket() {
        String collection = uniqueId("targets");
        String agent = uniqueId("agent");
        try (MongoSnapshotStore four = open(collection, 4)) {
            seed(four, agent, 30, 3);
            FINDS.clear();
            four.list(RunQuery.forAgent(agent, NOW).threadId("t2").page(0, 50).build());
            assertThat(FINDS).singleElement().satisfies(f -> assertThat(f.toJson()).contains("\"bucket\": " + MongoBuckets.of("t2", 4)));
            FINDS.clear();
            four.list(RunQuery.forAgent(agent, NOW).page(0, 50).build());
            assertThat(FINDS).hasSize(4);
            for (int b = 0; b < 4; b++) {
                int bucket = b;
                assertThat(FINDS).anySatisfy(f -> assertThat(f.toJson()).contains("\"bucket\": " + bucket));
            }
            FINDS.clear();
            four.listDue(agent, T0.plusSeconds(10), 3);
            assertThat(FINDS).hasSize(4);
        }
        try (MongoSnapshotStore one = open(uniqueId("plain"), 1)) {
            FINDS.clear();
            one.list(RunQuery.forAgent(agent, NOW).page(0, 50).build());
            assertThat(FINDS).singleElement().satisfies(f -> assertThat(f.toJson()).doesNotContain("bucket"));
        }
    }

    @Test
    void aCompareAndSetNamesTheWholeShardKey() {
        String collection = uniqueId("cas");
        String agent = uniqueId("agent");
        try (MongoSnapshotStore four = open(collection, 4)) {
            RunSnapshot run = suspendedAt(agent, agent + "-1", T0).threadId("t9").build();
            assertThat(four.insert(run)).isTrue();
            FIND_AND_MODIFIES.clear();
            RunSnapshot claimed = run.toBuilder().status(dev.baton.store.RunStatus.RESUMING).version(2)
                    .lease("me", T0.plusSeconds(60)).build();
            assertThat(four.compareAndSet(1, claimed)).isTrue();
            assertThat(FIND_AND_MODIFIES).singleElement().satisfies(c -> {
                String json = c.getDocument("query").toJson();
                assertThat(json).contains("\"agentId\": \"" + agent + "\"", "\"bucket\": " + MongoBuckets.of("t9", 4), "\"createdAt\"",
                        "\"version\"");
            });
            assertThat(four.find(run.runId())).contains(claimed);
            // a stale version still loses, with the shard key in the filter or not
            assertThat(four.compareAndSet(1, claimed)).isFalse();
        }
    }

    @Test
    void aDeleteWithRecordsKeepsTheShardKeyInItsTombstoneAndNoListingSeesIt() {
        String collection = uniqueId("tomb");
        String agent = uniqueId("agent");
        try (MongoSnapshotStore four = open(collection, 4)) {
            RunSnapshot kept = suspendedAt(agent, agent + "-kept", T0).threadId("t1").expiresAt(T0.plusSeconds(1)).build();
            RunSnapshot gone = suspendedAt(agent, agent + "-gone", T0.plusSeconds(1)).threadId("t1").expiresAt(T0.plusSeconds(1)).build();
            assertThat(four.insert(kept)).isTrue();
            assertThat(four.insert(gone)).isTrue();
            FIND_AND_MODIFIES.clear();
            assertThat(four.delete(gone.runId(), 1, List.of(record(gone, "k-1")))).isTrue();
            BsonDocument replace = FIND_AND_MODIFIES.get(0);
            for (String field : List.of("agentId", "bucket", "createdAt")) {
                assertThat(replace.getDocument("query").toJson()).contains("\"" + field + "\"");
                assertThat(replace.getDocument("update").containsKey(field)).as(field).isTrue();
            }
            assertThat(raw(collection).countDocuments(Filters.eq("_id", gone.runId()))).isZero();
            assertThat(four.listDecisions(dev.baton.store.DecisionQuery.forAgent(agent).build()).items()).hasSize(1);

            // what a crash right after that replacement leaves: the tombstone with the run's shard key and its records
            RunSnapshot crashed = suspendedAt(agent, agent + "-crashed", T0.plusSeconds(2)).threadId("t1").expiresAt(T0.plusSeconds(1)).build();
            assertThat(four.insert(crashed)).isTrue();
            raw(collection).replaceOne(Filters.eq("_id", crashed.runId()), new Document("_id", crashed.runId())
                    .append(MongoDecisions.TOMBSTONE, true).append("agentId", agent).append(MongoBuckets.FIELD, MongoBuckets.of("t1", 4))
                    .append("createdAt", java.util.Date.from(crashed.createdAt()))
                    .append(MongoDecisions.PENDING, List.of(DecisionDocuments.toDocument(record(crashed, "k-2")))));
            assertThat(four.list(RunQuery.forAgent(agent, NOW).build()).items()).containsExactly(kept);
            assertThat(four.list(RunQuery.forAgent(agent, NOW).threadId("t1").build()).items()).containsExactly(kept);
            assertThat(four.list(RunQuery.forAgent(agent, NOW).countOnly().build()).total()).isEqualTo(1);
            assertThat(four.listDue(agent, NOW, 10)).extracting(RunSnapshot::runId).containsExactly(kept.runId());
            assertThat(four.find(crashed.runId())).isEmpty();
            // the run id is free again, and the tombstone's record was copied
            assertThat(four.insert(crashed)).isTrue();
            assertThat(four.listDecisions(dev.baton.store.DecisionQuery.forAgent(agent).build()).items()).hasSize(2);
        }
    }

    private static dev.baton.store.DecisionRecord record(RunSnapshot run, String key) {
        return dev.baton.store.DecisionRecord.builder().decisionId(uniqueId("d")).agentId(run.agentId()).runId(run.runId())
                .threadId(run.threadId()).resourceId(run.resourceId()).toolCallId("call-1").toolName("charge")
                .kind(dev.baton.store.DecisionKind.DECLINE).actor("alice").instanceId("i-1").decidedAt(T0).idempotencyKey(key).build();
    }

    /**
     * On a server with {@code explain} (not the in-JVM one, which has none: the test then logs and stops): each
     * per-bucket query an agent listing and {@code listDue} send runs on its bucketed index, with no collection
     * scan and no in-memory sort (the listing reads the ascending index backwards).
     */
    @Test
    void eachPerBucketQueryUsesItsBucketedIndexWhereTheServerCanExplain() {
        String collection = uniqueId("explain");
        String agent = uniqueId("agent");
        try (MongoSnapshotStore four = open(collection, 4)) {
            seed(four, agent, 40, 4);
            FINDS.clear();
            four.list(RunQuery.forAgent(agent, NOW).status(dev.baton.store.RunStatus.SUSPENDED).page(0, 10).build());
            List<BsonDocument> listing = List.copyOf(FINDS);
            FINDS.clear();
            four.listDue(agent, T0.plusSeconds(10), 5);
            List<BsonDocument> due = List.copyOf(FINDS);
            assertThat(listing).hasSize(4);
            assertThat(due).hasSize(4);
            MongoCollection<Document> c = raw(collection);
            List<Document> listingPlans = new ArrayList<>();
            List<Document> duePlans = new ArrayList<>();
            try {
                for (BsonDocument f : listing) {
                    listingPlans.add(c.find(f).sort(new Document("createdAt", -1).append("_id", -1)).limit(10)
                            .explain(com.mongodb.ExplainVerbosity.QUERY_PLANNER));
                }
                for (BsonDocument f : due) {
                    duePlans.add(c.find(f).sort(new Document("expiresAt", 1).append("_id", 1)).limit(5)
                            .explain(com.mongodb.ExplainVerbosity.QUERY_PLANNER));
                }
            } catch (com.mongodb.MongoCommandException e) {
                if (e.getErrorCode() == MongoSnapshotStore.COMMAND_NOT_FOUND && MongoTestServer.inJvm()) {
                    org.slf4j.LoggerFactory.getLogger(MongoBucketsTest.class)
                            .info("explain is not supported by the in-JVM server ({}); bucketed plans not checked", e.getErrorMessage());
                    return;
                }
                throw e;
            }
            for (Document plan : listingPlans) MongoIndexTest.assertUsesOnly(plan, MongoIndexes.INDEX_AGENT_BUCKET);
            for (Document plan : duePlans) MongoIndexTest.assertUsesOnly(plan, MongoIndexes.INDEX_AGENT_BUCKET_EXPIRES);
        }
    }

    @Test
    void fourBucketsHaveTheirIndexes() {
        String collection = uniqueId("indexes");
        try (MongoSnapshotStore ignored = open(collection, 4)) {
            Map<String, Document> keys = new HashMap<>();
            for (Document i : raw(collection).listIndexes()) keys.put(i.getString("name"), i.get("key", Document.class));
            assertThat(keys).containsKeys(MongoIndexes.INDEX_AGENT_BUCKET, MongoIndexes.INDEX_AGENT_THREAD,
                    MongoIndexes.INDEX_AGENT_BUCKET_RESOURCE, MongoIndexes.INDEX_AGENT_THREAD_RESOURCE,
                    MongoIndexes.INDEX_AGENT_BUCKET_EXPIRES, MongoIndexes.INDEX_AGENT_BUCKET_NOTIFY, MongoIndexes.INDEX_AGENT_DECIDERS);
            assertThat(keys).doesNotContainKeys(MongoIndexes.INDEX_AGENT, MongoIndexes.INDEX_AGENT_EXPIRES);
            assertThat(new ArrayList<>(keys.get(MongoIndexes.INDEX_AGENT_BUCKET).keySet()))
                    .containsExactly("agentId", "bucket", "createdAt", "_id");
            assertThat(keys.get(MongoIndexes.INDEX_AGENT_BUCKET).values()).allMatch(v -> ((Number) v).intValue() == 1);
        }
    }

    @Test
    void theBucketCountIsCheckedWhereItIsGiven() {
        assertThatThrownBy(() -> MongoSnapshotStore.builder(client, database).buckets(0))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("buckets");
        assertThatThrownBy(() -> MongoSnapshotStore.builder(client, database).buckets(1025))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("1024");
        for (String bad : List.of("0", "-1", "x", "2.5", "100000")) {
            assertThatThrownBy(() -> dev.baton.store.SnapshotStores.open(MongoTestServer.url(), Map.of("buckets", bad)))
                    .as(bad).isInstanceOf(InvalidOptionException.class).hasMessageContaining("buckets");
        }
    }
}
