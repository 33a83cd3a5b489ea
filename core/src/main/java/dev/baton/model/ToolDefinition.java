package dev.baton.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * What the model is told about a tool: its name, what it does, and its input's JSON schema.
 * Immutable and thread-safe: the schema is copied in and out.
 *
 * @param name        the tool's name
 * @param description what it does, for the model
 * @param inputSchema its input's JSON schema
 */
public record ToolDefinition(String name, String description, JsonNode inputSchema) {
    /**
     * Checks the parts and keeps a private copy of the schema.
     *
     * @param name the tool's name
     * @param description what it does, for the model
     * @param inputSchema its input's JSON schema
     */
    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        inputSchema = Objects.requireNonNull(inputSchema, "inputSchema").deepCopy();
    }

    /** {@return the input's JSON schema: a copy, changing it changes nothing else} */
    @Override
    public JsonNode inputSchema() {
        return inputSchema.deepCopy();
    }
}
