package dev.baton.store.mongo;

import com.mongodb.MongoClientSettings;
import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.IndexModel;
import java.util.ArrayList;
import java.util.List;
import org.bson.Document;

/**
 * The collections of one {@link MongoSnapshotStore}, opened on its client: the runs' (named by the
 * user), the thread memory's two and the audit trail's, named after it ({@code <runs>_threads},
 * {@code <runs>_messages}, {@code <runs>_decisions}; and {@code <runs>_meta}, which records the bucket count
 * the runs were bucketed with, see {@link MongoBuckets}),
 * all with the driver's default codecs, read from the primary and written with the store's write
 * concern; and the {@code admin} database, whose {@code hello} tells the server's clock. Opening them
 * creates, and checks, their indexes ({@link MongoIndexes}).
 */
record MongoCollections(MongoCollection<Document> runs, MongoCollection<Document> threads,
                        MongoCollection<Document> messages, MongoCollection<Document> decisions, MongoDatabase admin,
                        int buckets) {

    /** The thread memory's collections are named after the runs' collection: {@code <runs>_threads}, {@code <runs>_messages}. */
    static final String THREADS_SUFFIX = "_threads";
    static final String MESSAGES_SUFFIX = "_messages";
    /** The audit trail's collection: {@code <runs>_decisions}. */
    static final String DECISIONS_SUFFIX = "_decisions";

    /**
     * Opens the collections of a store on {@code database.runs}, creates their indexes if missing, and
     * re-buckets the runs if they were bucketed with another count than {@code buckets}.
     *
     * @throws dev.baton.StorageException if the server cannot be reached or its indexes do not match
     */
    static MongoCollections open(MongoAccess access, MongoClient client, String database, String runs,
                                 WriteConcernLevel writeConcern, int buckets) {
        MongoCollection<Document> c = client.getDatabase(database).getCollection(runs)
                // the user's client may carry a codec registry that maps Date or String differently
                .withCodecRegistry(MongoClientSettings.getDefaultCodecRegistry())
                .withReadPreference(ReadPreference.primary());
        // never unacknowledged: an unacknowledged insert cannot report a duplicate key, nor an update its match count
        MongoCollection<Document> runCollection = c.withWriteConcern(writeConcern.applyTo(c.getWriteConcern()));
        MongoDatabase admin = client.getDatabase("admin").withCodecRegistry(MongoClientSettings.getDefaultCodecRegistry());
        WriteConcern concern = runCollection.getWriteConcern();
        MongoCollection<Document> threads = sibling(client, database, runs + THREADS_SUFFIX, concern);
        MongoCollection<Document> messages = sibling(client, database, runs + MESSAGES_SUFFIX, concern);
        MongoCollection<Document> decisions = sibling(client, database, runs + DECISIONS_SUFFIX, concern);
        List<IndexModel> runIndexes = new ArrayList<>(MongoIndexes.runIndexes(buckets));
        runIndexes.add(MongoDecisions.pendingIndex());
        MongoIndexes.ensure(access, runCollection, runIndexes);
        MongoIndexes.ensure(access, decisions, DecisionDocuments.indexes());
        MongoIndexes.ensure(access, threads, MongoMemoryStore.threadIndexes());
        MongoIndexes.ensure(access, messages, MongoMemoryStore.messageIndexes());
        // before anything reads by bucket: documents bucketed with another count (or none) get this one
        MongoBuckets.settle(access, runCollection, sibling(client, database, runs + MongoBuckets.META_SUFFIX, concern), buckets);
        return new MongoCollections(runCollection, threads, messages, decisions, admin, buckets);
    }

    /** Another collection of the store's database, with the same codecs, read preference and write concern as the runs. */
    private static MongoCollection<Document> sibling(MongoClient client, String database, String name, WriteConcern concern) {
        return client.getDatabase(database).getCollection(name)
                .withCodecRegistry(MongoClientSettings.getDefaultCodecRegistry())
                .withReadPreference(ReadPreference.primary())
                .withWriteConcern(concern);
    }
}
