package dev.baton.agent;

import dev.baton.InvalidOptionException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which suspended call {@code resumeStream} resumes: the run, and the call when several calls of
 * the run wait for data.
 *
 * <pre>{@code
 * agent.resumeStream(Map.of("name", "San Francisco"), ResumeOptions.of(runId, toolCallId));
 * }</pre>
 * Immutable and thread-safe. A class with a builder, so later releases can add options.
 */
public final class ResumeOptions {
    private final String runId;
    private final @Nullable String toolCallId;

    private ResumeOptions(Builder b) {
        this.runId = dev.baton.Ids.require("runId", b.runId);
        this.toolCallId = dev.baton.Ids.optional("toolCallId", b.toolCallId);
    }

    /**
     * The run's one call that waits for data.
     *
     * @param runId the suspended run
     * @return the options
     */
    public static ResumeOptions of(String runId) {
        return builder().runId(runId).build();
    }

    /**
     * One call of the run.
     *
     * @param runId      the suspended run
     * @param toolCallId the call to resume
     * @return the options
     */
    public static ResumeOptions of(String runId, String toolCallId) {
        return builder().runId(runId).toolCallId(toolCallId).build();
    }

    /** {@return an empty builder; {@code runId} is required} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding these options} */
    public Builder toBuilder() {
        return new Builder().runId(runId).toolCallId(toolCallId);
    }

    /** {@return the suspended run} */
    public String runId() { return runId; }

    /** {@return the call to resume, or null: the run's one call that waits for data} */
    public @Nullable String toolCallId() { return toolCallId; }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResumeOptions x && runId.equals(x.runId) && Objects.equals(toolCallId, x.toolCallId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(runId, toolCallId);
    }

    @Override
    public String toString() {
        return "ResumeOptions[runId=" + runId + ", toolCallId=" + toolCallId + "]";
    }

    /** Builder of {@link ResumeOptions}. Not thread-safe. */
    public static final class Builder {
        private @Nullable String runId;
        private @Nullable String toolCallId;

        private Builder() {
        }

        /**
         * @param runId the suspended run (required)
         * @return this builder
         */
        public Builder runId(String runId) { this.runId = runId; return this; }

        /**
         * @param toolCallId the call to resume, or null
         * @return this builder
         */
        public Builder toolCallId(@Nullable String toolCallId) { this.toolCallId = toolCallId; return this; }

        /**
         * {@return the options}
         *
         * @throws InvalidOptionException if {@code runId} is missing
         */
        public ResumeOptions build() {
            return new ResumeOptions(this);
        }
    }
}
