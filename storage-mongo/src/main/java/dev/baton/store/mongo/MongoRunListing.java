package dev.baton.store.mongo;

import dev.baton.store.ShardMerge;
import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.gt;
import static com.mongodb.client.model.Filters.gte;
import static com.mongodb.client.model.Filters.lt;
import static com.mongodb.client.model.Filters.lte;
import static com.mongodb.client.model.Filters.in;
import static com.mongodb.client.model.Filters.ne;
import static com.mongodb.client.model.Filters.or;
import static dev.baton.store.mongo.RunDocuments.AGENT_ID;
import static dev.baton.store.mongo.RunDocuments.CREATED_AT;
import static dev.baton.store.mongo.RunDocuments.EXPIRES_AT;
import static dev.baton.store.mongo.RunDocuments.FIELDS;
import static dev.baton.store.mongo.RunDocuments.FIELDS_WITHOUT_PAYLOAD;
import static dev.baton.store.mongo.RunDocuments.ID;
import static dev.baton.store.mongo.RunDocuments.LEASE_EXPIRES_AT;
import static dev.baton.store.mongo.RunDocuments.RESOURCE_ID;
import static dev.baton.store.mongo.RunDocuments.STATUS;
import static dev.baton.store.mongo.RunDocuments.THREAD_ID;
import static dev.baton.store.mongo.RunDocuments.VERSION;

import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Facet;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.Sorts;
import dev.baton.InvalidOptionException;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.jspecify.annotations.Nullable;

/**
 * The reads of many runs: {@link MongoSnapshotStore#list} and {@link MongoSnapshotStore#listDue},
 * on the indexes of {@link MongoIndexes}. A query is one server-side filter ({@link #filter}); a
 * cursor is a range on the same index ({@link #after}); a page that cannot tell its total is checked
 * against one {@code $facet} aggregate that counts the matches and names the page's runs, read again
 * if a write landed in between (see {@link MongoSnapshotStore#list}). With buckets ({@link MongoBuckets}), an
 * agent's or resource's listing is that done once per bucket (the first {@code offset + limit} runs and the
 * bucket's total), merged by {@link ShardMerge}; a thread's listing reads its one bucket; the due runs are
 * the first {@code limit} of each bucket, merged.
 */
final class MongoRunListing {
    /** How often a listing reads its page again when a write landed between the page and its count. */
    static final int LIST_ATTEMPTS = 3;

    private static final Bson ORDER = Sorts.orderBy(Sorts.descending(CREATED_AT), Sorts.descending(ID));
    private static final Bson DUE_ORDER = Sorts.orderBy(Sorts.ascending(EXPIRES_AT), Sorts.ascending(ID));

    private final MongoAccess access;
    private final MongoCollection<Document> collection;
    private final int buckets;
    /** Called between a listing's page and its count; for tests that make a write land there. */
    volatile @Nullable Runnable betweenPageAndCount;

    MongoRunListing(MongoAccess access, MongoCollection<Document> collection, int buckets) {
        this.access = access;
        this.collection = collection;
        this.buckets = buckets;
    }

    // ---------------------------------------------------------------- list

    RunPage list(RunQuery query) {
        access.checkOpen("list");
        if (query.emptyDateRange()) return new RunPage(List.of(), 0);
        Bson filter = filter(query);
        boolean oneBucket = buckets == 1 || query.threadId() != null;
        // a thread's runs share its bucket: naming it lets mongos send the query to the one shard that holds it
        if (buckets > 1 && query.threadId() != null) filter = and(filter, MongoBuckets.in(MongoBuckets.of(query.threadId(), buckets)));
        // with buckets a deleted run's tombstone keeps its agentId (the shard key) for a moment: no run to list or count
        if (buckets > 1) filter = and(filter, MongoDecisions.NOT_TOMBSTONE);
        Integer limit = query.limit();
        if (limit != null && limit == 0) {
            // MongoDB reads limit(0) as "no limit": a count-only query must not run a find at all
            return new RunPage(List.of(), count(filter));
        }
        long offset = query.offset();
        if (offset > Integer.MAX_VALUE) {
            long total = count(filter);
            if (offset >= total) return new RunPage(List.of(), total);
            throw new InvalidOptionException("offset", "at most " + Integer.MAX_VALUE + " on MongoDB, was " + offset);
        }
        RunQuery.After after = query.after();
        Bson cursor = after == null ? null : after(after);
        boolean withPayload = query.withPayload();
        if (oneBucket) return pageAndTotal(filter, cursor, offset, limit, withPayload);
        // per bucket: the first offset + limit runs and the bucket's total, each on its own index range; then merged
        Integer perBucket = limit == null ? null : (int) Math.min(offset + limit, Integer.MAX_VALUE);
        List<RunPage> pages = new ArrayList<>(buckets);
        for (int b = 0; b < buckets; b++) {
            pages.add(pageAndTotal(and(filter, MongoBuckets.in(b)), cursor, 0, perBucket, withPayload));
        }
        return ShardMerge.page(pages, offset, limit);
    }

    /** The page of one filter (all of it, or one bucket's part) and its total, checked against each other. */
    private RunPage pageAndTotal(Bson filter, @Nullable Bson cursor, long offset, @Nullable Integer limit, boolean withPayload) {
        Bson pageFilter = cursor == null ? filter : and(filter, cursor);
        if (limit == null && cursor != null) {
            // every run after the cursor (core always pages; a rare call): the page, then the total
            List<RunSnapshot> items = page(pageFilter, 0, null, withPayload);
            return new RunPage(items, count(filter));
        }
        List<RunSnapshot> items = List.of();
        long total = 0;
        for (int attempt = 1; attempt <= LIST_ATTEMPTS; attempt++) {
            items = page(pageFilter, offset, limit, withPayload);
            if (limit == null) return new RunPage(items, items.size());
            if (cursor == null && items.size() < limit && (!items.isEmpty() || offset == 0)) {
                // a short page that starts inside the matches ends at the last match: no count needed
                return new RunPage(items, offset + items.size());
            }
            Runnable hook = betweenPageAndCount;
            if (hook != null) hook.run();
            Document facet = facet(filter, cursor, (int) offset, limit);
            total = facetTotal(facet);
            if (samePage(items, facet)) return new RunPage(items, total);
        }
        // still changing under the listing: the last page, and a total that at least covers it
        return new RunPage(items, items.isEmpty() || cursor != null ? total : Math.max(total, offset + items.size()));
    }

    /** The runs strictly after {@code a} in listing order: a range on the listing indexes. */
    static Bson after(RunQuery.After a) {
        Date c = Date.from(a.createdAt());
        return and(lte(CREATED_AT, c), or(lt(CREATED_AT, c), lt(ID, a.runId())));
    }

    private List<RunSnapshot> page(Bson filter, long offset, @Nullable Integer limit, boolean withPayload) {
        return access.run("list", null, () -> {
            FindIterable<Document> find = collection.find(filter).projection(withPayload ? FIELDS : FIELDS_WITHOUT_PAYLOAD)
                    .sort(ORDER);
            if (limit != null) find = find.skip((int) offset).limit(limit);
            List<RunSnapshot> out = new ArrayList<>();
            for (Document d : find) out.add(RunDocuments.fromDocument(d, withPayload));
            return out;
        });
    }

    /** The total and the page's {@code _id}s and versions, from one pass over the matches. */
    private Document facet(Bson filter, @Nullable Bson cursor, int offset, int limit) {
        List<Bson> page = new ArrayList<>(4);
        if (cursor != null) page.add(Aggregates.match(cursor));
        if (offset > 0) page.add(Aggregates.skip(offset));
        page.add(Aggregates.limit(limit));
        page.add(Aggregates.project(Projections.include(ID, VERSION)));
        List<Bson> pipeline = List.of(Aggregates.match(filter), Aggregates.sort(ORDER),
                Aggregates.facet(new Facet("page", page), new Facet("total", Aggregates.count("n"))));
        Document result = access.run("list", null, () -> collection.aggregate(pipeline).first());
        return result == null ? new Document() : result;
    }

    private static long facetTotal(Document facet) {
        List<?> total = facet.getList("total", Object.class, List.of());
        if (total.isEmpty()) return 0;
        return ((Document) total.get(0)).get("n", Number.class).longValue();
    }

    /** True when the aggregate's page names exactly these runs, in this order, at these versions. */
    private static boolean samePage(List<RunSnapshot> items, Document facet) {
        List<?> page = facet.getList("page", Object.class, List.of());
        if (page.size() != items.size()) return false;
        for (int i = 0; i < items.size(); i++) {
            Document d = (Document) page.get(i);
            Number version = d.get(VERSION, Number.class);
            if (!items.get(i).runId().equals(d.get(ID)) || version == null || version.longValue() != items.get(i).version()) {
                return false;
            }
        }
        return true;
    }

    private long count(Bson filter) {
        return access.run("count", null, () -> collection.countDocuments(filter));
    }

    // ---------------------------------------------------------------- due runs

    List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        access.checkOpen("listDue");
        if (limit == 0) return List.of();
        Date at = Date.from(now);
        Bson filter = and(eq(AGENT_ID, agentId), lte(EXPIRES_AT, at), suspendedAt(at));
        return firstOfEachBucket("listDue", filter, DUE_ORDER, ShardMerge.DUE_ORDER, limit);
    }

    private static final Bson NOTIFY_ORDER = Sorts.orderBy(Sorts.ascending(RunDocuments.NOTIFY_AT), Sorts.ascending(ID));

    List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        access.checkOpen("listNotificationsDue");
        Bson filter = and(eq(AGENT_ID, agentId), lte(RunDocuments.NOTIFY_AT, Date.from(now)));
        return firstOfEachBucket("listNotificationsDue", filter, NOTIFY_ORDER, ShardMerge.NOTIFY_ORDER, limit);
    }

    /**
     * The first {@code limit} matches in {@code sort} order: one {@code find}; with buckets, one per bucket
     * (each a range of its bucket's index, limited), merged.
     */
    private List<RunSnapshot> firstOfEachBucket(String operation, Bson filter, Bson sort, Comparator<RunSnapshot> order, int limit) {
        List<List<RunSnapshot>> lists = new ArrayList<>(buckets);
        for (int b = 0; b < buckets; b++) {
            Bson f = buckets == 1 ? filter : and(filter, MongoBuckets.in(b));
            lists.add(access.run(operation, null, () -> {
                List<RunSnapshot> out = new ArrayList<>();
                for (Document d : collection.find(f).projection(FIELDS_WITHOUT_PAYLOAD).sort(sort).limit(limit)) {
                    out.add(RunDocuments.fromDocument(d, false));
                }
                return out;
            }));
        }
        return buckets == 1 ? lists.get(0) : ShardMerge.merge(lists, order, 0, limit);
    }

    // ---------------------------------------------------------------- the filter

    /**
     * The query as one server-side filter. Every user value is a BSON value under a fixed field
     * name ({@code Filters.eq} with a string), so ids such as {@code $ne} or {@code a.b} are
     * matched literally and never read as operators or paths.
     */
    static Bson filter(RunQuery q) {
        List<Bson> parts = new ArrayList<>(6);
        parts.add(eq(AGENT_ID, q.agentId()));
        if (q.threadId() != null) parts.add(eq(THREAD_ID, q.threadId()));
        if (q.resourceId() != null) parts.add(eq(RESOURCE_ID, q.resourceId()));
        if (q.createdFrom() != null) parts.add(gte(CREATED_AT, Date.from(q.createdFrom())));
        if (q.createdTo() != null) parts.add(lte(CREATED_AT, Date.from(q.createdTo())));
        Date now = Date.from(q.now());
        if (q.status() == RunStatus.SUSPENDED) {
            parts.add(suspendedAt(now));
        } else if (q.status() == RunStatus.RESUMING) {
            parts.add(eq(STATUS, RunStatus.RESUMING.name()));
            parts.add(gt(LEASE_EXPIRES_AT, now));
        }
        List<RunQuery.Decider> deciders = q.deciders();
        if (deciders != null) parts.add(deciders(deciders));
        return and(parts);
    }

    /**
     * The deciders rule ({@code RunQuery.matchesDeciders}): stored status SUSPENDED, and for some decider its
     * granting label among the run's {@code deciders} and its excluding label not; each alternative is a range of
     * the multikey index {@code {agentId, deciders, createdAt, _id}}. An empty list matches nothing.
     */
    static Bson deciders(List<RunQuery.Decider> deciders) {
        if (deciders.isEmpty()) return in(ID, List.of());
        List<Bson> any = new ArrayList<>(deciders.size());
        for (RunQuery.Decider d : deciders) {
            any.add(and(eq(RunDocuments.DECIDERS, d.granted()), ne(RunDocuments.DECIDERS, d.unlessExcluded())));
        }
        return and(eq(STATUS, RunStatus.SUSPENDED.name()), any.size() == 1 ? any.get(0) : or(any));
    }

    /**
     * Effective status SUSPENDED at {@code now}: suspended, or resuming with a lease that has lapsed
     * ({@code leaseExpiresAt <= now}); the status guard keeps the date comparison away from the null
     * lease of suspended runs.
     */
    private static Bson suspendedAt(Date now) {
        return or(eq(STATUS, RunStatus.SUSPENDED.name()), and(eq(STATUS, RunStatus.RESUMING.name()), lte(LEASE_EXPIRES_AT, now)));
    }
}
