package dev.baton.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Objects;

/**
 * A tool call the model asked for.
 *
 * @param toolCallId unique within the run
 * @param toolName   the tool's name
 * @param args       the input, a JSON object
 */
public record ToolCall(String toolCallId, String toolName, JsonNode args) {
    public ToolCall {
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(toolName, "toolName");
        args = args == null ? JsonNodeFactory.instance.objectNode() : args;
    }
}
