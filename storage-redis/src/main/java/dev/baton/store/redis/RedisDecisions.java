package dev.baton.store.redis;

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
 * are one script each on the same keys.
 */
final class RedisDecisions {
    private static final LuaScript CAS = LuaScript.loadWithDecisions("dcas");
    private static final LuaScript DELETE = LuaScript.loadWithDecisions("ddelete");
    private static final LuaScript LIST = LuaScript.loadWithDecisions("dlist");
    private static final LuaScript FIND = LuaScript.loadWithDecisions("dfind");
    private static final LuaScript PURGE = LuaScript.loadWithDecisions("dpurge");

    private final RedisAccess access;

    RedisDecisions(RedisAccess access) {
        this.access = access;
    }

    /** dcas.lua: 1 when the run was replaced and the records stored, else nothing changed. */
    boolean compareAndSet(long expectedVersion, RunSnapshot replacement, List<DecisionRecord> decisions) {
        check(replacement.agentId(), replacement.runId(), decisions);
        RedisKeys keys = access.keys;
        return access.call("compare-and-set", replacement.runId(), () -> {
            List<String> args = new ArrayList<>(List.of(keys.agentBase(replacement.agentId()), replacement.runId(),
                    Long.toString(expectedVersion)));
            appendDecisions(decisions, args);
            RunHashes.fields(replacement, args);
            Long r = CAS.run(access.redis, ScriptOutputType.INTEGER,
                    new String[] {keys.run(replacement.agentId(), replacement.runId())}, args.toArray(String[]::new));
            return r != null && r == 1L;
        });
    }

    /**
     * ddelete.lua on the run of {@code agentId}: the deleted run's reservation nonce, or null when nothing
     * changed (the store then frees the run id's lookup key).
     */
    @Nullable String delete(String agentId, String runId, long expectedVersion, List<DecisionRecord> decisions) {
        RedisKeys keys = access.keys;
        List<String> args = new ArrayList<>(List.of(keys.agentBase(agentId), runId, Long.toString(expectedVersion)));
        appendDecisions(decisions, args);
        return DELETE.run(access.redis, ScriptOutputType.VALUE, new String[] {keys.run(agentId, runId)},
                args.toArray(String[]::new));
    }

    DecisionPage list(DecisionQuery q) {
        RedisKeys keys = access.keys;
        return access.call("listing decisions", q.runId(), () -> {
            DecisionQuery.After after = q.after();
            List<Object> r = LIST.run(access.redis, ScriptOutputType.MULTI, new String[] {decisionIndex(q.agentId())},
                    keys.agentBase(q.agentId()),
                    flag(q.runId()), value(q.runId()), flag(q.threadId()), value(q.threadId()),
                    flag(q.resourceId()), value(q.resourceId()), flag(q.actor()), value(q.actor()),
                    q.from() == null ? "-inf" : Long.toString(q.from().toEpochMilli()),
                    q.to() == null ? "+inf" : Long.toString(q.to().toEpochMilli()),
                    after == null ? "0" : "1",
                    after == null ? "" : Long.toString(after.decidedAt().toEpochMilli()),
                    after == null ? "" : after.decisionId(),
                    Integer.toString(q.limit() + 1));
            List<DecisionRecord> items = new ArrayList<>(r.size());
            for (Object o : r) items.add(record(o));
            boolean more = items.size() > q.limit();
            return new DecisionPage(more ? items.subList(0, q.limit()) : items, more);
        });
    }

    Optional<DecisionRecord> find(String agentId, String idempotencyKey) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        return access.call("finding a decision", null, () -> {
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
            Long n = PURGE.run(access.redis, ScriptOutputType.INTEGER, new String[] {decisionIndex(agentId)},
                    access.keys.agentBase(agentId), Long.toString(olderThan.toEpochMilli()), Integer.toString(limit));
            return n == null ? 0 : n.intValue();
        });
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
