package dev.baton.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Objects;

/**
 * A tool call the model asked for. Immutable and thread-safe: the arguments are copied in and out.
 *
 * @param toolCallId unique within the run
 * @param toolName   the tool's name
 * @param args       the input, a JSON object (null becomes {@code {}})
 */
public record ToolCall(String toolCallId, String toolName, JsonNode args) {
    /**
     * Checks the ids and keeps a private copy of {@code args}.
     *
     * @param toolCallId unique within the run
     * @param toolName the tool's name
     * @param args the input, a JSON object (null becomes {@code {}})
     */
    public ToolCall {
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(toolName, "toolName");
        args = args == null ? JsonNodeFactory.instance.objectNode() : args.deepCopy();
    }

    /** {@return the input: a copy, changing it changes nothing else} */
    @Override
    public JsonNode args() {
        return args.deepCopy();
    }
}
