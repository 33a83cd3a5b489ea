package dev.baton.tool;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * What a running tool knows about its call, and how it suspends the run.
 *
 * <p>Given to one execution of one tool call, on the run's thread; valid only until the tool returns.
 */
public interface ToolContext {

    /**
     * {@return the agent running the tool}
     */
    String agentId();

    /**
     * {@return the run}
     */
    String runId();

    /**
     * {@return this call's id}
     */
    String toolCallId();

    /**
     * {@return the run's thread, or null}
     */
    @Nullable String threadId();

    /**
     * {@return the run's resource, or null}
     */
    @Nullable String resourceId();

    /**
     * Suspends the run until someone calls {@code agent.resumeStream(data, runId)}: return the
     * result of this method from the tool. The payload (any JSON-able value) is shown as
     * {@code suspendPayload} in the listing and the {@code tool-call-suspended} event.
     *
     * @param payload what the listing shows (copied)
     * @return the suspension to return from the tool
     */
    Suspension suspend(@Nullable Object payload);

    /**
     * The data passed to {@code resumeStream} when this call is being resumed, else {@code null}.
     *
     * @return the resume data (a copy, changing it changes nothing else), or null
     */
    @Nullable JsonNode resumeData();

    /**
     * What this call passed to {@link #suspend(Object)} when it is being resumed ({@link #isResumed()}),
     * else {@code null}: a tool that waits on something outside (a remote task, a ticket) finds again
     * what it suspended on, for example the remote task's id, without keeping state of its own.
     *
     * @return a copy of the suspension's payload while resuming, or null
     */
    default @Nullable JsonNode suspendPayload() {
        return null;
    }

    /**
     * Which start of this call this is: 1 the first time; more when the run was continued after its
     * process died (or was interrupted) while the tool ran, so an earlier attempt may have had
     * its effects. Tools with side effects use {@link #idempotencyKey()} to make a retry harmless.
     *
     * @return the attempt, from 1
     */
    default int attempt() {
        return 1;
    }

    /**
     * A key that is the same for every attempt of this call and different for every other call:
     * {@code runId + ":" + toolCallId}. Pass it to the service the tool calls (as an
     * {@code Idempotency-Key} header, a unique column, a request id) so that a call retried after a
     * crash has its effect once.
     *
     * @return the key
     */
    default String idempotencyKey() {
        return runId() + ":" + toolCallId();
    }

    /**
     * True when this execution resumes an earlier {@link #suspend(Object)}.
     *
     * @return true if {@link #resumeData()} is set
     */
    default boolean isResumed() {
        return resumeData() != null;
    }
}
