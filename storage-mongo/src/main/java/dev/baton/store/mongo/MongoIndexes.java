package dev.baton.store.mongo;

import static dev.baton.store.mongo.RunDocuments.AGENT_ID;
import static dev.baton.store.mongo.RunDocuments.CREATED_AT;
import static dev.baton.store.mongo.RunDocuments.EXPIRES_AT;
import static dev.baton.store.mongo.RunDocuments.ID;
import static dev.baton.store.mongo.RunDocuments.RESOURCE_ID;
import static dev.baton.store.mongo.RunDocuments.THREAD_ID;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexModel;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import dev.baton.StorageException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The indexes of the runs' collection, and how a store makes sure that a collection has the indexes
 * it wants (the runs', and those of {@link MongoMemoryStore}'s collections): created when the store
 * opens, idempotently, then checked, so that a same-named index with other keys is reported instead
 * of silently costing every query.
 */
final class MongoIndexes {
    /** Index names, fixed so that reopening finds (and does not duplicate) them. */
    static final String INDEX_AGENT = "baton_agent_created";
    static final String INDEX_AGENT_THREAD = "baton_agent_thread_created";
    static final String INDEX_AGENT_RESOURCE = "baton_agent_resource_created";
    static final String INDEX_AGENT_THREAD_RESOURCE = "baton_agent_thread_resource_created";
    static final String INDEX_AGENT_EXPIRES = "baton_agent_expires";
    static final String INDEX_AGENT_NOTIFY = "baton_agent_notify";
    /**
     * The deciders filter ({@code RunQuery.deciders()}): a multikey index on the labels in the agent's part, in
     * listing order; one index range per granting label.
     */
    static final String INDEX_AGENT_DECIDERS = "baton_agent_deciders_created";
    /** With buckets (issue 27): the agent's listing, ascending so that it also backs the shard key {agentId, bucket, createdAt}. */
    static final String INDEX_AGENT_BUCKET = "baton_agent_bucket_created";
    static final String INDEX_AGENT_BUCKET_RESOURCE = "baton_agent_bucket_resource_created";
    static final String INDEX_AGENT_BUCKET_EXPIRES = "baton_agent_bucket_expires";
    static final String INDEX_AGENT_BUCKET_NOTIFY = "baton_agent_bucket_notify";

    private MongoIndexes() {
    }

    /**
     * The runs' index specifications for a store with {@code buckets} buckets: with one, those below; with more,
     * the agent's, the resource's and the due ones carry the bucket after the agentId (a per-bucket query is one
     * range), and the thread's stay as they are (a thread's runs share a bucket).
     */
    static List<IndexModel> runIndexes(int buckets) {
        if (buckets == 1) return runIndexes();
        Bson order = Indexes.compoundIndex(Indexes.descending(CREATED_AT), Indexes.descending(ID));
        String bucket = MongoBuckets.FIELD;
        List<IndexModel> one = runIndexes();
        return List.of(
                // read backwards by the listing (sort {createdAt: -1, _id: -1}); ascending, it backs the recommended shard key
                new IndexModel(Indexes.ascending(AGENT_ID, bucket, CREATED_AT, ID), new IndexOptions().name(INDEX_AGENT_BUCKET)),
                one.get(1),
                new IndexModel(Indexes.compoundIndex(Indexes.ascending(AGENT_ID, bucket, RESOURCE_ID), order),
                        new IndexOptions().name(INDEX_AGENT_BUCKET_RESOURCE)),
                one.get(3),
                new IndexModel(Indexes.ascending(AGENT_ID, bucket, EXPIRES_AT, ID), new IndexOptions().name(INDEX_AGENT_BUCKET_EXPIRES)),
                new IndexModel(Indexes.ascending(AGENT_ID, bucket, RunDocuments.NOTIFY_AT, ID),
                        new IndexOptions().name(INDEX_AGENT_BUCKET_NOTIFY)),
                one.get(6));
    }

    /** The runs' index specifications, in the order they are created; equality fields first, then the listing order. */
    static List<IndexModel> runIndexes() {
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
                new IndexModel(Indexes.ascending(AGENT_ID, EXPIRES_AT, ID), new IndexOptions().name(INDEX_AGENT_EXPIRES)),
                // listNotificationsDue: a range on notifyAt in the agent's part, oldest first with the runId tie-break
                new IndexModel(Indexes.ascending(AGENT_ID, RunDocuments.NOTIFY_AT, ID), new IndexOptions().name(INDEX_AGENT_NOTIFY)),
                // the deciders filter: the labels are an array, so this index is multikey (one entry per label)
                new IndexModel(Indexes.compoundIndex(Indexes.ascending(AGENT_ID, RunDocuments.DECIDERS), order),
                        new IndexOptions().name(INDEX_AGENT_DECIDERS)));
    }

    /**
     * Creates the {@code wanted} indexes on {@code collection} if missing, then checks that every one
     * of them has the keys asked for.
     *
     * @throws StorageException if the server cannot be reached, refuses an index, or has a same-named
     *         index with other keys (the message says which, and to drop it)
     */
    static void ensure(MongoAccess access, MongoCollection<Document> collection, List<IndexModel> wanted) {
        // createIndexes with the same names and keys is a no-op on the server, so every open may do it
        access.run("creating the indexes", null, () -> collection.createIndexes(wanted));
        // MongoDB refuses a same-named index with other keys above; check anyway, since not every
        // server that speaks the protocol does, and a wrong index would silently cost every query
        Map<String, List<Document>> found = new HashMap<>();
        access.run("listing the indexes", null, () -> {
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
                throw new StorageException(access.description + ": the indexes do not match: the collection "
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
}
