package dev.baton.notify;

import dev.baton.agent.NotificationEvent;
import java.time.Instant;
import java.util.Objects;

/**
 * A notification the {@link Notifier} gave up: a channel refused it for good (a 4xx), or it still
 * failed after the notifier's {@code maxAttempts}. The run itself keeps it too, as long as it waits:
 * its {@code notifyState} says {@code "dead":true} with the last error (read it with the store's
 * {@code find}); nothing delivers it again unless the run starts a new wait.
 *
 * @param id       the notification's stable id
 * @param agentId  the agent
 * @param runId    the run
 * @param event    what it announced
 * @param attempts how many attempts were made
 * @param error    the last attempt's failures, per channel, with the start of the receiver's answer
 *                 ({@code "webhook: HTTP 404"}, {@code "slack: HTTP 400: invalid_blocks"})
 * @param at       when it was given up (the agent's clock)
 */
public record DeadLetter(String id, String agentId, String runId, NotificationEvent event, int attempts, String error, Instant at) {
    /**
     * Checks the fields.
     *
     * @param id       the id
     * @param agentId  the agent
     * @param runId    the run
     * @param event    the event
     * @param attempts the attempts
     * @param error    the failures
     * @param at       when
     */
    public DeadLetter {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(at, "at");
    }
}
