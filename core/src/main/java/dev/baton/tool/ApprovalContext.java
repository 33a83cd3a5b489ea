package dev.baton.tool;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The run a tool call belongs to, as an {@link ApprovalPolicy} sees it when core decides whether
 * the call waits for a person's approval.
 *
 * <p>Immutable and thread-safe (it holds only strings). The constructor is for core and tests;
 * this record may gain components in later releases.
 *
 * @param agentId    the agent whose run proposed the call
 * @param runId      the run
 * @param toolCallId the call, as the model named it
 * @param toolName   the tool the model called
 * @param threadId   the run's thread, or null
 * @param resourceId the run's resource (typically the user), or null
 */
public record ApprovalContext(String agentId, String runId, String toolCallId, String toolName,
                              @Nullable String threadId, @Nullable String resourceId) {

    /**
     * Checks that the ids core always knows are there.
     *
     * @param agentId    the agent whose run proposed the call
     * @param runId      the run
     * @param toolCallId the call, as the model named it
     * @param toolName   the tool the model called
     * @param threadId   the run's thread, or null
     * @param resourceId the run's resource (typically the user), or null
     */
    public ApprovalContext {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(toolName, "toolName");
    }
}
