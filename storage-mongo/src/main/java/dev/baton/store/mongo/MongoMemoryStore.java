package dev.baton.store.mongo;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoWriteException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.FindOneAndDeleteOptions;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.IndexModel;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.Updates;
import dev.baton.StorageException;
import dev.baton.model.Role;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.StoredMessage;
import dev.baton.store.StoredMessagePage;
import dev.baton.store.ThreadPage;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.jspecify.annotations.Nullable;

/**
 * The thread memory of a {@link MongoSnapshotStore}, in two collections beside the runs
 * ({@code <runs>_threads} and {@code <runs>_messages}), on the store's client, reached through
 * {@link MongoSnapshotStore#memory()}.
 *
 * <pre>{@code
 * threads:  { _id: threadId, resourceId, title, metadata: "<JSON text, verbatim>", createdAt: Date, updatedAt: Date,
 *             seq: long (the message counter), gen: "<this incarnation of the thread>" }
 * messages: { threadId, gen, seq: long, runId, runIndex: int, role, content: "<JSON text>", createdAt: Date }
 * }</pre>
 * Indexes: {@code threads {resourceId: 1, updatedAt: -1, _id: -1}} for a resource's listing;
 * {@code messages {threadId: 1, gen: 1, seq: 1}} (unique) for the last messages and pages, and
 * {@code messages {threadId: 1, gen: 1, runId: 1, runIndex: 1}} (unique), which makes an append
 * idempotent per run message.
 *
 * <p>No transactions (the in-JVM test server has none, and a replica set is not required). An
 * append is two steps: one {@code findOneAndUpdate} {@code $inc}s the thread's counter by the number
 * of messages and sets its update time, which reserves a block of seqs no other append gets (so
 * concurrent appends interleave whole); one unordered {@code insertMany} writes the messages with
 * those seqs, and a duplicate key on the run-message index means "already there" and is skipped.
 * What a crash between or during the two steps leaves: a counter moved on past seqs that were never
 * written (a gap, which the contract allows), and perhaps some of the messages. The retry of the
 * same append (core appends again after recovering) reserves a new block, skips what is there and
 * writes the rest: nothing lost, nothing twice, the run's messages still in their order. While an
 * append is between its two steps, a reader may see a later append's messages and, a moment later,
 * the earlier one's at its lower seqs.
 *
 * <p>{@code gen} is a random id given to each thread when it is created: messages carry it and
 * reads ask for it, so a thread deleted and created again starts empty even if an append that was
 * under way during the deletion wrote its messages afterwards (they stay, unread, under the old
 * {@code gen}). Reading messages therefore takes two round trips: the thread's {@code gen}, then
 * the range.
 */
final class MongoMemoryStore implements MemoryStore {
    private static final SecureRandom RANDOM = new SecureRandom();

    static final String INDEX_THREADS_RESOURCE = "baton_threads_resource_updated";
    static final String INDEX_MESSAGES_SEQ = "baton_messages_thread_seq";
    static final String INDEX_MESSAGES_RUN = "baton_messages_run_message";

    static final String ID = "_id";
    static final String RESOURCE_ID = "resourceId";
    static final String TITLE = "title";
    static final String METADATA = "metadata";
    static final String CREATED_AT = "createdAt";
    static final String UPDATED_AT = "updatedAt";
    static final String SEQ = "seq";
    static final String GEN = "gen";
    static final String THREAD_ID = "threadId";
    static final String RUN_ID = "runId";
    static final String RUN_INDEX = "runIndex";
    static final String ROLE = "role";
    static final String CONTENT = "content";

    private static final Bson THREAD_FIELDS = Projections.include(ID, RESOURCE_ID, TITLE, METADATA, CREATED_AT, UPDATED_AT);
    private static final Bson THREAD_ORDER = Sorts.orderBy(Sorts.descending(UPDATED_AT), Sorts.descending(ID));

    private final MongoAccess access;
    private final MongoCollection<Document> threads;
    private final MongoCollection<Document> messages;

    MongoMemoryStore(MongoAccess access, MongoCollection<Document> threads, MongoCollection<Document> messages) {
        this.access = access;
        this.threads = threads;
        this.messages = messages;
    }

    /** The indexes of the two collections, in the order they are created. */
    static List<IndexModel> threadIndexes() {
        return List.of(new IndexModel(Indexes.compoundIndex(Indexes.ascending(RESOURCE_ID), Indexes.descending(UPDATED_AT),
                Indexes.descending(ID)), new IndexOptions().name(INDEX_THREADS_RESOURCE)));
    }

    static List<IndexModel> messageIndexes() {
        return List.of(
                new IndexModel(Indexes.ascending(THREAD_ID, GEN, SEQ), new IndexOptions().name(INDEX_MESSAGES_SEQ).unique(true)),
                new IndexModel(Indexes.ascending(THREAD_ID, GEN, RUN_ID, RUN_INDEX),
                        new IndexOptions().name(INDEX_MESSAGES_RUN).unique(true)));
    }

    @Override
    public boolean createThread(MemoryThread t) {
        Objects.requireNonNull(t, "thread");
        Document doc = new Document(ID, t.id())
                .append(RESOURCE_ID, t.resourceId())
                .append(TITLE, t.title())
                .append(METADATA, t.metadataJson())
                .append(CREATED_AT, Date.from(t.createdAt()))
                .append(UPDATED_AT, Date.from(t.updatedAt()))
                .append(SEQ, 0L)
                .append(GEN, gen());
        return access.run("creating thread '" + t.id() + "'", null, () -> {
            try {
                threads.insertOne(doc);
                return true;
            } catch (MongoWriteException e) {
                if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) return false;
                throw e;
            }
        });
    }

    @Override
    public Optional<MemoryThread> findThread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        Document d = access.run("reading thread '" + threadId + "'", null,
                () -> threads.find(eq(ID, threadId)).projection(THREAD_FIELDS).first());
        return Optional.ofNullable(d).map(this::thread);
    }

    @Override
    public boolean updateThread(MemoryThread t) {
        Objects.requireNonNull(t, "thread");
        Bson update = Updates.combine(Updates.set(TITLE, t.title()), Updates.set(METADATA, t.metadataJson()),
                Updates.set(UPDATED_AT, Date.from(t.updatedAt())));
        return access.run("updating thread '" + t.id() + "'", null,
                () -> threads.updateOne(eq(ID, t.id()), update).getMatchedCount() == 1);
    }

    /** One {@code find} on the resource index for the page, one count on it for the total. */
    @Override
    public ThreadPage listThreads(String resourceId, long offset, int limit) {
        Objects.requireNonNull(resourceId, "resourceId");
        checkPage(offset, limit);
        return access.run("listing the threads of resource '" + resourceId + "'", null, () -> {
            Bson filter = eq(RESOURCE_ID, resourceId);
            List<MemoryThread> page = new ArrayList<>();
            if (limit > 0 && offset <= Integer.MAX_VALUE) {
                for (Document d : threads.find(filter).projection(THREAD_FIELDS).sort(THREAD_ORDER).skip((int) offset).limit(limit)) {
                    page.add(thread(d));
                }
            }
            return new ThreadPage(page, threads.countDocuments(filter));
        });
    }

    /** Deletes the thread, then the messages of its incarnation. */
    @Override
    public boolean deleteThread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return access.run("deleting thread '" + threadId + "'", null, () -> {
            Document gone = threads.findOneAndDelete(eq(ID, threadId),
                    new FindOneAndDeleteOptions().projection(Projections.include(ID, GEN)));
            if (gone == null) return false;
            messages.deleteMany(and(eq(THREAD_ID, threadId), eq(GEN, gone.getString(GEN))));
            return true;
        });
    }

    @Override
    public boolean append(String threadId, List<StoredMessage.New> batch, Instant at) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(at, "at");
        List<StoredMessage.New> list = List.copyOf(batch);
        Date when = Date.from(at);
        return access.run("appending to thread '" + threadId + "'", null, () -> {
            // reserve a block of seqs: last = the counter after the $inc, first = last - size + 1
            Document t = threads.findOneAndUpdate(eq(ID, threadId),
                    Updates.combine(Updates.inc(SEQ, (long) list.size()), Updates.set(UPDATED_AT, when)),
                    new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER).projection(Projections.include(SEQ, GEN)));
            if (t == null) return false;
            if (list.isEmpty()) return true;
            long seq = t.get(SEQ, Number.class).longValue() - list.size() + 1;
            String gen = t.getString(GEN);
            List<Document> docs = new ArrayList<>(list.size());
            for (StoredMessage.New m : list) {
                docs.add(new Document(THREAD_ID, threadId).append(GEN, gen).append(SEQ, seq++).append(RUN_ID, m.runId())
                        .append(RUN_INDEX, m.runIndex()).append(ROLE, m.role().wireName()).append(CONTENT, m.content())
                        .append(CREATED_AT, when));
            }
            try {
                messages.insertMany(docs, new InsertManyOptions().ordered(false));
            } catch (MongoBulkWriteException e) {
                // a run message the thread has already (an append retried after a crash) is skipped
                for (BulkWriteError error : e.getWriteErrors()) {
                    if (ErrorCategory.fromErrorCode(error.getCode()) != ErrorCategory.DUPLICATE_KEY) throw e;
                }
            }
            return true;
        });
    }

    /** The thread's {@code gen}, then the range of its last {@code n} seqs on the seq index, newest first, reversed. */
    @Override
    public List<StoredMessage> lastMessages(String threadId, int n) {
        Objects.requireNonNull(threadId, "threadId");
        if (n < 0) throw new IllegalArgumentException("n must be >= 0, was " + n);
        if (n == 0) return List.of();
        return access.run("reading the last messages of thread '" + threadId + "'", null, () -> {
            String gen = gen(threadId);
            if (gen == null) return List.<StoredMessage>of();
            List<StoredMessage> out = new ArrayList<>(Math.min(n, 256));
            for (Document d : messages.find(and(eq(THREAD_ID, threadId), eq(GEN, gen))).sort(Sorts.descending(SEQ)).limit(n)) {
                out.add(message(d));
            }
            Collections.reverse(out);
            return out;
        });
    }

    @Override
    public StoredMessagePage listMessages(String threadId, long offset, int limit) {
        Objects.requireNonNull(threadId, "threadId");
        checkPage(offset, limit);
        return access.run("listing the messages of thread '" + threadId + "'", null, () -> {
            String gen = gen(threadId);
            if (gen == null) return new StoredMessagePage(List.of(), 0);
            Bson filter = and(eq(THREAD_ID, threadId), eq(GEN, gen));
            List<StoredMessage> page = new ArrayList<>();
            if (limit > 0 && offset <= Integer.MAX_VALUE) {
                for (Document d : messages.find(filter).sort(Sorts.ascending(SEQ)).skip((int) offset).limit(limit)) {
                    page.add(message(d));
                }
            }
            return new StoredMessagePage(page, messages.countDocuments(filter));
        });
    }

    private @Nullable String gen(String threadId) {
        Document t = threads.find(eq(ID, threadId)).projection(Projections.include(GEN)).first();
        return t == null ? null : t.getString(GEN);
    }

    private MemoryThread thread(Document d) {
        Object id = d.get(ID);
        try {
            String metadata = Objects.requireNonNull(d.getString(METADATA), "no metadata");
            return MemoryThread.builder().id(d.getString(ID)).resourceId(d.getString(RESOURCE_ID)).title(d.getString(TITLE))
                    .metadataJson(metadata)
                    .createdAt(d.getDate(CREATED_AT).toInstant()).updatedAt(d.getDate(UPDATED_AT).toInstant())
                    .build();
        } catch (RuntimeException e) {
            throw new StorageException(access.description + ": the document of thread '" + id + "' is not a valid thread (" + e
                    + "); was it written by something else than Baton?", e);
        }
    }

    private StoredMessage message(Document d) {
        try {
            return StoredMessage.builder().threadId(d.getString(THREAD_ID)).seq(d.get(SEQ, Number.class).longValue())
                    .runId(d.getString(RUN_ID)).runIndex(d.get(RUN_INDEX, Number.class).intValue())
                    .role(Role.fromWireName(d.getString(ROLE))).content(d.getString(CONTENT))
                    .createdAt(d.getDate(CREATED_AT).toInstant())
                    .build();
        } catch (RuntimeException e) {
            throw new StorageException(access.description + ": a message document of thread '" + d.get(THREAD_ID)
                    + "' is not a valid message (" + e + "); was it written by something else than Baton?", e);
        }
    }

    private static String gen() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static void checkPage(long offset, int limit) {
        if (offset < 0) throw new IllegalArgumentException("offset must be >= 0, was " + offset);
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
    }
}
