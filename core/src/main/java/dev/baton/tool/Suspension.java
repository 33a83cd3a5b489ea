package dev.baton.tool;

import com.fasterxml.jackson.databind.JsonNode;

/** Returned by a tool (through {@link ToolContext#suspend(Object)}) to suspend the run for outside data. */
public final class Suspension {
    private final JsonNode payload;

    Suspension(JsonNode payload) {
        this.payload = payload;
    }

    /** Creates a suspension; tools use {@link ToolContext#suspend(Object)} instead. */
    public static Suspension of(JsonNode payload) {
        return new Suspension(payload);
    }

    public JsonNode payload() {
        return payload;
    }
}
