package dev.baton.store.redis;

import dev.baton.store.ShardMerge;
import dev.baton.StorageException;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import io.lettuce.core.ScriptOutputType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The audit trail of one {@link RedisSnapshotStore} (capability {@code DECISIONS}): a hash per record
 * and sorted sets per agent, run, thread, resource and actor, scored by {@code decidedAt}, all in the
 * agent's key space (see decisions.lua), so that the script that changes a run ({@code dcas.lua},
 * {@code ddelete.lua}) writes its records too, atomically, on one node also in a Cluster. Listing
 * ({@code dlist.lua}), lookup by idempotency key ({@code dfind.lua}) and purge ({@code dpurge.lua})
 * are one script each on the same keys. In a bucketed layout ({@link RedisBuckets}) a record lives in its run's
 * bucket (written by the run's script), listing and purge run on every bucket and merge, and an idempotency key is
 * reserved in a key of its own first ({@link IdempotencyReservations}), where {@link #find} reads it.
 */
final class RedisDecisions {
    private static final LuaScript CAS = LuaScript.loadWithDecisions("dcas");
    private static final LuaScript DELETE = LuaScript.loadWithDecisions("ddelete");
    private static final LuaScript LIST = LuaScript.loadWithDecisions("dlist");
    private static final LuaScript FIND = LuaScript.loadWithDecisions("dfind");
    private static final LuaScript PURGE = LuaScript.loadWithDecisions("dpurge");
    private static final LuaScript DELETE_ONE = LuaScript.compose("sddelete", "common", "decisions", "lookup");

    private final RedisAccess access;
    private final IdempotencyReservations reservations;

    RedisDecisions(RedisAccess access) {
        this.access = access;
        this.reservations = new IdempotencyReservations(access);
    }

    /** dcas.lua: 1 when the run was replaced and the records stored, else nothing changed. */
    boolean compareAndSet(long expectedVersion, RunSnapshot replacement, List<DecisionRecord> decisions) {
        check(replacement.agentId(), replacement.runId(), decisions);
        RedisBuckets buckets = access.buckets;
        return access.call("compare-and-set", replacement.runId(), () -> {
            int k = buckets.of(replacement.threadId(), replacement.runId());
            String base = buckets.base(replacement.agentId(), k);
            List<IdempotencyReservations.Held> held = reserve(replacement.agentId(), k, decisions);
            if (held == null) return false;
            List<String> args = new ArrayList<>(List.of(base, replacement.runId(), Long.toString(expectedVersion)));
            appendDecisions(decisions, args);
            RunHashes.fields(replacement, args);
            Long r = CAS.run(access.redis, ScriptOutputType.INTEGER,
                    new String[] {RedisKeys.runIn(base, replacement.runId())}, args.toArray(String[]::new));
            boolean done = r != null && r == 1L;
            if (!done) reservations.release(held);
            return done;
        });
    }

    /**
     * ddelete.lua on the run at {@code at}: the deleted run's reservation nonce, or null when nothing
     * changed (the store then frees the run id's lookup key).
     */
    @Nullable String delete(RunLookup.Located at, String runId, long expectedVersion, List<DecisionRecord> decisions) {
        int k = bucketOf(at);
        List<IdempotencyReservations.Held> held = reserve(at.agentId(), k, decisions);
        if (held == null) return null;
        List<String> args = new ArrayList<>(List.of(at.base(), runId, Long.toString(expectedVersion)));
        appendDecisions(decisions, args);
        String nonce = DELETE.run(access.redis, ScriptOutputType.VALUE, new String[] {at.runKey(runId)},
                args.toArray(String[]::new));
        if (nonce == null) reservations.release(held);
        return nonce;
    }

    /**
     * sddelete.lua on a standalone server with one bucket ({@link RedisAccess#oneScript}): the run-id lookup, ddelete.lua
     * and the release of the lookup key in one script, one round trip; atomic, so at least as strong as those steps.
     *
     * @return whether the run was deleted and the records stored; null when the call must be made in steps (records
     *         of several agents or runs, whose refusal is the steps' to make, or a lookup value in the bucketed form):
     *         nothing changed then
     */
    @Nullable Boolean deleteInOneScript(String runId, long expectedVersion, @Nullable List<DecisionRecord> decisions) {
        if (decisions == null || decisions.isEmpty()) return null;
        String agentId = decisions.get(0).agentId();
        for (DecisionRecord d : decisions) if (!d.agentId().equals(agentId) || !d.runId().equals(runId)) return null;
        List<String> args = new ArrayList<>(List.of(access.keys.prefix(), runId, Long.toString(expectedVersion)));
        appendDecisions(decisions, args);
        args.add(agentId);
        List<Object> r = DELETE_ONE.run(access.redis, ScriptOutputType.MULTI, new String[] {access.keys.lookup(runId)},
                args.toArray(String[]::new));
        long code = (Long) r.get(0);
        if (code == 3L) {
            check((String) r.get(1), runId, decisions);   // the run is another agent's: refused as the steps refuse it
            return null;
        }
        return code == RedisRunWrites.IN_STEPS ? null : code == 1L;
    }

    /** The reservations of the records' idempotency keys in a bucketed layout (none with one bucket: the script checks). */
    private @Nullable List<IdempotencyReservations.Held> reserve(String agentId, int k, List<DecisionRecord> decisions) {
        if (access.buckets.count() == 1) return List.of();
        return reservations.reserve(agentId, k, decisions);
    }

    /** The bucket of this store's layout whose base {@code at} names (its runs are only ever in this store's buckets). */
    private int bucketOf(RunLookup.Located at) {
        String[] bases = access.buckets.bases(at.agentId());
        for (int k = 0; k < bases.length; k++) if (bases[k].equals(at.base())) return k;
        throw new StorageException(access.description + ": run " + at.agentId() + " is filed under " + at.base()
                + ", not one of this store's " + bases.length + " bucket(s): was the layout changed without RedisLayoutMigration?");
    }

    DecisionPage list(DecisionQuery q) {
        return access.call("listing decisions", q.runId(), () -> {
            String[] bases = access.buckets.bases(q.agentId());
            List<List<DecisionRecord>> pages = new ArrayList<>(bases.length);
            List<List<Object>> replies = access.eachBucket(LIST, ScriptOutputType.MULTI, bases, b -> new String[] {b + "dec:a"},
                    b -> listArgs(b, q));
            for (List<Object> r : replies) {
                List<DecisionRecord> items = new ArrayList<>(r.size());
                for (Object o : r) items.add(record(o));
                pages.add(items);
            }
            List<DecisionRecord> items = bases.length == 1 ? pages.get(0) : ShardMerge.merge(pages, ORDER, 0, q.limit() + 1L);
            boolean more = items.size() > q.limit();
            return new DecisionPage(more ? items.subList(0, q.limit()) : items, more);
        });
    }

    /** Listing order: decidedAt descending, then decisionId descending (bytes, as Redis orders equal scores). */
    static final java.util.Comparator<DecisionRecord> ORDER = (a, b) -> {
        int c = b.decidedAt().compareTo(a.decidedAt());
        return c != 0 ? c : ShardMerge.compareIds(b.decisionId(), a.decisionId());
    };

    /** dlist.lua's arguments on one bucket: at most the page size plus one records. */
    private static String[] listArgs(String base, DecisionQuery q) {
        DecisionQuery.After after = q.after();
        return new String[] {
                base,
                flag(q.runId()), value(q.runId()), flag(q.threadId()), value(q.threadId()),
                flag(q.resourceId()), value(q.resourceId()), flag(q.actor()), value(q.actor()),
                q.from() == null ? "-inf" : Long.toString(q.from().toEpochMilli()),
                q.to() == null ? "+inf" : Long.toString(q.to().toEpochMilli() + 1),   // to is inclusive: dlist.lua takes the first millisecond past it
                after == null ? "0" : "1",
                after == null ? "" : Long.toString(after.decidedAt().toEpochMilli()),
                after == null ? "" : after.decisionId(),
                Integer.toString(q.limit() + 1)};
    }

    Optional<DecisionRecord> find(String agentId, String idempotencyKey) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        return access.call("finding a decision", null, () -> {
            if (access.buckets.count() > 1) {
                IdempotencyReservations.Located at = reservations.find(agentId, idempotencyKey);
                if (at == null) return Optional.empty();
                Map<String, String> h = access.redis.hgetall(at.hashKey());
                return h.isEmpty() ? Optional.empty() : Optional.of(record(h));
            }
            List<Object> r = FIND.run(access.redis, ScriptOutputType.MULTI, new String[] {decisionIndex(agentId)},
                    access.keys.agentBase(agentId), idempotencyKey);
            return r.isEmpty() ? Optional.empty() : Optional.of(record(r));
        });
    }

    int purge(String agentId, Instant olderThan, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(olderThan, "olderThan");
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        return access.call("purging decisions", null, () -> {
            String[] bases = access.buckets.bases(agentId);
            int[] counts = bases.length == 1 ? new int[] {limit} : oldest(bases, olderThan, limit);
            int purged = 0;
            for (int k = 0; k < bases.length; k++) {
                if (counts[k] == 0) continue;
                List<Object> r = PURGE.run(access.redis, ScriptOutputType.MULTI, new String[] {bases[k] + "dec:a"},
                        bases[k], Long.toString(olderThan.toEpochMilli()), Integer.toString(counts[k]));
                purged += ((Long) r.get(0)).intValue();
                if (bases.length > 1) {
                    for (int i = 1; i + 1 < r.size(); i += 2) reservations.drop(agentId, (String) r.get(i + 1), (String) r.get(i));
                }
            }
            return purged;
        });
    }

    /** How many of the {@code limit} oldest records before {@code olderThan} each bucket holds (merged by decidedAt, decisionId). */
    private int[] oldest(String[] bases, Instant olderThan, int limit) {
        record Entry(int bucket, double score, String id) {
        }
        List<List<Entry>> lists = new ArrayList<>();
        for (int k = 0; k < bases.length; k++) {
            List<Entry> l = new ArrayList<>();
            for (var sv : access.redis.zrangebyscoreWithScores(bases[k] + "dec:a",
                    io.lettuce.core.Range.create(Double.NEGATIVE_INFINITY, (double) olderThan.toEpochMilli() - 0.5),
                    io.lettuce.core.Limit.create(0, limit))) {
                l.add(new Entry(k, sv.getScore(), sv.getValue()));
            }
            lists.add(l);
        }
        int[] counts = new int[bases.length];
        java.util.Comparator<Entry> order = (a, b) -> {
            int c = Double.compare(a.score(), b.score());
            return c != 0 ? c : ShardMerge.compareIds(a.id(), b.id());
        };
        for (Entry e : ShardMerge.merge(lists, order, 0, limit)) counts[e.bucket()]++;
        return counts;
    }

    /** Refuses records that are not of this run (a programming error in the caller): nothing is written. */
    static void check(String agentId, String runId, List<DecisionRecord> decisions) {
        Objects.requireNonNull(decisions, "decisions");
        if (decisions.isEmpty()) throw new IllegalArgumentException("decisions must not be empty (run " + runId + ")");
        for (DecisionRecord d : decisions) {
            if (!d.agentId().equals(agentId) || !d.runId().equals(runId)) {
                throw new IllegalArgumentException("decision " + d.decisionId() + " is of run " + d.runId() + " of agent "
                        + d.agentId() + ", not of run " + runId + " of agent " + agentId);
            }
        }
    }

    private String decisionIndex(String agentId) {
        return access.keys.agentBase(agentId) + "dec:a";
    }

    private static String flag(@Nullable String v) {
        return v == null ? "0" : "1";
    }

    private static String value(@Nullable String v) {
        return v == null ? "" : v;
    }

    /** Adds the records as decisions.lua's readDecisions reads them: their count of arguments, then per record its pairs. */
    private static void appendDecisions(List<DecisionRecord> decisions, List<String> args) {
        List<String> flat = new ArrayList<>();
        for (DecisionRecord d : decisions) {
            List<String> pairs = new ArrayList<>();
            put(pairs, "decisionId", d.decisionId());
            put(pairs, "agentId", d.agentId());
            put(pairs, "runId", d.runId());
            put(pairs, "threadId", d.threadId());
            put(pairs, "resourceId", d.resourceId());
            put(pairs, "toolCallId", d.toolCallId());
            put(pairs, "toolName", d.toolName());
            put(pairs, "kind", d.kind().wireName());
            put(pairs, "actor", d.actor());
            put(pairs, "instanceId", d.instanceId());
            put(pairs, "decidedAt", Long.toString(d.decidedAt().toEpochMilli()));
            put(pairs, "reason", d.reason());
            put(pairs, "argsDigestBefore", d.argsDigestBefore());
            put(pairs, "argsDigestAfter", d.argsDigestAfter());
            put(pairs, "idempotencyKey", d.idempotencyKey());
            flat.add(Integer.toString(pairs.size() / 2));
            flat.addAll(pairs);
        }
        args.add(Integer.toString(flat.size()));
        args.addAll(flat);
    }

    private static void put(List<String> out, String field, @Nullable String value) {
        if (value == null) return;
        out.add(field);
        out.add(value);
    }

    /** A record from HGETALL's flat field/value list. */
    private DecisionRecord record(Object reply) {
        @SuppressWarnings("unchecked")
        List<Object> flat = (List<Object>) reply;
        Map<String, String> h = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) h.put((String) flat.get(i), (String) flat.get(i + 1));
        return record(h);
    }

    /** A record from its hash's fields. */
    private DecisionRecord record(Map<String, String> h) {
        try {
            return DecisionRecord.builder()
                    .decisionId(h.get("decisionId")).agentId(h.get("agentId")).runId(h.get("runId"))
                    .threadId(h.get("threadId")).resourceId(h.get("resourceId"))
                    .toolCallId(h.get("toolCallId")).toolName(h.get("toolName"))
                    .kind(DecisionKind.fromWireName(h.get("kind"))).actor(h.get("actor")).instanceId(h.get("instanceId"))
                    .decidedAt(Instant.ofEpochMilli(Long.parseLong(h.get("decidedAt"))))
                    .reason(h.get("reason")).argsDigestBefore(h.get("argsDigestBefore")).argsDigestAfter(h.get("argsDigestAfter"))
                    .idempotencyKey(h.get("idempotencyKey"))
                    .build();
        } catch (RuntimeException e) {
            throw new StorageException(access.description + ": the stored hash of decision '" + h.get("decisionId")
                    + "' is not a valid decision record (" + e.getMessage() + "); was it written by something else than Baton?", e);
        }
    }
}
