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
 *
 * <p>Implementations must be thread-safe: one model serves every run of an agent at once, each {@code stream} call made on the thread of the run it answers.
 */
@FunctionalInterface
public interface LanguageModel {

    /**
     * Answers one step of a run. May throw: a failing model call ends the run with an
     * {@code error} event.
     *
     * @param request the instructions, the conversation and the tools
     * @return the answer as a lazy stream of chunks; the run loop closes it
     */
    Stream<ModelChunk> stream(ModelRequest request);
}
