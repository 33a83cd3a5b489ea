package dev.baton.agent;

import dev.baton.InvalidOptionException;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Options of a new run.
 *
 * <pre>{@code
 * RunOptions.builder().threadId("thread-123").resourceId("user-456").maxSteps(5).build();
 * }</pre>
 * Immutable and thread-safe. A class with a builder, so later releases can add options.
 */
public final class RunOptions {

    /** No thread, no resource, the agent's step limit and wait timeout. */
    public static final RunOptions DEFAULT = builder().build();

    private final @Nullable String threadId;
    private final @Nullable String resourceId;
    private final @Nullable Integer maxSteps;
    private final @Nullable Duration waitTimeout;
    private final @Nullable String startedBy;

    private RunOptions(Builder b) {
        this.startedBy = DecisionOptions.check("startedBy", b.startedBy);
        this.threadId = dev.baton.Ids.optional("threadId", b.threadId);
        this.resourceId = dev.baton.Ids.optional("resourceId", b.resourceId);
        this.maxSteps = b.maxSteps;
        this.waitTimeout = b.waitTimeout;
        if (maxSteps != null && maxSteps < 1) throw new InvalidOptionException("maxSteps", "must be positive, was " + maxSteps);
        if (waitTimeout != null && (waitTimeout.isNegative() || waitTimeout.isZero())) {
            throw new InvalidOptionException("waitTimeout", "must be positive, was " + waitTimeout);
        }
    }

    /** {@return a builder with no thread, no resource, and the agent's limits} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding these options} */
    public Builder toBuilder() {
        Builder b = new Builder().threadId(threadId).resourceId(resourceId);
        b.maxSteps = maxSteps;
        b.waitTimeout = waitTimeout;
        b.startedBy = startedBy;
        return b;
    }

    /** {@return the conversation thread, stored with the run and usable as a filter, or null} */
    public @Nullable String threadId() { return threadId; }

    /** {@return the resource (typically the user), stored with the run and usable as a filter, or null} */
    public @Nullable String resourceId() { return resourceId; }

    /** {@return the most model calls the run may make, or null: the agent's default ({@code AgentBuilder.maxSteps}, 10 unless set)} */
    public @Nullable Integer maxSteps() { return maxSteps; }

    /**
     * {@return how long any call of this run may wait for a decision or data before the wait expires, or
     * null: the tool's, else the agent's (see {@link ExpiryPolicy})}
     */
    public @Nullable Duration waitTimeout() { return waitTimeout; }

    /**
     * {@return who started the run (a principal), recorded on the run, or null. An
     * {@link ApproverRule} refuses to let that person approve the run's calls unless it says
     * {@link ApproverRule#requesterMayApprove()}}
     */
    public @Nullable String startedBy() { return startedBy; }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof RunOptions x)) return false;
        return Objects.equals(threadId, x.threadId) && Objects.equals(resourceId, x.resourceId)
                && Objects.equals(maxSteps, x.maxSteps) && Objects.equals(waitTimeout, x.waitTimeout)
                && Objects.equals(startedBy, x.startedBy);
    }

    @Override
    public int hashCode() {
        return Objects.hash(threadId, resourceId, maxSteps, waitTimeout, startedBy);
    }

    @Override
    public String toString() {
        return "RunOptions[threadId=" + threadId + ", resourceId=" + resourceId + ", maxSteps=" + maxSteps
                + ", waitTimeout=" + waitTimeout + ", startedBy=" + startedBy + "]";
    }

    /** Builder of {@link RunOptions}. Not thread-safe. */
    public static final class Builder {
        private @Nullable String threadId;
        private @Nullable String resourceId;
        private @Nullable Integer maxSteps;
        private @Nullable Duration waitTimeout;
        private @Nullable String startedBy;

        private Builder() {
        }

        /**
         * @param startedBy who starts the run (the principal asking), recorded on the run for
         *                  separation of duties; or null
         * @return this builder
         */
        public Builder startedBy(@Nullable String startedBy) { this.startedBy = startedBy; return this; }

        /**
         * @param threadId the conversation thread, or null
         * @return this builder
         */
        public Builder threadId(@Nullable String threadId) { this.threadId = threadId; return this; }

        /**
         * @param resourceId the resource (typically the user), or null
         * @return this builder
         */
        public Builder resourceId(@Nullable String resourceId) { this.resourceId = resourceId; return this; }

        /**
         * The most model calls this run may make; overrides the agent's default, whatever that is.
         *
         * @param maxSteps at least 1
         * @return this builder
         */
        public Builder maxSteps(int maxSteps) { this.maxSteps = maxSteps; return this; }

        /**
         * How long any call of this run may wait for a decision or data; overrides the tool's and the agent's.
         *
         * @param waitTimeout a positive duration
         * @return this builder
         */
        public Builder waitTimeout(Duration waitTimeout) { this.waitTimeout = waitTimeout; return this; }

        /**
         * {@return the options}
         *
         * @throws InvalidOptionException for {@code maxSteps < 1}, a wait timeout that is not positive, a thread or resource id beyond {@link dev.baton.Ids#LIMIT}, or a blank or too long {@code startedBy}
         */
        public RunOptions build() {
            return new RunOptions(this);
        }
    }
}
