package dev.baton.notify;

import dev.baton.agent.NotificationEvent;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One notification that a run waits: what a {@link NotificationChannel} delivers.
 *
 * <p>{@link #id()} is stable: the same in every attempt, from every instance, so a receiver drops
 * duplicates by it (delivery is at least once). A new wait of the same run (it suspended again) has
 * a new id. Immutable and thread-safe.
 *
 * @param id           the stable id, for dedupe: {@code <runId>/<suspendedAt ms>-<version>/<event>}
 * @param event        why: the run suspended, was interrupted, or its wait is about to expire
 * @param agentId      the agent of the run
 * @param runId        the run
 * @param threadId     the run's thread, or null
 * @param resourceId   the run's resource (typically a user), or null
 * @param suspendedAt  when the wait began
 * @param expiresAt    when the wait expires, or null
 * @param interruption why an interrupted run stopped, or null
 * @param waitingCalls the calls that wait for a person, in the run's order (empty for an interrupted run)
 * @param link         the run in the inbox (the notifier's {@code inboxUrl} with {@code agent} and
 *                     {@code run} in the query), or null if no inbox URL is configured
 * @param attempt      which delivery attempt this is, from 1
 * @param occurredAt   when the event occurred (not when it is delivered): the wait's start, or when the
 *                     expiry notice fell due; the webhook payload's top-level {@code timestamp}
 */
public record Notification(String id, NotificationEvent event, String agentId, String runId, @Nullable String threadId,
                           @Nullable String resourceId, Instant suspendedAt, @Nullable Instant expiresAt,
                           @Nullable String interruption, List<WaitingCall> waitingCalls, @Nullable URI link, int attempt,
                           Instant occurredAt) {

    /**
     * Checks and copies the fields.
     *
     * @param id           the stable id
     * @param event        why
     * @param agentId      the agent
     * @param runId        the run
     * @param threadId     the thread, or null
     * @param resourceId   the resource, or null
     * @param suspendedAt  when the wait began
     * @param expiresAt    when it expires, or null
     * @param interruption why it stopped, or null
     * @param waitingCalls the waiting calls
     * @param link         the run in the inbox, or null
     * @param attempt      the attempt, from 1
     * @param occurredAt   when the event occurred
     * @throws IllegalArgumentException if {@code attempt} is below 1 or an id is empty
     */
    public Notification {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(occurredAt, "occurredAt");
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(suspendedAt, "suspendedAt");
        waitingCalls = List.copyOf(waitingCalls);
        if (id.isEmpty() || agentId.isEmpty() || runId.isEmpty()) throw new IllegalArgumentException("id, agentId and runId must not be empty");
        if (attempt < 1) throw new IllegalArgumentException("attempt must be >= 1, was " + attempt);
    }

    /**
     * A notification of an event that occurred when the wait began ({@code occurredAt} is {@code suspendedAt}).
     *
     * @param id           the stable id
     * @param event        why
     * @param agentId      the agent
     * @param runId        the run
     * @param threadId     the thread, or null
     * @param resourceId   the resource, or null
     * @param suspendedAt  when the wait began, and the event occurred
     * @param expiresAt    when it expires, or null
     * @param interruption why it stopped, or null
     * @param waitingCalls the waiting calls
     * @param link         the run in the inbox, or null
     * @param attempt      the attempt, from 1
     * @throws IllegalArgumentException if {@code attempt} is below 1 or an id is empty
     */
    public Notification(String id, NotificationEvent event, String agentId, String runId, @Nullable String threadId,
                        @Nullable String resourceId, Instant suspendedAt, @Nullable Instant expiresAt,
                        @Nullable String interruption, List<WaitingCall> waitingCalls, @Nullable URI link, int attempt) {
        this(id, event, agentId, runId, threadId, resourceId, suspendedAt, expiresAt, interruption, waitingCalls, link, attempt,
                suspendedAt);
    }

    /**
     * A call of the run that waits for a person.
     *
     * @param toolCallId       the call's id (what approve / decline / resume name)
     * @param toolName         the tool
     * @param requiresApproval true if it waits for an approval, false if it waits for data
     * @param expiresAt        the call's own deadline, or null
     */
    public record WaitingCall(String toolCallId, String toolName, boolean requiresApproval, @Nullable Instant expiresAt) {
        /**
         * Checks the fields.
         *
         * @param toolCallId       the call's id
         * @param toolName         the tool
         * @param requiresApproval true for an approval
         * @param expiresAt        the deadline, or null
         */
        public WaitingCall {
            Objects.requireNonNull(toolCallId, "toolCallId");
            Objects.requireNonNull(toolName, "toolName");
        }
    }

    /** {@return a one-line text for people: "Run 7f3a… of concierge waits for an approval: refund (bob)"} */
    public String text() {
        StringBuilder s = new StringBuilder();
        s.append("Run ").append(runId).append(" of ").append(agentId);
        switch (event) {
            case SUSPENDED -> s.append(waitingCalls.stream().anyMatch(WaitingCall::requiresApproval)
                    ? " waits for an approval" : " waits for data");
            case INTERRUPTED -> s.append(" was interrupted and waits to be continued");
            case EXPIRING -> s.append(" still waits and expires at ").append(expiresAt);
        }
        if (!waitingCalls.isEmpty()) {
            s.append(": ");
            s.append(String.join(", ", waitingCalls.stream().map(WaitingCall::toolName).toList()));
        }
        if (resourceId != null) s.append(" (").append(resourceId).append(')');
        return s.toString();
    }
}
