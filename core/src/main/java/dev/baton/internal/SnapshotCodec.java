package dev.baton.internal;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.baton.SnapshotFormatException;
import dev.baton.store.RunSnapshot;

/** Turns {@link RunState} into the snapshot payload and back, checking the format version. Not API. */
public final class SnapshotCodec {

    /**
     * The payload format this Baton writes. Version 2 records each call's progress (EXECUTING,
     * attempts, resume data, the subagent run it drives) so that a run can be continued from any
     * point, and stores messages in {@link MessageCodec}'s form. The snapshot format has its own
     * number, apart from Baton's version; 2 is the first format any release (0.1.0) writes.
     */
    public static final int FORMAT_VERSION = 2;
    /** The oldest payload format this Baton reads (format 1 was never released). */
    public static final int OLDEST_READABLE_VERSION = 2;

    /** The mapper for payloads and tool values. */
    public static final ObjectMapper JSON = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.PUBLIC_ONLY)
            .registerModule(MessageCodec.module());

    private SnapshotCodec() {
    }

    /**
     * What one write stores for {@code state}: the payload, the listing summary, and the run's
     * deadline (the soonest {@code expiresAt} of its waiting calls, or {@code escalatesAt} of one
     * that has yet to escalate: what {@code listDue} finds for the expiry sweep).
     */
    public record Encoded(String payload, String summary, java.time.@org.jspecify.annotations.Nullable Instant expiresAt) {
    }

    public static Encoded encodeAll(RunState state) {
        java.time.Instant deadline = null;
        for (CallState c : state.calls) {
            if (c.waiting() && c.expiresAt != null && (deadline == null || c.expiresAt.isBefore(deadline))) deadline = c.expiresAt;
            // a call's escalation is due on the same index: the sweep that expires runs escalates them
            if (c.waiting() && c.escalatesAt != null && (deadline == null || c.escalatesAt.isBefore(deadline))) deadline = c.escalatesAt;
        }
        return new Encoded(encode(state), RunSummary.of(state).encode(), deadline);
    }

    public static String encode(RunState state) {
        try {
            return JSON.writeValueAsString(state);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise run " + state.runId + ": " + e.getMessage(), e);
        }
    }

    /** Reads the payload of {@code snapshot}, or throws {@link SnapshotFormatException} naming the run. */
    public static RunState decode(RunSnapshot snapshot) {
        String runId = snapshot.runId();
        JsonNode tree;
        try {
            tree = JSON.readTree(snapshot.payload());
        } catch (JsonProcessingException e) {
            throw new SnapshotFormatException(runId, "the payload is not valid JSON (" + e.getOriginalMessage() + ")", e);
        }
        if (tree == null || !tree.isObject()) {
            throw new SnapshotFormatException(runId, "the payload is not a JSON object", null);
        }
        JsonNode version = tree.get("formatVersion");
        if (version == null || !version.canConvertToInt()) {
            throw new SnapshotFormatException(runId, "the payload has no formatVersion", null);
        }
        if (version.asInt() < OLDEST_READABLE_VERSION || version.asInt() > FORMAT_VERSION) {
            throw new SnapshotFormatException(runId, "it was written in snapshot format version " + version.asInt()
                    + ", and this Baton reads versions " + OLDEST_READABLE_VERSION + " to " + FORMAT_VERSION
                    + "; resume it with a Baton that knows that version", null);
        }
        RunState state;
        try {
            state = JSON.treeToValue(tree, RunState.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new SnapshotFormatException(runId, "the payload does not describe a run (" + e.getMessage() + ")", e);
        }
        if (!runId.equals(state.runId) || !snapshot.agentId().equals(state.agentId) || state.messages == null
                || state.calls == null) {
            throw new SnapshotFormatException(runId, "the payload's runId, agentId, messages or calls are missing or do not match the stored row", null);
        }
        for (CallState c : state.calls) {
            if (c == null || c.toolCallId == null || c.toolName == null || c.status == null) {
                throw new SnapshotFormatException(runId, "a tool call in the payload is incomplete", null);
            }
        }
        state.formatVersion = FORMAT_VERSION;   // written back in the current format
        return state;
    }
}
