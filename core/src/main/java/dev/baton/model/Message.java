package dev.baton.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * One message of a conversation, as the model sees it: the user's, the model's (assistant), or a
 * tool's result.
 *
 * <p>Stored form: snapshots and thread memory store messages through core's own codec, with field
 * names of their own; the names of these records and their components are not a stored format, so
 * renaming one never changes stored data. Closed: the three records are every kind of message.
 * Immutable and thread-safe (JSON values are copied in and out).
 */
public sealed interface Message {

    /** {@return who speaks} */
    Role role();

    /**
     * What the user said.
     *
     * @param text the user's text
     */
    record User(String text) implements Message {
        /**
         * Checks the text is present.
         *
         * @param text the user's text
         */
        public User {
            Objects.requireNonNull(text, "text");
        }

        /** {@return {@link Role#USER}} */
        @Override
        public Role role() {
            return Role.USER;
        }
    }

    /**
     * What the model answered in one step: text, tool calls, or both.
     *
     * @param text      the answer's text, empty if none
     * @param toolCalls the tool calls the model asked for, in order; empty if none
     */
    record Assistant(String text, List<ToolCall> toolCalls) implements Message {
        /**
         * Null text becomes empty, null calls an empty list; the list is copied.
         *
         * @param text the answer's text, empty if none
         * @param toolCalls the tool calls the model asked for, in order; empty if none
         */
        public Assistant {
            text = text == null ? "" : text;
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        }

        /** {@return {@link Role#ASSISTANT}} */
        @Override
        public Role role() {
            return Role.ASSISTANT;
        }
    }

    /**
     * The result of one tool call, given back to the model.
     *
     * @param toolCallId the call it answers
     * @param toolName   the tool
     * @param result     what the tool returned (or the error or decline text)
     * @param isError    true when the tool failed, or the call was declined and {@code result} says why
     */
    record ToolResult(String toolCallId, String toolName, JsonNode result, boolean isError) implements Message {
        /**
         * Checks the parts and keeps a private copy of {@code result}.
         *
         * @param toolCallId the call it answers
         * @param toolName the tool
         * @param result what the tool returned (or the error or decline text)
         * @param isError true when the tool failed, or the call was declined and {@code result} says why
         */
        public ToolResult {
            Objects.requireNonNull(toolCallId, "toolCallId");
            Objects.requireNonNull(toolName, "toolName");
            result = Objects.requireNonNull(result, "result").deepCopy();
        }

        /** {@return what the tool returned: a copy, changing it changes nothing else} */
        @Override
        public JsonNode result() {
            return result.deepCopy();
        }

        /** {@return {@link Role#TOOL}} */
        @Override
        public Role role() {
            return Role.TOOL;
        }
    }
}
