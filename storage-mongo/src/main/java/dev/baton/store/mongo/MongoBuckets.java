package dev.baton.store.mongo;

import dev.baton.store.ShardMerge;
import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.exists;
import static dev.baton.store.mongo.RunDocuments.AGENT_ID;
import static dev.baton.store.mongo.RunDocuments.CREATED_AT;
import static dev.baton.store.mongo.RunDocuments.ID;
import static dev.baton.store.mongo.RunDocuments.THREAD_ID;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.UpdateOneModel;
import com.mongodb.client.model.Updates;
import com.mongodb.client.model.WriteModel;
import dev.baton.InvalidOptionException;
import dev.baton.store.RunSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.zip.CRC32;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.jspecify.annotations.Nullable;

/**
 * The buckets that spread one agent's runs (issue 27): with {@code buckets} N &gt; 1, every run document
 * carries {@code bucket}, CRC-32 of its threadId's UTF-8 bytes (of its runId when it has no thread) mod N,
 * so a thread's runs share a bucket. The agent's and resource's listings then read each bucket on its own
 * index range and merge ({@link ShardMerge}); a thread's listing reads its one bucket.
 *
 * <p>The N a collection's documents were bucketed with is recorded in {@code <runs>_meta}
 * ({@code {_id: "buckets", buckets: N, at: Date}}). A store that opens with another N re-buckets every run
 * document first ({@link #settle}): one pass, unordered bulk writes of {@value #BATCH} updates. With N = 1
 * the store writes and reads no bucket (the layout of a store without the option), and drops the record,
 * so that the next store with N &gt; 1 re-buckets what was written meanwhile.
 */
final class MongoBuckets {
    /** The run document's field. */
    static final String FIELD = "bucket";
    /** The most buckets a store may have. */
    static final int MAX = 1024;
    /** The meta collection's suffix and the record's id. */
    static final String META_SUFFIX = "_meta";
    static final String RECORD = "buckets";
    /** How many re-bucketing updates go in one bulk write. */
    private static final int BATCH = 500;

    private MongoBuckets() {
    }

    /** {@code buckets} if it is in [1, {@value #MAX}], else an {@link InvalidOptionException}. */
    static int check(int buckets) {
        if (buckets < 1 || buckets > MAX) {
            throw new InvalidOptionException("buckets", "must be from 1 to " + MAX + ", was " + buckets);
        }
        return buckets;
    }

    /** The bucket of a run: that of its thread, or of its own id when it has none. */
    static int of(RunSnapshot s, int buckets) {
        return of(s.threadId() != null ? s.threadId() : s.runId(), buckets);
    }

    /** CRC-32 (the zlib polynomial, {@link CRC32}) of the key's UTF-8 bytes, mod {@code buckets}. */
    static int of(String key, int buckets) {
        CRC32 crc = new CRC32();
        crc.update(key.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % buckets);
    }

    /** The condition "in bucket {@code b}". */
    static Bson in(int b) {
        return eq(FIELD, b);
    }

    /**
     * Makes the collection's documents bucketed with {@code buckets}: nothing if the record says so already;
     * else every run document whose bucket differs is updated, then the record is written (N &gt; 1) or
     * dropped (N = 1, whose reads ignore the field).
     *
     * @return how many run documents were re-bucketed
     */
    static long settle(MongoAccess access, MongoCollection<Document> runs, MongoCollection<Document> meta, int buckets) {
        Document record = access.run("reading the bucket count", null, () -> meta.find(eq(ID, RECORD)).first());
        Number recorded = record == null ? null : record.get(RECORD, Number.class);
        if (buckets == 1) {
            if (record != null) access.run("dropping the bucket count", null, () -> meta.deleteOne(eq(ID, RECORD)));
            return 0;
        }
        if (recorded != null && recorded.intValue() == buckets) return 0;
        long changed = rebucket(access, runs, buckets);
        Document now = new Document(ID, RECORD).append(RECORD, buckets).append("at", new Date());
        access.run("recording the bucket count", null, () -> meta.replaceOne(eq(ID, RECORD), now, new ReplaceOptions().upsert(true)));
        return changed;
    }

    /**
     * One pass over the run documents (tombstones are left alone). Each update's filter
     * holds the document's whole shard key ({@code agentId, bucket, createdAt}) and {@code _id}, as MongoDB
     * asks of an update that changes a shard key value.
     */
    private static long rebucket(MongoAccess access, MongoCollection<Document> runs, int buckets) {
        return access.run("re-bucketing the runs", null, () -> {
            long changed = 0;
            List<WriteModel<Document>> batch = new ArrayList<>(BATCH);
            for (Document d : runs.find(and(exists(AGENT_ID), MongoDecisions.NOT_TOMBSTONE)).projection(Projections.include(ID, AGENT_ID, THREAD_ID, CREATED_AT, FIELD))) {
                String thread = d.getString(THREAD_ID);
                int wanted = of(thread != null ? thread : d.getString(ID), buckets);
                @Nullable Object old = d.get(FIELD);
                if (old instanceof Number n && n.intValue() == wanted) continue;
                batch.add(new UpdateOneModel<>(and(eq(ID, d.get(ID)), eq(AGENT_ID, d.get(AGENT_ID)), eq(CREATED_AT, d.get(CREATED_AT)),
                        eq(FIELD, old)), Updates.set(FIELD, wanted)));
                if (batch.size() == BATCH) {
                    changed += runs.bulkWrite(batch, new BulkWriteOptions().ordered(false)).getModifiedCount();
                    batch.clear();
                }
            }
            if (!batch.isEmpty()) changed += runs.bulkWrite(batch, new BulkWriteOptions().ordered(false)).getModifiedCount();
            return changed;
        });
    }
}
