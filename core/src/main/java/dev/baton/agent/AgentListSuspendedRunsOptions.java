package dev.baton.agent;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Filters and paging of {@link Agent#listSuspendedRuns(AgentListSuspendedRunsOptions)}. All optional.
 *
 * <ul>
 *   <li>{@code threadId}, {@code resourceId}: exact match.</li>
 *   <li>{@code fromDate}, {@code toDate}: inclusive bounds on the run's <em>creation</em> time.</li>
 *   <li>{@code perPage}, {@code page}: paging applies only when both are given; {@code page} is zero-based.</li>
 *   <li>{@code cursor}: keyset paging: with {@code perPage} (and no {@code page}), the runs after the
 *       page whose {@link AgentListSuspendedRunsResult#nextCursor()} this is. Stable while other runs
 *       come and go: no run that stays suspended is skipped or repeated. Use it with the same filters
 *       as the page that gave it.</li>
 * </ul>
 * Invalid values ({@code perPage < 1}, {@code page < 0}, {@code fromDate} after {@code toDate}, a
 * cursor with a page or without a perPage, a cursor that was not given by Baton) are rejected by
 * {@code listSuspendedRuns} with an {@link dev.baton.InvalidOptionException} naming the option.
 */
public record AgentListSuspendedRunsOptions(
        @Nullable String threadId,
        @Nullable String resourceId,
        @Nullable Instant fromDate,
        @Nullable Instant toDate,
        @Nullable Integer perPage,
        @Nullable Integer page,
        @Nullable String cursor) {

    /** No filter, no paging. */
    public static final AgentListSuspendedRunsOptions ALL = new AgentListSuspendedRunsOptions(null, null, null, null, null, null,
            null);

    /** Options without a cursor. */
    public AgentListSuspendedRunsOptions(@Nullable String threadId, @Nullable String resourceId, @Nullable Instant fromDate,
                                         @Nullable Instant toDate, @Nullable Integer perPage, @Nullable Integer page) {
        this(threadId, resourceId, fromDate, toDate, perPage, page, null);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** True when both {@code perPage} and {@code page} are given. */
    public boolean paginated() {
        return perPage != null && page != null;
    }

    /** Builder of {@link AgentListSuspendedRunsOptions}. */
    public static final class Builder {
        private @Nullable String threadId;
        private @Nullable String resourceId;
        private @Nullable Instant fromDate;
        private @Nullable Instant toDate;
        private @Nullable Integer perPage;
        private @Nullable Integer page;
        private @Nullable String cursor;

        private Builder() {
        }

        public Builder threadId(@Nullable String threadId) { this.threadId = threadId; return this; }
        public Builder resourceId(@Nullable String resourceId) { this.resourceId = resourceId; return this; }
        public Builder fromDate(@Nullable Instant fromDate) { this.fromDate = fromDate; return this; }
        public Builder toDate(@Nullable Instant toDate) { this.toDate = toDate; return this; }
        public Builder perPage(@Nullable Integer perPage) { this.perPage = perPage; return this; }
        public Builder page(@Nullable Integer page) { this.page = page; return this; }
        /** Continues after the page that gave this {@link AgentListSuspendedRunsResult#nextCursor()}; needs a perPage. */
        public Builder cursor(@Nullable String cursor) { this.cursor = cursor; return this; }

        public AgentListSuspendedRunsOptions build() {
            return new AgentListSuspendedRunsOptions(threadId, resourceId, fromDate, toDate, perPage, page, cursor);
        }
    }
}
