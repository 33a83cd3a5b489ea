package dev.baton.store;

import dev.baton.InvalidOptionException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Comparator;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What {@link SnapshotStore#listDecisions(DecisionQuery)} must find, already validated by core.
 * A store answers it with one native query on an index; it never loads other records to filter in Java.
 *
 * <ul>
 *   <li>{@code agentId}: always set; only this agent's records match.</li>
 *   <li>{@code runId}, {@code threadId}, {@code resourceId}, {@code actor}: exact, literal match
 *       when set (no pattern matching, no case folding). Several set: all must match.</li>
 *   <li>{@code from} / {@code to}: inclusive bounds on {@code decidedAt}, at millisecond precision
 *       ({@code from} rounded up, {@code to} rounded down, so that the bounds mean the same on
 *       stored, truncated values): the convention of {@link RunQuery#createdFrom()} and
 *       {@link RunQuery#createdTo()}.</li>
 *   <li>Order: newest first: {@code decidedAt} descending, then {@code decisionId} descending
 *       (binary order), {@link #ORDER}.</li>
 *   <li>{@code after}: keyset paging: only records strictly after this position in that order
 *       ({@code decidedAt < after.decidedAt}, or equal and {@code decisionId < after.decisionId}),
 *       {@link After#precedes(DecisionRecord)}, as {@link RunQuery.After#precedes(RunSnapshot)}.</li>
 *   <li>{@code limit}: the most records to return, 1 to {@value #MAX_LIMIT}.</li>
 * </ul>
 * The store returns at most {@code limit} records and tells whether more match
 * ({@link DecisionPage#hasMore()}), typically by reading {@code limit + 1}.
 *
 * <p>Growth: a filter added later comes with a default that matches everything. Immutable and
 * thread-safe.
 */
public final class DecisionQuery {
    /** The largest page a query may ask for. */
    public static final int MAX_LIMIT = 1000;
    /** The page size when none is given. */
    public static final int DEFAULT_LIMIT = 50;

    /** The order every store must produce: {@code decidedAt} descending, then {@code decisionId} descending. */
    public static final Comparator<DecisionRecord> ORDER =
            Comparator.comparing(DecisionRecord::decidedAt).reversed()
                    .thenComparing(DecisionRecord::decisionId, Comparator.reverseOrder());

    private final String agentId;
    private final @Nullable String runId;
    private final @Nullable String threadId;
    private final @Nullable String resourceId;
    private final @Nullable String actor;
    private final @Nullable Instant from;
    private final @Nullable Instant to;
    private final int limit;
    private final @Nullable After after;

    private DecisionQuery(Builder b) {
        this.agentId = Objects.requireNonNull(b.agentId, "agentId");
        if (agentId.isEmpty()) throw new IllegalArgumentException("agentId must not be empty");
        this.runId = b.runId;
        this.threadId = b.threadId;
        this.resourceId = b.resourceId;
        this.actor = b.actor;
        this.from = roundUp(b.from);
        this.to = b.to == null ? null : b.to.truncatedTo(ChronoUnit.MILLIS);
        this.limit = b.limit;
        this.after = b.after;
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new InvalidOptionException("limit", "must be 1.." + MAX_LIMIT + ", was " + limit);
        }
    }

    private static @Nullable Instant roundUp(@Nullable Instant t) {
        if (t == null) return null;
        Instant m = t.truncatedTo(ChronoUnit.MILLIS);
        return m.equals(t) ? m : m.plusMillis(1);
    }

    /**
     * Starts a query over the records of {@code agentId}: all of them, newest first, {@value #DEFAULT_LIMIT} a page.
     *
     * @param agentId the agent whose records match
     * @return the builder
     */
    public static Builder forAgent(String agentId) {
        return new Builder(agentId);
    }

    /** {@return a builder holding every condition of this query} */
    public Builder toBuilder() {
        return new Builder(agentId).runId(runId).threadId(threadId).resourceId(resourceId).actor(actor)
                .from(from).to(to).limit(limit).after(after);
    }

    /** {@return the agent whose records match} */
    public String agentId() { return agentId; }

    /** {@return only this run's records, or null} */
    public @Nullable String runId() { return runId; }

    /** {@return only records of runs of this thread, or null} */
    public @Nullable String threadId() { return threadId; }

    /** {@return only records of runs of this resource, or null} */
    public @Nullable String resourceId() { return resourceId; }

    /** {@return only this actor's records, or null} */
    public @Nullable String actor() { return actor; }

    /** {@return the inclusive lower bound on decidedAt (rounded up to a millisecond), or null} */
    public @Nullable Instant from() { return from; }

    /** {@return the inclusive upper bound on decidedAt (rounded down to a millisecond), or null} */
    public @Nullable Instant to() { return to; }

    /** {@return the most records to return} */
    public int limit() { return limit; }

    /** {@return the position the page starts after, or null for the first page} */
    public @Nullable After after() { return after; }

    /**
     * Whether {@code r} matches every condition but the page (for stores that filter in memory,
     * such as the in-memory store, and for tests).
     *
     * @param r a record
     * @return true if it matches the filters and lies after {@link #after()}
     */
    public boolean matches(DecisionRecord r) {
        if (!r.agentId().equals(agentId)) return false;
        if (runId != null && !runId.equals(r.runId())) return false;
        if (threadId != null && !threadId.equals(r.threadId())) return false;
        if (resourceId != null && !resourceId.equals(r.resourceId())) return false;
        if (actor != null && !actor.equals(r.actor())) return false;
        if (from != null && r.decidedAt().isBefore(from)) return false;
        if (to != null && r.decidedAt().isAfter(to)) return false;
        return after == null || after.precedes(r);
    }

    @Override
    public String toString() {
        return "DecisionQuery[agentId=" + agentId + ", runId=" + runId + ", threadId=" + threadId + ", resourceId=" + resourceId
                + ", actor=" + actor + ", from=" + from + ", to=" + to + ", limit=" + limit + ", after=" + after + "]";
    }

    /**
     * A position in the listing order: the last record of a page.
     *
     * @param decidedAt  the record's decidedAt
     * @param decisionId the record's decisionId
     */
    public record After(Instant decidedAt, String decisionId) {
        /**
         * Checks the fields.
         *
         * @param decidedAt  the record's decidedAt
         * @param decisionId the record's decisionId
         */
        public After {
            Objects.requireNonNull(decidedAt, "decidedAt");
            Objects.requireNonNull(decisionId, "decisionId");
        }

        /**
         * The position of a record.
         *
         * @param r the last record of a page
         * @return its position
         */
        public static After of(DecisionRecord r) {
            return new After(r.decidedAt(), r.decisionId());
        }

        /**
         * Whether this position precedes {@code r}: {@code r} comes strictly after it in {@link #ORDER},
         * so it belongs to a later page. The same name and sense as {@link RunQuery.After#precedes(RunSnapshot)}.
         *
         * @param r a record
         * @return true if it belongs to a later page
         */
        public boolean precedes(DecisionRecord r) {
            int c = r.decidedAt().compareTo(decidedAt);
            return c < 0 || (c == 0 && r.decisionId().compareTo(decisionId) < 0);
        }

        /** {@return an opaque, URL-safe cursor for this position} */
        public String toCursor() {
            String raw = decidedAt.toEpochMilli() + ":" + decisionId;
            return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
        }

        /**
         * Reads a cursor made by {@link #toCursor()}.
         *
         * @param cursor the cursor
         * @return the position
         * @throws IllegalArgumentException if it is not such a cursor
         */
        public static After fromCursor(String cursor) {
            try {
                String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
                int colon = raw.indexOf(':');
                if (colon < 1 || colon == raw.length() - 1) throw new IllegalArgumentException("no position");
                return new After(Instant.ofEpochMilli(Long.parseLong(raw.substring(0, colon))), raw.substring(colon + 1));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("not a decision cursor: '" + cursor + "'", e);
            }
        }
    }

    /** Builder of {@link DecisionQuery}. Not thread-safe. */
    public static final class Builder {
        private final String agentId;
        private @Nullable String runId;
        private @Nullable String threadId;
        private @Nullable String resourceId;
        private @Nullable String actor;
        private @Nullable Instant from;
        private @Nullable Instant to;
        private int limit = DEFAULT_LIMIT;
        private @Nullable After after;

        private Builder(String agentId) {
            this.agentId = agentId;
        }

        /**
         * @param v only this run, or null
         * @return this builder
         */
        public Builder runId(@Nullable String v) { this.runId = v; return this; }

        /**
         * @param v only runs of this thread, or null
         * @return this builder
         */
        public Builder threadId(@Nullable String v) { this.threadId = v; return this; }

        /**
         * @param v only runs of this resource, or null
         * @return this builder
         */
        public Builder resourceId(@Nullable String v) { this.resourceId = v; return this; }

        /**
         * @param v only this actor, or null
         * @return this builder
         */
        public Builder actor(@Nullable String v) { this.actor = v; return this; }

        /**
         * @param v inclusive lower bound on decidedAt (rounded up to a millisecond), or null
         * @return this builder
         */
        public Builder from(@Nullable Instant v) { this.from = v; return this; }

        /**
         * @param v inclusive upper bound on decidedAt (rounded down to a millisecond), or null
         * @return this builder
         */
        public Builder to(@Nullable Instant v) { this.to = v; return this; }

        /**
         * @param v the page size, 1..{@value DecisionQuery#MAX_LIMIT}
         * @return this builder
         */
        public Builder limit(int v) { this.limit = v; return this; }

        /**
         * @param v the position to start after, or null
         * @return this builder
         */
        public Builder after(@Nullable After v) { this.after = v; return this; }

        /**
         * {@return the query}
         *
         * @throws InvalidOptionException   naming {@code limit} if it is not 1..{@value DecisionQuery#MAX_LIMIT}
         *                                   (the one place this rule lives: the options of
         *                                   {@code Agent.listDecisions} are checked by it too)
         * @throws IllegalArgumentException if agentId is empty
         */
        public DecisionQuery build() {
            return new DecisionQuery(this);
        }
    }
}
