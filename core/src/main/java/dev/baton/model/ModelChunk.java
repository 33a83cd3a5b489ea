package dev.baton.model;

import java.util.Objects;

/** One piece of a model's streamed answer. */
public sealed interface ModelChunk {

    /** Some text of the answer. */
    record TextDelta(String text) implements ModelChunk {
        public TextDelta {
            Objects.requireNonNull(text, "text");
        }
    }

    /** The model asks for a tool to be called. */
    record ToolCallRequest(ToolCall call) implements ModelChunk {
        public ToolCallRequest {
            Objects.requireNonNull(call, "call");
        }
    }
}
