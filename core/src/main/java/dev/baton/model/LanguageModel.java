package dev.baton.model;

import java.util.stream.Stream;

/**
 * The pluggable model: messages and tool definitions in; text and tool calls out, streamed.
 *
 * <p>An adapter for a real provider turns the provider's streaming response into a lazy
 * {@link Stream} of {@link ModelChunk}s: text deltas as they arrive, then the tool calls the
 * model asked for. The run loop pulls the stream one chunk at a time and closes it.
 * Core ships {@link DeterministicModel} for tests and examples; it needs no network.
 *
 * <pre>{@code
 * LanguageModel echo = request -> Stream.of(new ModelChunk.TextDelta("hello"));
 * }</pre>
 */
@FunctionalInterface
public interface LanguageModel {

    /**
     * Answers one step of a run. May throw: a failing model call ends the run with an
     * {@code error} event.
     */
    Stream<ModelChunk> stream(ModelRequest request);
}
