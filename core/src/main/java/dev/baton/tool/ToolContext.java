package dev.baton.tool;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/** What a running tool knows about its call, and how it suspends the run. */
public interface ToolContext {

    String agentId();

    String runId();

    String toolCallId();

    @Nullable String threadId();

    @Nullable String resourceId();

    /**
     * Suspends the run until someone calls {@code agent.resumeStream(data, runId)}: return the
     * result of this method from the tool. The payload (any JSON-able value) is shown as
     * {@code suspendPayload} in the listing and the {@code tool-call-suspended} event.
     */
    Suspension suspend(@Nullable Object payload);

    /** The data passed to {@code resumeStream} when this call is being resumed, else {@code null}. */
    @Nullable JsonNode resumeData();

    /** True when this execution resumes an earlier {@link #suspend(Object)}. */
    default boolean isResumed() {
        return resumeData() != null;
    }
}
