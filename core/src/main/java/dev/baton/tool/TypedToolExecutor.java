package dev.baton.tool;

import org.jspecify.annotations.Nullable;

/**
 * What a tool with a typed input does: {@link ToolExecutor}, but it receives the call's arguments
 * already checked against the input's schema and parsed into {@code T}.
 *
 * <pre>{@code
 * record Flight(String to, int passengers) { }
 *
 * Tool bookFlight = Tool.builder("bookFlight")
 *     .input(Flight.class)
 *     .execute((Flight in, ToolContext ctx) -> Map.of("booked", in.to()))
 *     .build();
 * }</pre>
 *
 * <p>Implementations must be thread-safe: calls of one tool may run on several threads at once (one per run).
 *
 * @param <T> the input type, a record or a class Jackson can bind
 */
@FunctionalInterface
public interface TypedToolExecutor<T> {

    /**
     * Runs the tool. Returns its result (any value Jackson can turn into JSON), or
     * {@link ToolContext#suspend(Object)} to wait for outside data. An exception becomes a
     * {@code tool-error}: the model sees its message and the run goes on.
     *
     * @param input   the checked and parsed input
     * @param context the call, and how to suspend
     * @return the result, or a {@link Suspension}
     * @throws Exception any failure: the model sees its message
     */
    @Nullable Object execute(T input, ToolContext context) throws Exception;
}
