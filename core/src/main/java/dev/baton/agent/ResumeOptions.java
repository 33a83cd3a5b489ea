package dev.baton.agent;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which suspended call {@code resumeStream} resumes.
 *
 * @param runId      the suspended run
 * @param toolCallId the call to resume; needed only when several calls of the run wait for data
 */
public record ResumeOptions(String runId, @Nullable String toolCallId) {
    public ResumeOptions {
        Objects.requireNonNull(runId, "runId");
    }

    public static ResumeOptions of(String runId) {
        return new ResumeOptions(runId, null);
    }

    public static ResumeOptions of(String runId, String toolCallId) {
        return new ResumeOptions(runId, toolCallId);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder of {@link ResumeOptions}. */
    public static final class Builder {
        private @Nullable String runId;
        private @Nullable String toolCallId;

        private Builder() {
        }

        public Builder runId(String runId) { this.runId = runId; return this; }
        public Builder toolCallId(@Nullable String toolCallId) { this.toolCallId = toolCallId; return this; }

        public ResumeOptions build() {
            if (runId == null) throw new dev.baton.InvalidOptionException("runId", "is required");
            return new ResumeOptions(runId, toolCallId);
        }
    }
}
