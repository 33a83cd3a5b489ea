package dev.baton.store.redis;

import dev.baton.StorageException;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The hash of one run ({@code PREFIX:{HEX(agentId)}:run:HEX(runId)}, see {@link RedisKeys}) and its
 * mapping to and from a {@link RunSnapshot}: one field per snapshot field, times as epoch
 * milliseconds, a null field left out. A run comes back either as the whole hash ({@code HGETALL})
 * or as the fixed-position row that {@code list.lua} and {@code due.lua} return (common.lua's
 * {@code row()}). A hash that breaks the snapshot's rules is reported as a {@link StorageException}
 * naming the run and the store.
 */
final class RunHashes {
    private final String description;

    RunHashes(String description) {
        this.description = description;
    }

    /** Adds the fields of {@code s} to {@code out} as field, value pairs, the script arguments of insert and cas. */
    static void fields(RunSnapshot s, List<String> out) {
        put(out, "runId", s.runId());
        put(out, "agentId", s.agentId());
        put(out, "status", s.status().name());
        put(out, "threadId", s.threadId());
        put(out, "resourceId", s.resourceId());
        put(out, "createdAt", Long.toString(s.createdAt().toEpochMilli()));
        put(out, "suspendedAt", Long.toString(s.suspendedAt().toEpochMilli()));
        put(out, "version", Long.toString(s.version()));
        put(out, "leaseOwner", s.leaseOwner());
        put(out, "leaseExpiresAt", s.leaseExpiresAt() == null ? null : Long.toString(s.leaseExpiresAt().toEpochMilli()));
        put(out, "payload", s.payload());
        put(out, "expiresAt", s.expiresAt() == null ? null : Long.toString(s.expiresAt().toEpochMilli()));
        put(out, "summary", s.summary());
        put(out, "notifyAt", s.notifyAt() == null ? null : Long.toString(s.notifyAt().toEpochMilli()));
        put(out, "notifyState", s.notifyState());
        put(out, "deciders", s.deciders().isEmpty() ? null : String.join(LABEL_SEPARATOR, s.deciders()));
    }

    /** Between the labels of the {@code deciders} field: NUL, which no label holds ({@code RunSnapshot.deciders()}). */
    static final String LABEL_SEPARATOR = "\0";

    /** The labels of a {@code deciders} field; none for an absent one. */
    static java.util.Set<String> labels(@Nullable String field) {
        if (field == null || field.isEmpty()) return java.util.Set.of();
        return new java.util.TreeSet<>(java.util.Arrays.asList(field.split(LABEL_SEPARATOR, -1)));
    }

    private static void put(List<String> out, String field, @Nullable String value) {
        if (value == null) return; // absent field = null; an empty string stays a value
        out.add(field);
        out.add(value);
    }

    /** A hash as a script returns HGETALL's reply: a flat list of fields and values. */
    static Map<String, String> map(Object reply) {
        List<?> flat = (List<?>) reply;
        Map<String, String> h = new HashMap<>(flat.size());
        for (int i = 0; i + 1 < flat.size(); i += 2) h.put((String) flat.get(i), (String) flat.get(i + 1));
        return h;
    }

    /** A run from its whole hash. */
    RunSnapshot snapshot(Map<String, String> h) {
        String runId = h.get("runId");
        try {
            return RunSnapshot.builder()
                    .runId(runId).agentId(h.get("agentId")).status(RunStatus.valueOf(h.get("status")))
                    .threadId(h.get("threadId")).resourceId(h.get("resourceId"))
                    .createdAt(millis(h.get("createdAt"))).suspendedAt(millis(h.get("suspendedAt")))
                    .version(Long.parseLong(h.get("version")))
                    .lease(h.get("leaseOwner"), millisOrNull(h.get("leaseExpiresAt")))
                    .payload(h.get("payload"))
                    .expiresAt(millisOrNull(h.get("expiresAt")))
                    .summary(h.get("summary"))
                    .notification(millisOrNull(h.get("notifyAt")), h.get("notifyState"))
                    .deciders(labels(h.get("deciders")))
                    .build();
        } catch (RuntimeException e) {
            throw invalid(runId, e);
        }
    }

    /**
     * A run as list.lua and due.lua return it (common.lua's row()): fixed positions, nulls where absent, the payload
     * 13th, the decider labels 16th.
     */
    RunSnapshot row(Object reply) {
        @SuppressWarnings("unchecked")
        List<Object> f = (List<Object>) reply;
        String runId = (String) f.get(0);
        try {
            return RunSnapshot.builder()
                    .runId(runId).agentId((String) f.get(1)).status(RunStatus.valueOf((String) f.get(2)))
                    .threadId((String) f.get(3)).resourceId((String) f.get(4))
                    .createdAt(millis((String) f.get(5))).suspendedAt(millis((String) f.get(6)))
                    .version(Long.parseLong((String) f.get(7)))
                    .lease((String) f.get(8), millisOrNull((String) f.get(9)))
                    .payload((String) f.get(12))
                    .expiresAt(millisOrNull((String) f.get(10)))
                    .summary((String) f.get(11))
                    .notification(millisOrNull(f.size() > 13 ? (String) f.get(13) : null), f.size() > 14 ? (String) f.get(14) : null)
                    .deciders(labels(f.size() > 15 ? (String) f.get(15) : null))
                    .build();
        } catch (RuntimeException e) {
            throw invalid(runId, e);
        }
    }

    private static Instant millis(String epochMillis) {
        return Instant.ofEpochMilli(Long.parseLong(epochMillis));
    }

    private static @Nullable Instant millisOrNull(@Nullable String epochMillis) {
        return epochMillis == null ? null : millis(epochMillis);
    }

    private StorageException invalid(@Nullable String runId, RuntimeException e) {
        return new StorageException(description + ": the stored hash of run '" + runId + "' is not a valid run ("
                + e.getMessage() + "); was it written by something else than Baton?", e);
    }
}
