package dev.baton.store;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What {@link SnapshotStore#list(RunQuery)} must find, closed and already validated by core.
 * A store translates it into one native query; it never loads other snapshots to filter in Java.
 *
 * <ul>
 *   <li>{@code agentId}: always set; only runs of this agent match.</li>
 *   <li>{@code status}: the <em>effective</em> status at {@code now} (see
 *       {@link RunSnapshot#effectiveStatus(Instant)}): {@code SUSPENDED} matches suspended runs and
 *       resuming runs whose lease expired ({@code leaseExpiresAt <= now}); {@code RESUMING} matches
 *       resuming runs with {@code leaseExpiresAt > now}; {@code null} matches both.</li>
 *   <li>{@code threadId}, {@code resourceId}: exact, literal match when set.</li>
 *   <li>{@code createdFrom} / {@code createdTo}: inclusive bounds on {@code createdAt}.</li>
 *   <li>Order: {@code createdAt} descending, then {@code runId} descending (binary order), {@link #ORDER}.</li>
 *   <li>{@code offset} / {@code limit}: the page; {@code limit == null} means every match;
 *       {@code limit == 0} asks only for the total.</li>
 *   <li>{@code after}: keyset paging: only runs strictly after this position in listing order
 *       ({@code createdAt < after.createdAt}, or equal and {@code runId < after.runId}), as an
 *       index range; needs {@code offset == 0}. The total ignores it.</li>
 *   <li>{@code deciders} ({@link QueryFeature#DECIDERS}): when set, only runs whose <em>stored</em> status is
 *       {@code SUSPENDED} (not {@code RESUMING}, not even with a lapsed lease: a claimed call waits for no
 *       decision) and for which at least one {@link Decider} {@code d} of the list has
 *       {@code d.granted()} among the run's {@link RunSnapshot#deciders()} and {@code d.unlessExcluded()} not
 *       among them. An empty list matches nothing. The labels are opaque: a store compares them literally.</li>
 *   <li>{@code withPayload}: false when the caller needs no payloads (core's listings read
 *       {@link RunSnapshot#summary()}): the store then leaves the payload unread and returns an
 *       empty payload, so listing cost does not grow with snapshot size.</li>
 * </ul>
 * The {@link RunPage#total()} is always the number of matches before paging (and before {@code after}).
 *
 * <p>Growth: a filter added in a later release comes with a new {@link QueryFeature}, reported by
 * {@link #features()} when the query uses it; core refuses such a query for a store whose
 * {@link SnapshotStore#queryFeatures()} does not declare it. Built with {@link #forAgent} or
 * {@link #toBuilder()}. Immutable and thread-safe.
 */
public final class RunQuery {

    /**
     * The listing order every store must produce: {@code createdAt} descending, then
     * {@code runId} descending. Run ids compare with {@link String#compareTo}, which for the ASCII
     * ids Baton generates (UUIDs), and for every id without characters beyond U+FFFF, is the binary
     * UTF-8 order of SQL {@code COLLATE "C"} / {@code utf8mb4_bin}, Redis sorted-set ties and
     * MongoDB's default string order.
     */
    public static final Comparator<RunSnapshot> ORDER =
            Comparator.comparing(RunSnapshot::createdAt).reversed()
                    .thenComparing(RunSnapshot::runId, Comparator.reverseOrder());

    private final String agentId;
    private final @Nullable RunStatus status;
    private final @Nullable String threadId;
    private final @Nullable String resourceId;
    private final @Nullable Instant createdFrom;
    private final @Nullable Instant createdTo;
    private final Instant now;
    private final long offset;
    private final @Nullable Integer limit;
    private final @Nullable After after;
    private final boolean withPayload;
    private final @Nullable List<Decider> deciders;

    private RunQuery(Builder b) {
        this.agentId = Objects.requireNonNull(b.agentId, "agentId");
        if (agentId.isEmpty()) throw new IllegalArgumentException("agentId must not be empty");
        this.now = Objects.requireNonNull(b.now, "now").truncatedTo(ChronoUnit.MILLIS);
        this.status = b.status;
        this.threadId = b.threadId;
        this.resourceId = b.resourceId;
        this.offset = b.offset;
        this.limit = b.limit;
        this.after = b.after;
        this.withPayload = b.withPayload;
        this.deciders = b.deciders == null ? null : List.copyOf(b.deciders);
        if (offset < 0) throw new IllegalArgumentException("offset must be >= 0, was " + offset);
        if (limit != null && limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        if (limit == null && offset != 0) throw new IllegalArgumentException("offset needs a limit");
        if (after != null && offset != 0) throw new IllegalArgumentException("a cursor (after) and an offset do not go together");
        // Stored instants have millisecond precision: round the bounds inward so that
        // inclusive comparisons on stored values give the same answer as on exact ones.
        Instant from = b.createdFrom;
        if (from != null) {
            Instant t = from.truncatedTo(ChronoUnit.MILLIS);
            from = t.equals(from) ? t : t.plusMillis(1);
        }
        this.createdFrom = from;
        this.createdTo = b.createdTo == null ? null : b.createdTo.truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * Starts a query over the runs of {@code agentId}, as of {@code now}, matching suspended runs,
     * with payloads, without a page.
     *
     * @param agentId the agent whose runs match
     * @param now     the instant leases are judged at
     * @return the builder
     */
    public static Builder forAgent(String agentId, Instant now) {
        return new Builder(agentId, now);
    }

    /** {@return a builder holding every condition of this query} */
    public Builder toBuilder() {
        Builder b = new Builder(agentId, now);
        b.status = status;
        b.threadId = threadId;
        b.resourceId = resourceId;
        b.createdFrom = createdFrom;
        b.createdTo = createdTo;
        b.offset = offset;
        b.limit = limit;
        b.after = after;
        b.withPayload = withPayload;
        b.deciders = deciders;
        return b;
    }

    /** {@return the agent whose runs match} */
    public String agentId() { return agentId; }

    /** {@return the effective status to match, or null for both} */
    public @Nullable RunStatus status() { return status; }

    /** {@return the exact thread id to match, or null} */
    public @Nullable String threadId() { return threadId; }

    /** {@return the exact resource id to match, or null} */
    public @Nullable String resourceId() { return resourceId; }

    /** {@return the inclusive lower bound on {@code createdAt} (rounded up to a millisecond), or null} */
    public @Nullable Instant createdFrom() { return createdFrom; }

    /** {@return the inclusive upper bound on {@code createdAt} (rounded down to a millisecond), or null} */
    public @Nullable Instant createdTo() { return createdTo; }

    /** {@return the instant leases are judged at (milliseconds)} */
    public Instant now() { return now; }

    /** {@return how many matches to skip (only with a limit)} */
    public long offset() { return offset; }

    /** {@return the most matches to return, 0 for only the total, or null for every match} */
    public @Nullable Integer limit() { return limit; }

    /** {@return the keyset position to continue after, or null} */
    public @Nullable After after() { return after; }

    /** {@return false if the store may leave payloads out (empty)} */
    public boolean withPayload() { return withPayload; }

    /**
     * {@return who must be able to decide a matching run now, as label pairs matched against
     * {@link RunSnapshot#deciders()} (see {@link #matchesDeciders}), or null for no such filter; immutable}
     */
    public @Nullable List<Decider> deciders() { return deciders; }

    /**
     * {@return the features this query uses; a store must declare each one in
     * {@link SnapshotStore#queryFeatures()} to be asked it}
     */
    public Set<QueryFeature> features() {
        Set<QueryFeature> used = EnumSet.of(QueryFeature.BASELINE);
        if (deciders != null) used.add(QueryFeature.DECIDERS);
        return used;
    }

    /** {@return true when the date bounds cannot match anything (after rounding to milliseconds)} */
    public boolean emptyDateRange() {
        return createdFrom != null && createdTo != null && createdFrom.isAfter(createdTo);
    }

    /**
     * Whether {@code s}, as of {@link #now()}, matches every condition but the page and the cursor:
     * the reference semantics, for stores that filter in a data structure and for tests.
     *
     * @param s a stored run
     * @return true if it matches
     */
    public boolean matches(RunSnapshot s) {
        return s.agentId().equals(agentId)
                && (status == null || s.effectiveStatus(now) == status)
                && (threadId == null || threadId.equals(s.threadId()))
                && (resourceId == null || resourceId.equals(s.resourceId()))
                && (createdFrom == null || !s.createdAt().isBefore(createdFrom))
                && (createdTo == null || !s.createdAt().isAfter(createdTo))
                && (deciders == null || matchesDeciders(deciders, s));
    }

    /**
     * The deciders rule, the one definition every store implements: {@code s} is stored as
     * {@link RunStatus#SUSPENDED} (a {@code RESUMING} run, even with a lapsed lease, waits for no decision),
     * and for at least one {@link Decider} {@code d} of {@code deciders}, {@code d.granted()} is one of
     * {@code s.deciders()} and {@code d.unlessExcluded()} is not. An empty list matches nothing.
     *
     * @param deciders the query's deciders
     * @param s        a stored run
     * @return true if it matches
     */
    public static boolean matchesDeciders(List<Decider> deciders, RunSnapshot s) {
        if (s.status() != RunStatus.SUSPENDED) return false;
        Set<String> labels = s.deciders();
        for (Decider d : deciders) {
            if (labels.contains(d.granted()) && !labels.contains(d.unlessExcluded())) return true;
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof RunQuery q)) return false;
        return offset == q.offset && withPayload == q.withPayload && agentId.equals(q.agentId) && status == q.status
                && Objects.equals(threadId, q.threadId) && Objects.equals(resourceId, q.resourceId)
                && Objects.equals(createdFrom, q.createdFrom) && Objects.equals(createdTo, q.createdTo)
                && now.equals(q.now) && Objects.equals(limit, q.limit) && Objects.equals(after, q.after)
                && Objects.equals(deciders, q.deciders);
    }

    @Override
    public int hashCode() {
        return Objects.hash(agentId, status, threadId, resourceId, createdFrom, createdTo, now, offset, limit, after, withPayload,
                deciders);
    }

    @Override
    public String toString() {
        return "RunQuery[agentId=" + agentId + ", status=" + status + ", threadId=" + threadId + ", resourceId=" + resourceId
                + ", createdFrom=" + createdFrom + ", createdTo=" + createdTo + ", now=" + now + ", offset=" + offset
                + ", limit=" + limit + ", after=" + after + ", withPayload=" + withPayload + ", deciders=" + deciders + "]";
    }

    /**
     * A position in listing order: the last run of the previous page.
     *
     * @param createdAt that run's creation time (truncated to milliseconds)
     * @param runId     that run's id
     */
    public record After(Instant createdAt, String runId) {
        /**
         * Checks both parts and truncates the time to milliseconds.
         *
         * @param createdAt that run's creation time (truncated to milliseconds)
         * @param runId that run's id
         */
        public After {
            Objects.requireNonNull(createdAt, "createdAt");
            Objects.requireNonNull(runId, "runId");
            createdAt = createdAt.truncatedTo(ChronoUnit.MILLIS);
        }

        /**
         * Whether {@code s} comes strictly after this position in listing order.
         *
         * @param s a stored run
         * @return true if it comes after
         */
        public boolean precedes(RunSnapshot s) {
            int c = s.createdAt().compareTo(createdAt);
            return c < 0 || c == 0 && s.runId().compareTo(runId) < 0;
        }
    }

    /**
     * One way to be among the deciders of a run ({@link RunQuery#deciders()}): a run matches when
     * {@code granted} is one of its {@link RunSnapshot#deciders()} labels and {@code unlessExcluded} is not.
     * Core builds one per role of the asking principal, plus one for calls any principal may decide.
     *
     * @param granted        the label that grants the decision (non-empty)
     * @param unlessExcluded the label that takes it away again (non-empty)
     */
    public record Decider(String granted, String unlessExcluded) {
        /**
         * Checks both labels.
         *
         * @param granted        the label that grants the decision (non-empty)
         * @param unlessExcluded the label that takes it away again (non-empty)
         */
        public Decider {
            Objects.requireNonNull(granted, "granted");
            Objects.requireNonNull(unlessExcluded, "unlessExcluded");
            if (granted.isEmpty() || unlessExcluded.isEmpty()) throw new IllegalArgumentException("a decider label must not be empty");
        }
    }

    /**
     * Builder of {@link RunQuery}; status defaults to {@link RunStatus#SUSPENDED}, with payloads,
     * no page. Not thread-safe.
     */
    public static final class Builder {
        private final String agentId;
        private final Instant now;
        private @Nullable RunStatus status = RunStatus.SUSPENDED;
        private @Nullable String threadId;
        private @Nullable String resourceId;
        private @Nullable Instant createdFrom;
        private @Nullable Instant createdTo;
        private long offset;
        private @Nullable Integer limit;
        private @Nullable After after;
        private boolean withPayload = true;
        private @Nullable List<Decider> deciders;

        private Builder(String agentId, Instant now) {
            this.agentId = agentId;
            this.now = now;
        }

        /**
         * @param status the effective status to match, or null for both
         * @return this builder
         */
        public Builder status(@Nullable RunStatus status) { this.status = status; return this; }

        /**
         * @param threadId the exact thread id, or null
         * @return this builder
         */
        public Builder threadId(@Nullable String threadId) { this.threadId = threadId; return this; }

        /**
         * @param resourceId the exact resource id, or null
         * @return this builder
         */
        public Builder resourceId(@Nullable String resourceId) { this.resourceId = resourceId; return this; }

        /**
         * @param from the inclusive lower bound on creation time, or null
         * @return this builder
         */
        public Builder createdFrom(@Nullable Instant from) { this.createdFrom = from; return this; }

        /**
         * @param to the inclusive upper bound on creation time, or null
         * @return this builder
         */
        public Builder createdTo(@Nullable Instant to) { this.createdTo = to; return this; }

        /**
         * One page by offset.
         *
         * @param offset how many matches to skip
         * @param limit  the most matches to return
         * @return this builder
         */
        public Builder page(long offset, int limit) { this.offset = offset; this.limit = limit; return this; }

        /**
         * Asks only for the total ({@code limit == 0}).
         *
         * @return this builder
         */
        public Builder countOnly() { this.offset = 0; this.limit = 0; return this; }

        /**
         * Keyset paging: at most {@code limit} runs after {@code position}.
         *
         * @param position the last run of the previous page, or null for the first page
         * @param limit    the most matches to return
         * @return this builder
         */
        public Builder after(@Nullable After position, int limit) { this.after = position; this.offset = 0; this.limit = limit; return this; }

        /**
         * @param withPayload false if payloads may be left out
         * @return this builder
         */
        public Builder withPayload(boolean withPayload) { this.withPayload = withPayload; return this; }

        /**
         * Only runs that one of {@code deciders} may decide now ({@link QueryFeature#DECIDERS}).
         *
         * @param deciders the label pairs, or null for no such filter; an empty list matches nothing
         * @return this builder
         */
        public Builder deciders(@Nullable List<Decider> deciders) { this.deciders = deciders; return this; }

        /**
         * {@return the query}
         *
         * @throws IllegalArgumentException for a negative offset or limit, an offset without a limit,
         *         or a cursor with an offset
         */
        public RunQuery build() {
            return new RunQuery(this);
        }
    }
}
