package dev.baton.agent;

import dev.baton.Ids;
import dev.baton.InvalidOptionException;
import dev.baton.internal.FreeText;
import dev.baton.store.DecisionQuery;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Which decisions {@link Agent#listDecisions(AgentListDecisionsOptions)} returns: this agent's,
 * filtered by run, thread, resource, actor (exact matches) and a time range on {@code decidedAt}
 * ({@code from} and {@code to} both inclusive, to the millisecond, as the run listing's dates), newest first, {@code limit} a page (1 to
 * {@value DecisionQuery#MAX_LIMIT}, default {@value DecisionQuery#DEFAULT_LIMIT}), the next page
 * by the {@code cursor} of the last ({@link dev.baton.store.DecisionPage#nextCursor()}).
 *
 * <p>Immutable and thread-safe.
 */
public final class AgentListDecisionsOptions {
    /** Stands for the agent while the options are checked, before {@link #toQuery} names the real one. */
    private static final String ANY_AGENT = "any-agent";

    private final @Nullable String runId;
    private final @Nullable String threadId;
    private final @Nullable String resourceId;
    private final @Nullable String actor;
    private final @Nullable Instant from;
    private final @Nullable Instant to;
    private final int limit;
    private final DecisionQuery.@Nullable After after;
    private final @Nullable String cursor;

    private AgentListDecisionsOptions(Builder b) {
        // the page size's range is the store query's rule, kept in one place: DecisionQuery checks it
        // (InvalidOptionException naming limit); the agent is filled in by toQuery
        DecisionQuery.forAgent(ANY_AGENT).limit(b.limit).build();
        // an empty time range is a query a store must answer (DecisionQuery allows it); a caller who
        // asks for one is told instead, as the run listing tells one whose fromDate is after its toDate
        if (b.from != null && b.to != null && b.from.isAfter(b.to)) {
            throw new InvalidOptionException("from", "must not be after to (" + b.from + " > " + b.to + ")");
        }
        DecisionQuery.After a = null;
        if (b.cursor != null) {
            try {
                a = DecisionQuery.After.fromCursor(b.cursor);
            } catch (IllegalArgumentException e) {
                throw new InvalidOptionException("cursor", "is not a cursor of listDecisions: '" + b.cursor + "'");
            }
        }
        this.runId = Ids.optional("runId", b.runId);
        this.threadId = Ids.optional("threadId", b.threadId);
        this.resourceId = Ids.optional("resourceId", b.resourceId);
        this.actor = FreeText.check("actor", b.actor);
        this.from = b.from;
        this.to = b.to;
        this.limit = b.limit;
        this.after = a;
        this.cursor = b.cursor;
    }

    /** {@return an empty builder: every decision of the agent, newest first} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return options with no filter and the default page} */
    public static AgentListDecisionsOptions all() {
        return builder().build();
    }

    /**
     * The store query for these options.
     *
     * @param agentId the agent
     * @return the query
     */
    DecisionQuery toQuery(String agentId) {
        return DecisionQuery.forAgent(agentId).runId(runId).threadId(threadId).resourceId(resourceId).actor(actor)
                .from(from).to(to).limit(limit).after(after).build();
    }

    /** {@return only this run, or null} */
    public @Nullable String runId() { return runId; }

    /** {@return only runs of this thread, or null} */
    public @Nullable String threadId() { return threadId; }

    /** {@return only runs of this resource, or null} */
    public @Nullable String resourceId() { return resourceId; }

    /** {@return only this actor, or null} */
    public @Nullable String actor() { return actor; }

    /** {@return the inclusive lower bound on decidedAt, or null} */
    public @Nullable Instant from() { return from; }

    /** {@return the inclusive upper bound on decidedAt, or null} */
    public @Nullable Instant to() { return to; }

    /** {@return the page size} */
    public int limit() { return limit; }

    /** {@return the cursor of the page to read, or null for the first} */
    public @Nullable String cursor() { return cursor; }

    /** Builder of {@link AgentListDecisionsOptions}. Not thread-safe. */
    public static final class Builder {
        private @Nullable String runId;
        private @Nullable String threadId;
        private @Nullable String resourceId;
        private @Nullable String actor;
        private @Nullable Instant from;
        private @Nullable Instant to;
        private int limit = DecisionQuery.DEFAULT_LIMIT;
        private @Nullable String cursor;

        private Builder() {
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
         * @param v inclusive lower bound on decidedAt, or null
         * @return this builder
         */
        public Builder from(@Nullable Instant v) { this.from = v; return this; }

        /**
         * @param v inclusive upper bound on decidedAt (to the millisecond), or null
         * @return this builder
         */
        public Builder to(@Nullable Instant v) { this.to = v; return this; }

        /**
         * @param v the page size, 1..{@value DecisionQuery#MAX_LIMIT}
         * @return this builder
         */
        public Builder limit(int v) { this.limit = v; return this; }

        /**
         * @param v the cursor of the page to read, or null
         * @return this builder
         */
        public Builder cursor(@Nullable String v) { this.cursor = v; return this; }

        /**
         * {@return the options}
         *
         * @throws InvalidOptionException naming {@code limit} (checked by {@link DecisionQuery}), {@code from},
         *                                {@code cursor}, a run, thread or resource id beyond {@link Ids#LIMIT},
         *                                or an actor holding NUL or an unpaired surrogate
         */
        public AgentListDecisionsOptions build() {
            return new AgentListDecisionsOptions(this);
        }
    }
}
