package dev.baton.agent;

import org.jspecify.annotations.Nullable;

/**
 * Options of a new run.
 *
 * @param threadId   the conversation thread, stored with the run and usable as a filter
 * @param resourceId the resource (typically the user), stored with the run and usable as a filter
 * @param maxSteps    the most model calls the run may make; null: the agent's default ({@code Agent.Builder.maxSteps}, 10 unless set)
 * @param waitTimeout how long any call of this run may wait for a decision or data before the wait expires;
 *                    null: the tool's, else the agent's (see {@link ExpiryPolicy})
 */
public record RunOptions(@Nullable String threadId, @Nullable String resourceId, @Nullable Integer maxSteps,
                         java.time.@Nullable Duration waitTimeout) {

    /** No thread, no resource, the agent's step limit and wait timeout. */
    public static final RunOptions DEFAULT = new RunOptions(null, null, null, null);

    public RunOptions {
        if (maxSteps != null && maxSteps < 1) {
            throw new dev.baton.InvalidOptionException("maxSteps", "must be positive, was " + maxSteps);
        }
        if (waitTimeout != null && (waitTimeout.isNegative() || waitTimeout.isZero())) {
            throw new dev.baton.InvalidOptionException("waitTimeout", "must be positive, was " + waitTimeout);
        }
    }

    /** Options without a wait timeout of their own. */
    public RunOptions(@Nullable String threadId, @Nullable String resourceId, @Nullable Integer maxSteps) {
        this(threadId, resourceId, maxSteps, null);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder of {@link RunOptions}. */
    public static final class Builder {
        private @Nullable String threadId;
        private @Nullable String resourceId;
        private @Nullable Integer maxSteps;
        private java.time.@Nullable Duration waitTimeout;

        private Builder() {
        }

        public Builder threadId(@Nullable String threadId) { this.threadId = threadId; return this; }
        public Builder resourceId(@Nullable String resourceId) { this.resourceId = resourceId; return this; }
        /** The most model calls this run may make; overrides the agent's default, whatever that is. */
        public Builder maxSteps(int maxSteps) { this.maxSteps = maxSteps; return this; }
        /** How long any call of this run may wait for a decision or data; overrides the tool's and the agent's. */
        public Builder waitTimeout(java.time.Duration waitTimeout) { this.waitTimeout = waitTimeout; return this; }

        public RunOptions build() {
            return new RunOptions(threadId, resourceId, maxSteps, waitTimeout);
        }
    }
}
