package dev.baton.model;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/** One message of a conversation, as the model sees it. Stored in snapshots as JSON. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "role")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Message.User.class, name = "user"),
    @JsonSubTypes.Type(value = Message.Assistant.class, name = "assistant"),
    @JsonSubTypes.Type(value = Message.ToolResult.class, name = "tool")
})
public sealed interface Message {

    /** What the user said. */
    record User(String text) implements Message {
        public User {
            Objects.requireNonNull(text, "text");
        }
    }

    /** What the model answered in one step: text, tool calls, or both. */
    record Assistant(String text, List<ToolCall> toolCalls) implements Message {
        public Assistant {
            text = text == null ? "" : text;
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        }
    }

    /**
     * The result of one tool call, given back to the model.
     *
     * @param isError true when the tool failed, or the call was declined and {@code result} says why
     */
    record ToolResult(String toolCallId, String toolName, JsonNode result, boolean isError) implements Message {
        public ToolResult {
            Objects.requireNonNull(toolCallId, "toolCallId");
            Objects.requireNonNull(toolName, "toolName");
            Objects.requireNonNull(result, "result");
        }
    }
}
