package dev.baton.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.SnapshotFormatException;
import dev.baton.internal.SnapshotCodec;
import dev.baton.store.RunSnapshot;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The state of a run's due notification, kept as text in {@link RunSnapshot#notifyState()}: which
 * event it announces, how many delivery attempts were made, the last error, and whether delivery
 * was given up (dead letter). Core writes {@link #of} with the wait; a notifier writes the rest
 * through {@link dev.baton.store.SnapshotStore#updateNotification}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param event     what the notification announces
 * @param attempts  delivery attempts claimed so far, at least 0
 * @param lastError why the last attempt failed, or null
 * @param dead      true once delivery was given up
 */
public record NotificationState(NotificationEvent event, int attempts, @Nullable String lastError, boolean dead) {

    /**
     * Creates the record.
     *
     * @param event     what the notification announces
     * @param attempts  delivery attempts claimed so far, at least 0
     * @param lastError why the last attempt failed, or null
     * @param dead      true once delivery was given up
     */
    public NotificationState {
        Objects.requireNonNull(event, "event");
        if (attempts < 0) throw new IllegalArgumentException("attempts must be >= 0, was " + attempts);
    }

    /**
     * A new notification of {@code event}, not yet attempted.
     *
     * @param event the event
     * @return the state
     */
    public static NotificationState of(NotificationEvent event) {
        return new NotificationState(event, 0, null, false);
    }

    /**
     * This state after one more claimed attempt.
     *
     * @return the state, attempts plus one
     */
    public NotificationState attempted() {
        return new NotificationState(event, attempts + 1, lastError, dead);
    }

    /**
     * This state with the last attempt's failure recorded.
     *
     * @param error why it failed
     * @return the state
     */
    public NotificationState failed(String error) {
        return new NotificationState(event, attempts, error, dead);
    }

    /**
     * This state given up (the dead letter), with the last failure.
     *
     * @param error why the last attempt failed
     * @return the state
     */
    public NotificationState givenUp(String error) {
        return new NotificationState(event, attempts, error, true);
    }

    /**
     * The notification's stable id, the same in every attempt and from every instance, so that a
     * receiver can drop duplicates: {@code <runId>/<suspendedAt epoch ms>-<version>/<event>}. It holds
     * no {@code .} (run ids are UUIDs core makes), as Standard Webhooks asks of a message id, since the
     * signed content is {@code id.timestamp.body}. A notifier's updates do not change the run's
     * version; any write of core (a new wait) does.
     *
     * @param run the stored run this state belongs to
     * @return the id
     */
    public String id(RunSnapshot run) {
        return run.runId() + "/" + run.suspendedAt().toEpochMilli() + "-" + run.version() + "/" + event.name().toLowerCase(Locale.ROOT);
    }

    /** {@return this state as the text stored in {@link RunSnapshot#notifyState()}: a JSON object} */
    public String encode() {
        ObjectNode o = SnapshotCodec.JSON.createObjectNode();
        o.put("event", event.name());
        o.put("attempts", attempts);
        if (lastError != null) o.put("lastError", lastError);
        if (dead) o.put("dead", true);
        return o.toString();
    }

    /**
     * Reads the notification state of {@code run}.
     *
     * @param run the stored run
     * @return the state, or null if the run has none
     * @throws SnapshotFormatException naming the run if the text is not a notification state
     */
    public static @Nullable NotificationState of(RunSnapshot run) {
        String text = run.notifyState();
        if (text == null) return null;
        try {
            JsonNode n = SnapshotCodec.JSON.readTree(text);
            NotificationEvent event = NotificationEvent.valueOf(n.path("event").asText());
            JsonNode error = n.get("lastError");
            return new NotificationState(event, n.path("attempts").asInt(0), error == null || error.isNull() ? null : error.asText(),
                    n.path("dead").asBoolean(false));
        } catch (JsonProcessingException | IllegalArgumentException | NullPointerException e) {
            throw new SnapshotFormatException(run.runId(), "its notifyState is not a notification state (" + e.getMessage() + ")", e);
        }
    }
}
