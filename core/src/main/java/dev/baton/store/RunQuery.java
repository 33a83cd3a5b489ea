package dev.baton.store;

import dev.baton.agent.RunStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
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
 *   <li>Order: {@code createdAt} descending, then {@code runId} descending (binary order).</li>
 *   <li>{@code offset} / {@code limit}: the page; {@code limit == null} means every match;
 *       {@code limit == 0} asks only for the total.</li>
 *   <li>{@code after}: keyset paging: only runs strictly after this position in listing order
 *       ({@code createdAt < after.createdAt}, or equal and {@code runId < after.runId}), as an
 *       index range; needs {@code offset == 0}. The total ignores it.</li>
 *   <li>{@code withPayload}: false when the caller needs no payloads (core's listings read
 *       {@link RunSnapshot#summary()}): the store then leaves the payload unread and returns an
 *       empty payload, so listing cost does not grow with snapshot size, except for a row without
 *       a summary (written before Baton 0.2), whose payload it returns so core can read it.</li>
 * </ul>
 * The {@link RunPage#total()} is always the number of matches before paging (and before {@code after}).
 */
public record RunQuery(
        String agentId,
        @Nullable RunStatus status,
        @Nullable String threadId,
        @Nullable String resourceId,
        @Nullable Instant createdFrom,
        @Nullable Instant createdTo,
        Instant now,
        long offset,
        @Nullable Integer limit,
        @Nullable After after,
        boolean withPayload) {

    /**
     * A position in listing order: the last run of the previous page.
     *
     * @param createdAt that run's creation time
     * @param runId     that run's id
     */
    public record After(Instant createdAt, String runId) {
        public After {
            Objects.requireNonNull(createdAt, "createdAt");
            Objects.requireNonNull(runId, "runId");
            createdAt = createdAt.truncatedTo(ChronoUnit.MILLIS);
        }

        /** True if {@code s} comes strictly after this position in listing order. */
        public boolean precedes(RunSnapshot s) {
            int c = s.createdAt().compareTo(createdAt);
            return c < 0 || c == 0 && s.runId().compareTo(runId) < 0;
        }
    }

    /** A query as Baton 0.1 built them: no cursor, with payloads. */
    public RunQuery(String agentId, @Nullable RunStatus status, @Nullable String threadId, @Nullable String resourceId,
                    @Nullable Instant createdFrom, @Nullable Instant createdTo, Instant now, long offset,
                    @Nullable Integer limit) {
        this(agentId, status, threadId, resourceId, createdFrom, createdTo, now, offset, limit, null, true);
    }

    public RunQuery {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (offset < 0) throw new IllegalArgumentException("offset must be >= 0, was " + offset);
        if (limit != null && limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        if (limit == null && offset != 0) throw new IllegalArgumentException("offset needs a limit");
        if (after != null && offset != 0) throw new IllegalArgumentException("a cursor (after) and an offset do not go together");
        now = now.truncatedTo(ChronoUnit.MILLIS);
        // Stored instants have millisecond precision: round the bounds inward so that
        // inclusive comparisons on stored values give the same answer as on exact ones.
        if (createdFrom != null) {
            Instant t = createdFrom.truncatedTo(ChronoUnit.MILLIS);
            createdFrom = t.equals(createdFrom) ? t : t.plusMillis(1);
        }
        if (createdTo != null) createdTo = createdTo.truncatedTo(ChronoUnit.MILLIS);
    }

    /**
     * The listing order every store must produce: {@code createdAt} descending, then
     * {@code runId} descending. Run ids compare with {@link String#compareTo}, which for the ASCII
     * ids Baton generates (UUIDs), and for every id without characters beyond U+FFFF, is the binary
     * UTF-8 order of SQL {@code COLLATE "C"} / {@code utf8mb4_bin}, Redis sorted-set ties and
     * MongoDB's default string order.
     */
    public static final java.util.Comparator<RunSnapshot> ORDER =
            java.util.Comparator.comparing(RunSnapshot::createdAt).reversed()
                    .thenComparing(RunSnapshot::runId, java.util.Comparator.reverseOrder());

    /** Starts a query over the runs of {@code agentId}, as of {@code now}, matching suspended runs. */
    public static Builder forAgent(String agentId, Instant now) {
        return new Builder(agentId, now);
    }

    /** True when the date bounds cannot match anything (after rounding to milliseconds). */
    public boolean emptyDateRange() {
        return createdFrom != null && createdTo != null && createdFrom.isAfter(createdTo);
    }

    /** True when {@code s}, as of {@link #now()}, matches every condition but the page and the cursor. */
    public boolean matches(RunSnapshot s) {
        return s.agentId().equals(agentId)
                && (status == null || s.effectiveStatus(now) == status)
                && (threadId == null || threadId.equals(s.threadId()))
                && (resourceId == null || resourceId.equals(s.resourceId()))
                && (createdFrom == null || !s.createdAt().isBefore(createdFrom))
                && (createdTo == null || !s.createdAt().isAfter(createdTo));
    }

    /** Builder for {@link RunQuery}; status defaults to {@link RunStatus#SUSPENDED}, no page. */
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

        private Builder(String agentId, Instant now) {
            this.agentId = agentId;
            this.now = now;
        }

        public Builder status(@Nullable RunStatus status) { this.status = status; return this; }
        public Builder threadId(@Nullable String threadId) { this.threadId = threadId; return this; }
        public Builder resourceId(@Nullable String resourceId) { this.resourceId = resourceId; return this; }
        public Builder createdFrom(@Nullable Instant from) { this.createdFrom = from; return this; }
        public Builder createdTo(@Nullable Instant to) { this.createdTo = to; return this; }
        public Builder page(long offset, int limit) { this.offset = offset; this.limit = limit; return this; }
        public Builder countOnly() { this.offset = 0; this.limit = 0; return this; }
        /** Keyset paging: at most {@code limit} runs after {@code position}. */
        public Builder after(@Nullable After position, int limit) { this.after = position; this.offset = 0; this.limit = limit; return this; }
        public Builder withPayload(boolean withPayload) { this.withPayload = withPayload; return this; }

        public RunQuery build() {
            return new RunQuery(agentId, status, threadId, resourceId, createdFrom, createdTo, now, offset, limit, after,
                    withPayload);
        }
    }
}
