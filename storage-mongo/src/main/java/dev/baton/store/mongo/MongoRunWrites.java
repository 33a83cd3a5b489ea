package dev.baton.store.mongo;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static dev.baton.store.mongo.RunDocuments.FIELDS;
import static dev.baton.store.mongo.RunDocuments.ID;
import static dev.baton.store.mongo.RunDocuments.LEASE_EXPIRES_AT;
import static dev.baton.store.mongo.RunDocuments.LEASE_OWNER;
import static dev.baton.store.mongo.RunDocuments.STATUS;
import static dev.baton.store.mongo.RunDocuments.VERSION;

import com.mongodb.MongoException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Updates;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.time.Instant;
import java.util.Date;
import java.util.Objects;
import java.util.Optional;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.jspecify.annotations.Nullable;

/**
 * The operations on one run document of a {@link MongoSnapshotStore} that write no decision records:
 * insert ({@code insertOne}, with the run's bucket when the store has buckets; a duplicate key means the run exists), find, compare-and-set (one
 * {@code findOneAndUpdate} on {@code _id} and the expected {@code version}), delete, lease renewal
 * and the notification update, each one command. The forms with records are {@link MongoDecisions}'.
 */
final class MongoRunWrites {
    /** What {@link #find} reads: a run's fields, and the mark of a tombstone. */
    private static final Bson FIND_FIELDS = Projections.fields(FIELDS, Projections.include(MongoDecisions.TOMBSTONE));

    private final MongoAccess access;
    private final MongoCollection<Document> collection;
    private final MongoDecisions decisions;
    private final int buckets;

    MongoRunWrites(MongoAccess access, MongoCollection<Document> collection, MongoDecisions decisions, int buckets) {
        this.access = access;
        this.collection = collection;
        this.decisions = decisions;
        this.buckets = buckets;
    }

    boolean insert(RunSnapshot snapshot, boolean clearTombstone) {
        access.checkOpen("insert");
        Document doc = RunDocuments.toDocument(snapshot);
        // with buckets, the run's bucket (its thread's); never changed afterwards, like the other indexed fields
        if (buckets > 1) doc.append(MongoBuckets.FIELD, MongoBuckets.of(snapshot, buckets));
        try {
            collection.insertOne(doc);
            return true;
        } catch (MongoWriteException e) {
            // _id is the only unique index, so a duplicate key means "this run exists", unless it is the
            // tombstone of a deleted run whose records a crash kept from being copied: copy them, then insert
            if (e.getError().getCode() == MongoSnapshotStore.DUPLICATE_KEY) {
                return clearTombstone && decisions.clearTombstone(snapshot.runId()) && insert(snapshot, false);
            }
            throw access.failure("insert", snapshot.runId(), e);
        } catch (MongoException e) {
            throw access.failure("insert", snapshot.runId(), e);
        }
    }

    Optional<RunSnapshot> find(String runId) {
        // a deleted run's tombstone (MongoDecisions), which a crash may have left, is no run
        Document doc = access.run("find", runId, () -> collection.find(eq(ID, runId)).projection(FIND_FIELDS).first());
        if (doc == null || doc.containsKey(MongoDecisions.TOMBSTONE)) return Optional.empty();
        return Optional.of(RunDocuments.fromDocument(doc));
    }

    boolean compareAndSet(long expectedVersion, RunSnapshot replacement) {
        Bson filter = casFilter(expectedVersion, replacement);
        // the projection keeps the (possibly megabytes large) old payload off the wire
        FindOneAndUpdateOptions options = new FindOneAndUpdateOptions().projection(Projections.include(ID));
        Document before = access.run("compare-and-set", replacement.runId(),
                () -> collection.findOneAndUpdate(filter, RunDocuments.replacing(replacement), options));
        return before != null;
    }

    /**
     * A compare-and-set's filter: {@code _id} and the expected {@code version}; with buckets, also the run's
     * {@code agentId}, {@code bucket} and {@code createdAt} (which never change), the recommended shard key: a
     * sharded cluster then sends the write to the one shard that holds the run, and MongoDB before 7.1 accepts a
     * {@code findAndModify} on a sharded collection only with the shard key in its filter.
     */
    Bson casFilter(long expectedVersion, RunSnapshot r) {
        Bson filter = and(eq(ID, r.runId()), eq(VERSION, expectedVersion));
        if (buckets == 1) return filter;
        return and(filter, eq(RunDocuments.AGENT_ID, r.agentId()), MongoBuckets.in(MongoBuckets.of(r, buckets)),
                eq(RunDocuments.CREATED_AT, Date.from(r.createdAt())));
    }

    boolean delete(String runId, long expectedVersion) {
        long deleted = access.run("delete", runId,
                () -> collection.deleteOne(and(eq(ID, runId), eq(VERSION, expectedVersion))).getDeletedCount());
        return deleted == 1;
    }

    /** One {@code updateOne}: filter {@code {_id, version, status: "RESUMING", leaseOwner}}, update {@code $set leaseExpiresAt, $inc version}. */
    boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(owner, "owner");
        Bson filter = and(eq(ID, runId), eq(VERSION, expectedVersion), eq(STATUS, RunStatus.RESUMING.name()),
                eq(LEASE_OWNER, owner));
        Bson update = Updates.combine(Updates.set(LEASE_EXPIRES_AT, Date.from(newExpiry)), Updates.inc(VERSION, 1L));
        long matched = access.run("lease renewal", runId, () -> collection.updateOne(filter, update).getMatchedCount());
        return matched == 1;
    }

    /** One {@code updateOne}: filter {@code {_id, version, notifyAt}}, update {@code $set notifyAt, notifyState}. */
    boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt, @Nullable Instant notifyAt,
            @Nullable String notifyState) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(expectedNotifyAt, "expectedNotifyAt");
        Bson filter = and(eq(ID, runId), eq(VERSION, expectedVersion), eq(RunDocuments.NOTIFY_AT, Date.from(expectedNotifyAt)));
        Bson update = Updates.combine(Updates.set(RunDocuments.NOTIFY_AT, RunDocuments.date(notifyAt)),
                Updates.set(RunDocuments.NOTIFY_STATE, notifyState));
        return access.run("notification update", runId, () -> collection.updateOne(filter, update).getMatchedCount()) == 1;
    }
}
