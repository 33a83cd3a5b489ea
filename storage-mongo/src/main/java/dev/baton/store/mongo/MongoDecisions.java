package dev.baton.store.mongo;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.exists;
import static com.mongodb.client.model.Filters.gte;
import static com.mongodb.client.model.Filters.in;
import static com.mongodb.client.model.Filters.lt;
import static com.mongodb.client.model.Filters.lte;
import static com.mongodb.client.model.Filters.ne;
import static com.mongodb.client.model.Filters.or;
import static com.mongodb.client.model.Filters.size;
import static dev.baton.store.mongo.DecisionDocuments.ACTOR;
import static dev.baton.store.mongo.DecisionDocuments.AGENT_ID;
import static dev.baton.store.mongo.DecisionDocuments.DECIDED_AT;
import static dev.baton.store.mongo.DecisionDocuments.ID;
import static dev.baton.store.mongo.DecisionDocuments.RESOURCE_ID;
import static dev.baton.store.mongo.DecisionDocuments.RUN_ID;
import static dev.baton.store.mongo.DecisionDocuments.THREAD_ID;
import static dev.baton.store.mongo.DecisionDocuments.UNIQUE_KEY;

import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.FindOneAndReplaceOptions;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexModel;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.jspecify.annotations.Nullable;

/**
 * The audit trail of one {@link MongoSnapshotStore} (capability {@code DECISIONS}), without multi-document
 * transactions (which the in-JVM test server and a standalone {@code mongod} do not have):
 * <ol>
 *   <li>the write that changes a run carries its records <em>inside the run document</em>: the compare-and-set
 *       {@code $push}es them onto the run's {@code pendingDecisions} in the same {@code findOneAndUpdate}; a
 *       delete replaces the run, in one {@code findOneAndReplace}, by a tombstone
 *       {@code {_id, tombstone: true, pendingDecisions}} that no run query matches (it has no agentId and no
 *       version; with buckets it keeps the run's shard key {@code agentId, bucket, createdAt}, and listings
 *       exclude it by {@code tombstone: {$ne: true}}). One document, one atomic write: the records exist exactly when the change does;</li>
 *   <li>then the records are copied to {@code <runs>_decisions} ({@code replaceOne} upserts by decisionId:
 *       copying twice is harmless), pulled from the pending list, and a tombstone left empty is deleted;</li>
 *   <li>a crash between 1 and 2 leaves pending records, which every later read of decisions, every
 *       write of decisions and the opening of the store copy first ({@link #catchUp}), found on a sparse
 *       index of the runs' collection on {@code pendingDecisions._id} (empty in a quiet store).</li>
 * </ol>
 * Idempotency keys and decisionIds are checked before the write, after the catch-up, against
 * {@code <runs>_decisions}; the unique index {@code {agentId, uniqueKey}} enforces the key there. Two writes on
 * different runs racing with the same key can both pass the check (no transaction spans the two
 * collections): the second record is then kept without the unique entry ({@code uniqueKey} = its own id),
 * and {@link #find} keeps answering with the first. Writes on the same run are ordered by its version.
 */
final class MongoDecisions {
    static final String PENDING = "pendingDecisions";
    static final String TOMBSTONE = "tombstone";
    static final String INDEX_PENDING = "baton_pending_decisions";
    /** Not a tombstone: with buckets a tombstone keeps the run's agentId (its shard key), so listings exclude it by this. */
    static final Bson NOT_TOMBSTONE = ne(TOMBSTONE, true);
    /** How many documents with pending records one catch-up copies at most (a later one copies the rest). */
    private static final int CATCH_UP_BATCH = 100;

    private static final System.Logger LOG = System.getLogger(MongoDecisions.class.getName());
    private static final Bson ORDER = Sorts.orderBy(Sorts.descending(DECIDED_AT), Sorts.descending(ID));

    private final MongoAccess access;
    private final MongoCollection<Document> runs;
    private final MongoCollection<Document> decisions;
    private final int buckets;

    MongoDecisions(MongoAccess access, MongoCollection<Document> runs, MongoCollection<Document> decisions, int buckets) {
        this.access = access;
        this.runs = runs;
        this.decisions = decisions;
        this.buckets = buckets;
    }

    /** Refuses records of another run, or none: a programming error of the caller; nothing is written. */
    static void checkRecords(String agentId, String runId, List<DecisionRecord> records) {
        if (records.isEmpty()) throw new IllegalArgumentException("decisions must not be empty (run " + runId + ")");
        for (DecisionRecord d : records) {
            if (!d.agentId().equals(agentId) || !d.runId().equals(runId)) {
                throw new IllegalArgumentException("decision " + d.decisionId() + " is of run " + d.runId() + " of agent "
                        + d.agentId() + ", not of run " + runId + " of agent " + agentId);
            }
        }
    }

    /** The runs' collection's index of pending records: sparse, so it holds only the documents that have some. */
    static IndexModel pendingIndex() {
        return new IndexModel(Indexes.ascending(PENDING + "." + ID), new IndexOptions().name(INDEX_PENDING).sparse(true));
    }

    /**
     * The compare-and-set {@code update} of the run, on {@code filter} (its {@code _id} and expected version, see
     * {@link MongoRunWrites#casFilter}), with the records pushed onto its pending list in the same update.
     */
    boolean compareAndSet(String runId, Bson filter, Bson update, List<DecisionRecord> records) {
        List<Document> docs = prepare(runId, records);
        if (docs == null) return false;
        Bson withRecords = Updates.combine(update, Updates.pushEach(PENDING, docs));
        Document before = access.run("compare-and-set", runId, () -> runs.findOneAndUpdate(filter, withRecords,
                new FindOneAndUpdateOptions().projection(Projections.include(ID))));
        if (before == null) return false;
        copyAfterCommit(runId, docs, false);
        return true;
    }

    /**
     * The run, at {@code expectedVersion}, replaced by a tombstone holding the records; then the records copied out.
     * With buckets, the run's shard key ({@code agentId, bucket, createdAt}, which never change) is read first and
     * kept in the tombstone and named in the filter: on a collection sharded on it the replacement then changes no
     * shard key value and names its shard. Listings of a store with buckets leave tombstones out ({@link #NOT_TOMBSTONE}).
     */
    boolean delete(String runId, long expectedVersion, List<DecisionRecord> records) {
        List<Document> docs = prepare(runId, records);
        if (docs == null) return false;
        Bson filter = and(eq(ID, runId), eq(RunDocuments.VERSION, expectedVersion));
        Document tombstone = new Document(ID, runId).append(TOMBSTONE, true).append(PENDING, docs);
        if (buckets > 1) {
            Document key = access.run("delete", runId, () -> runs.find(and(eq(ID, runId), NOT_TOMBSTONE))
                    .projection(Projections.include(RunDocuments.AGENT_ID, MongoBuckets.FIELD, RunDocuments.CREATED_AT)).first());
            if (key == null) return false;
            List<Bson> shardKey = new ArrayList<>(List.of(filter));
            for (String field : List.of(RunDocuments.AGENT_ID, MongoBuckets.FIELD, RunDocuments.CREATED_AT)) {
                shardKey.add(eq(field, key.get(field)));
                tombstone.append(field, key.get(field));
            }
            filter = and(shardKey);
        }
        Bson replaced = filter;
        Document before = access.run("delete", runId, () -> runs.findOneAndReplace(replaced, tombstone,
                new FindOneAndReplaceOptions().projection(Projections.include(ID))));
        if (before == null) return false;
        copyAfterCommit(runId, docs, true);
        return true;
    }

    /**
     * The copy after a committed write: a failure now must not report the write as failed (it is done, and the
     * caller would act as if it were not); the records stay pending, and the next catch-up copies them.
     */
    private void copyAfterCommit(String runId, List<Document> docs, boolean tombstone) {
        try {
            copy(runId, docs, tombstone);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, access.description + ": the decision records of run " + runId
                    + " are written with it but not yet copied to their collection (" + e + "); the next read copies them");
        }
    }

    /**
     * Catches up, then checks the records: null (write nothing) if a decisionId or idempotency key is taken,
     * within the batch or in the collection; else their documents.
     */
    private @Nullable List<Document> prepare(String runId, List<DecisionRecord> records) {
        catchUp();
        Set<String> ids = new HashSet<>();
        Set<String> unique = new HashSet<>();
        List<Document> docs = new ArrayList<>(records.size());
        for (DecisionRecord r : records) {
            if (!ids.add(r.decisionId())) return null;
            if (!unique.add(DecisionDocuments.uniqueKey(r.idempotencyKey(), r.decisionId()))) return null;
            docs.add(DecisionDocuments.toDocument(r));
        }
        String agentId = records.get(0).agentId();
        Document taken = access.run("checking decisions", runId, () -> decisions.find(or(in(ID, ids),
                and(eq(AGENT_ID, agentId), in(UNIQUE_KEY, unique)))).projection(Projections.include(ID)).first());
        return taken == null ? docs : null;
    }

    /**
     * Copies records of the run document {@code runId} to the decisions' collection, then takes them off its pending
     * list; a tombstone left without records is deleted.
     */
    private void copy(String runId, List<Document> docs, boolean tombstone) {
        List<Object> ids = new ArrayList<>(docs.size());
        for (Document d : docs) {
            ids.add(d.get(ID));
            access.run("recording a decision", runId, () -> upsert(d));
        }
        access.run("recording a decision", runId, () -> runs.updateOne(eq(ID, runId), Updates.pull(PENDING, in(ID, ids))));
        if (tombstone) {
            access.run("recording a decision", runId,
                    () -> runs.deleteOne(and(eq(ID, runId), eq(TOMBSTONE, true), size(PENDING, 0))));
        }
    }

    /** Stores one record by its id, idempotently; a key taken by a racing record is kept off the unique index. */
    private Object upsert(Document d) {
        ReplaceOptions upsert = new ReplaceOptions().upsert(true);
        for (int attempt = 0; ; attempt++) {
            try {
                // a second attempt: another copier inserted the same record first, and the replace now matches it
                Document doc = attempt < 2 ? d
                        : new Document(d).append(UNIQUE_KEY, DecisionDocuments.uniqueKey(null, d.getString(ID)));
                return decisions.replaceOne(eq(ID, d.get(ID)), doc, upsert);
            } catch (MongoWriteException e) {
                // a third: another record holds the key (two writes raced past the check): keep this one off it
                if (e.getError().getCode() != MongoSnapshotStore.DUPLICATE_KEY || attempt == 2) throw e;
            }
        }
    }

    /**
     * If the run document {@code runId} is a tombstone (a crash kept its records from being copied): copies them and
     * deletes it, then true; else false.
     */
    boolean clearTombstone(String runId) {
        Document t = access.run("insert", runId, () -> runs.find(and(eq(ID, runId), eq(TOMBSTONE, true)))
                .projection(Projections.include(ID, PENDING)).first());
        if (t == null) return false;
        copy(runId, t.getList(PENDING, Document.class, List.of()), true);
        return true;
    }

    /**
     * Copies the records a crash left pending in run documents and tombstones (at most
     * {@value #CATCH_UP_BATCH} documents a call), so every read sees them. A query on a sparse index,
     * which in a quiet store holds nothing.
     */
    void catchUp() {
        List<Document> pending = access.run("catching up on decisions", null, () -> runs.find(exists(PENDING + "." + ID))
                .projection(Projections.include(ID, PENDING, TOMBSTONE)).limit(CATCH_UP_BATCH).into(new ArrayList<>()));
        for (Document p : pending) {
            List<Document> docs = p.getList(PENDING, Document.class, List.of());
            if (!docs.isEmpty()) copy(p.getString(ID), docs, Boolean.TRUE.equals(p.getBoolean(TOMBSTONE)));
        }
    }

    DecisionPage list(DecisionQuery q) {
        catchUp();
        List<Bson> conditions = new ArrayList<>();
        conditions.add(eq(AGENT_ID, q.agentId()));
        String index = DecisionDocuments.INDEX_AGENT;
        if (q.actor() != null) {
            conditions.add(eq(ACTOR, q.actor()));
            index = DecisionDocuments.INDEX_ACTOR;
        }
        if (q.resourceId() != null) {
            conditions.add(eq(RESOURCE_ID, q.resourceId()));
            index = DecisionDocuments.INDEX_RESOURCE;
        }
        if (q.threadId() != null) {
            conditions.add(eq(THREAD_ID, q.threadId()));
            index = DecisionDocuments.INDEX_THREAD;
        }
        if (q.runId() != null) {
            conditions.add(eq(RUN_ID, q.runId()));
            index = DecisionDocuments.INDEX_RUN;
        }
        if (q.from() != null) conditions.add(gte(DECIDED_AT, Date.from(q.from())));
        if (q.to() != null) conditions.add(lte(DECIDED_AT, Date.from(q.to())));
        DecisionQuery.After after = q.after();
        if (after != null) {
            Date at = Date.from(after.decidedAt());
            conditions.add(or(lt(DECIDED_AT, at), and(eq(DECIDED_AT, at), lt(ID, after.decisionId()))));
        }
        String hint = index;
        List<Document> found = access.run("listing decisions", q.runId(), () -> decisions.find(and(conditions))
                .sort(ORDER).hintString(hint).limit(q.limit() + 1).into(new ArrayList<>()));
        List<DecisionRecord> items = new ArrayList<>(found.size());
        for (Document d : found) items.add(DecisionDocuments.fromDocument(d));
        boolean more = items.size() > q.limit();
        return new DecisionPage(more ? items.subList(0, q.limit()) : items, more);
    }

    Optional<DecisionRecord> find(String agentId, String idempotencyKey) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        catchUp();
        // the record that owns the key on the unique index; one kept aside by a race is not it
        Document d = access.run("finding a decision", null, () -> decisions.find(and(eq(AGENT_ID, agentId),
                eq(UNIQUE_KEY, DecisionDocuments.uniqueKey(idempotencyKey, "")))).first());
        return Optional.ofNullable(d).map(DecisionDocuments::fromDocument);
    }

    int purge(String agentId, Instant olderThan, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(olderThan, "olderThan");
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        catchUp();
        Bson filter = and(eq(AGENT_ID, agentId), lt(DECIDED_AT, Date.from(olderThan)));
        List<Object> ids = new ArrayList<>();
        access.run("purging decisions", null, () -> {
            for (Document d : decisions.find(filter).sort(Sorts.ascending(DECIDED_AT, ID)).hintString(DecisionDocuments.INDEX_AGENT)
                    .projection(Projections.include(ID)).limit(limit)) {
                ids.add(d.get(ID));
            }
            return ids;
        });
        if (ids.isEmpty()) return 0;
        long deleted = access.run("purging decisions", null, () -> decisions.deleteMany(and(eq(AGENT_ID, agentId), in(ID, ids)))
                .getDeletedCount());
        return (int) deleted;
    }

}
