package dev.baton.model;

import java.util.Objects;

/**
 * One piece of a model's streamed answer.
 *
 * <p>Growth: later minor releases may add record types to this sealed interface (for example
 * reasoning text or usage). Code that tells chunks apart must handle an unknown kind: on Java 21+
 * a pattern {@code switch} needs a {@code default} branch, on Java 17 an {@code instanceof} chain
 * ends in an {@code else} that ignores it:
 * <pre>{@code
 * if (chunk instanceof ModelChunk.TextDelta d) out.append(d.text());
 * else if (chunk instanceof ModelChunk.ToolCallRequest r) calls.add(r.call());
 * else { }   // a kind of chunk added later
 *
 * // Java 21+:
 * switch (chunk) {
 *     case ModelChunk.TextDelta d -> out.append(d.text());
 *     case ModelChunk.ToolCallRequest r -> calls.add(r.call());
 *     default -> { }   // a kind of chunk added later
 * }
 * }</pre>
 * Core ignores a kind of chunk it does not know. Implementations are immutable records.
 */
public sealed interface ModelChunk {

    /**
     * Some text of the answer.
     *
     * @param text the text, not null
     */
    record TextDelta(String text) implements ModelChunk {
        /**
         * Checks the text is present.
         *
         * @param text the text, not null
         */
        public TextDelta {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * The model asks for a tool to be called.
     *
     * @param call the call
     */
    record ToolCallRequest(ToolCall call) implements ModelChunk {
        /**
         * Checks the call is present.
         *
         * @param call the call
         */
        public ToolCallRequest {
            Objects.requireNonNull(call, "call");
        }
    }
}
