package dev.baton.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/** What the model is told about a tool: its name, what it does, and its input's JSON schema. */
public record ToolDefinition(String name, String description, JsonNode inputSchema) {
    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(inputSchema, "inputSchema");
    }
}
