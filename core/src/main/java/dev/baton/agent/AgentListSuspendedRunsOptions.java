package dev.baton.agent;

import dev.baton.InvalidOptionException;
import java.time.Instant;
import java.util.Objects;
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
 *   <li>{@code waitingFor}: "waiting for me": only the runs in which some call waits for a decision this
 *       {@link Approver} may take now by the agent's {@link ApproverRule}s: approve a call that waits for
 *       approval (holding one of its rule's approve roles, or any name where no rule or role applies; not
 *       the person who started the run unless the rule lets the requester approve; not someone who already
 *       approved it while its quorum is short), or answer a call that waits for data. A run claimed by an
 *       instance (being resumed, even if its lease lapsed) waits for nobody. Filtered by the store, on its
 *       indexes, with the same total and paging as the other filters; a store that does not declare
 *       {@link dev.baton.store.QueryFeature#DECIDERS} is refused with an {@link InvalidOptionException}.</li>
 * </ul>
 * Invalid values ({@code perPage < 1}, {@code page < 0}, {@code fromDate} after {@code toDate}, a
 * cursor with a page or without a perPage, a cursor that was not given by Baton) are refused by
 * {@link Builder#build()} with an {@link InvalidOptionException} (an {@link IllegalArgumentException})
 * naming the option, before anything runs.
 *
 * <pre>{@code
 * AgentListSuspendedRunsOptions.builder().threadId("thread-123").resourceId("user-456").perPage(20).page(0).build();
 * }</pre>
 * Immutable and thread-safe. A class with a builder, so later releases can add filters.
 */
public final class AgentListSuspendedRunsOptions {

    /** No filter, no paging. */
    public static final AgentListSuspendedRunsOptions ALL = builder().build();

    private final @Nullable String threadId;
    private final @Nullable String resourceId;
    private final @Nullable Instant fromDate;
    private final @Nullable Instant toDate;
    private final @Nullable Integer perPage;
    private final @Nullable Integer page;
    private final @Nullable String cursor;
    private final @Nullable Approver waitingFor;

    private AgentListSuspendedRunsOptions(Builder b) {
        this.threadId = dev.baton.Ids.optional("threadId", b.threadId);
        this.resourceId = dev.baton.Ids.optional("resourceId", b.resourceId);
        this.fromDate = b.fromDate;
        this.toDate = b.toDate;
        this.perPage = b.perPage;
        this.page = b.page;
        this.cursor = b.cursor;
        this.waitingFor = b.waitingFor;
        if (perPage != null && perPage < 1) {
            throw new InvalidOptionException("perPage", "must be a positive integer, was " + perPage);
        }
        if (page != null && page < 0) {
            throw new InvalidOptionException("page", "must be a non-negative integer (pages are zero-based), was " + page);
        }
        if (fromDate != null && toDate != null && fromDate.isAfter(toDate)) {
            throw new InvalidOptionException("fromDate", "must not be after toDate (" + fromDate + " > " + toDate + ")");
        }
        if (cursor != null && page != null) {
            throw new InvalidOptionException("cursor", "cannot be combined with page: a cursor continues after its own page");
        }
        if (cursor != null && perPage == null) {
            throw new InvalidOptionException("cursor", "needs perPage (the size of the page after the cursor)");
        }
        if (cursor != null) RunListing.decodeCursor(cursor);
    }

    /** {@return a builder with no filter and no paging} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding these options, to change some (for example the page)} */
    public Builder toBuilder() {
        return new Builder().threadId(threadId).resourceId(resourceId).fromDate(fromDate).toDate(toDate).perPage(perPage)
                .page(page).cursor(cursor).waitingFor(waitingFor);
    }

    /** {@return the exact thread id to match, or null} */
    public @Nullable String threadId() { return threadId; }

    /** {@return the exact resource id to match, or null} */
    public @Nullable String resourceId() { return resourceId; }

    /** {@return the inclusive lower bound on the run's creation time, or null} */
    public @Nullable Instant fromDate() { return fromDate; }

    /** {@return the inclusive upper bound on the run's creation time, or null} */
    public @Nullable Instant toDate() { return toDate; }

    /** {@return the page size, or null} */
    public @Nullable Integer perPage() { return perPage; }

    /** {@return the zero-based page, or null} */
    public @Nullable Integer page() { return page; }

    /** {@return the cursor to continue after, or null} */
    public @Nullable String cursor() { return cursor; }

    /** {@return the principal whose decisions the listing is filtered to ("waiting for me"), or null} */
    public @Nullable Approver waitingFor() { return waitingFor; }

    /** {@return true when both {@code perPage} and {@code page} are given} */
    public boolean paginated() {
        return perPage != null && page != null;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof AgentListSuspendedRunsOptions x)) return false;
        return Objects.equals(threadId, x.threadId) && Objects.equals(resourceId, x.resourceId)
                && Objects.equals(fromDate, x.fromDate) && Objects.equals(toDate, x.toDate)
                && Objects.equals(perPage, x.perPage) && Objects.equals(page, x.page) && Objects.equals(cursor, x.cursor)
                && Objects.equals(waitingFor, x.waitingFor);
    }

    @Override
    public int hashCode() {
        return Objects.hash(threadId, resourceId, fromDate, toDate, perPage, page, cursor, waitingFor);
    }

    @Override
    public String toString() {
        return "AgentListSuspendedRunsOptions[threadId=" + threadId + ", resourceId=" + resourceId + ", fromDate=" + fromDate
                + ", toDate=" + toDate + ", perPage=" + perPage + ", page=" + page + ", cursor=" + cursor + ", waitingFor=" + waitingFor + "]";
    }

    /** Builder of {@link AgentListSuspendedRunsOptions}. Not thread-safe. */
    public static final class Builder {
        private @Nullable String threadId;
        private @Nullable String resourceId;
        private @Nullable Instant fromDate;
        private @Nullable Instant toDate;
        private @Nullable Integer perPage;
        private @Nullable Integer page;
        private @Nullable String cursor;
        private @Nullable Approver waitingFor;

        private Builder() {
        }

        /**
         * @param threadId the exact thread id, or null for any
         * @return this builder
         */
        public Builder threadId(@Nullable String threadId) { this.threadId = threadId; return this; }

        /**
         * @param resourceId the exact resource id, or null for any
         * @return this builder
         */
        public Builder resourceId(@Nullable String resourceId) { this.resourceId = resourceId; return this; }

        /**
         * @param fromDate the inclusive lower bound on the creation time, or null
         * @return this builder
         */
        public Builder fromDate(@Nullable Instant fromDate) { this.fromDate = fromDate; return this; }

        /**
         * @param toDate the inclusive upper bound on the creation time, or null
         * @return this builder
         */
        public Builder toDate(@Nullable Instant toDate) { this.toDate = toDate; return this; }

        /**
         * @param perPage the page size (at least 1), or null
         * @return this builder
         */
        public Builder perPage(@Nullable Integer perPage) { this.perPage = perPage; return this; }

        /**
         * @param page the zero-based page, or null
         * @return this builder
         */
        public Builder page(@Nullable Integer page) { this.page = page; return this; }

        /**
         * Continues after the page that gave this {@link AgentListSuspendedRunsResult#nextCursor()}; needs a perPage.
         *
         * @param cursor the cursor, or null
         * @return this builder
         */
        public Builder cursor(@Nullable String cursor) { this.cursor = cursor; return this; }

        /**
         * "Waiting for me": only the runs with a call that waits for a decision {@code approver} may take now
         * (see the class comment).
         *
         * <pre>{@code
         * agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().waitingFor(Approver.of("maria", "finance")).build());
         * }</pre>
         *
         * @param approver who asks, with the roles they hold, or null for no such filter
         * @return this builder
         */
        public Builder waitingFor(@Nullable Approver approver) { this.waitingFor = approver; return this; }

        /**
         * {@return the options}
         *
         * @throws InvalidOptionException naming the option, for the invalid values listed in the class comment
         */
        public AgentListSuspendedRunsOptions build() {
            return new AgentListSuspendedRunsOptions(this);
        }
    }
}
