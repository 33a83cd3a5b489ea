package dev.baton.tool;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * What a tool does. Returns its result (any value Jackson can turn into JSON, or a
 * {@link JsonNode}), or {@link ToolContext#suspend(Object)} to wait for outside data.
 * An exception becomes a {@code tool-error}: the model sees its message and the run goes on.
 *
 * <p>Implementations must be thread-safe: calls of one tool may run on several threads at once (one per run).
 */
@FunctionalInterface
public interface ToolExecutor {
    /**
     * Runs the tool.
     *
     * @param input   the call's input: a copy, the tool may change it
     * @param context the call, and how to suspend
     * @return the result, or a {@link Suspension}
     * @throws Exception any failure: the model sees its message
     */
    @Nullable Object execute(JsonNode input, ToolContext context) throws Exception;
}
