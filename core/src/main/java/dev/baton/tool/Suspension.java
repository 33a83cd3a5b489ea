package dev.baton.tool;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Returned by a tool (through {@link ToolContext#suspend(Object)}) to suspend the run for outside
 * data. Immutable and thread-safe: the payload is copied in and out.
 */
public final class Suspension {
    private final JsonNode payload;

    Suspension(JsonNode payload) {
        this.payload = java.util.Objects.requireNonNull(payload, "payload").deepCopy();
    }

    /**
     * Creates a suspension; tools use {@link ToolContext#suspend(Object)} instead.
     *
     * @param payload what the listing and the {@code tool-call-suspended} event show (copied)
     * @return the suspension
     */
    public static Suspension of(JsonNode payload) {
        return new Suspension(payload);
    }

    /** {@return what the listing shows as {@code suspendPayload}: a copy, changing it changes nothing else} */
    public JsonNode payload() {
        return payload.deepCopy();
    }
}
