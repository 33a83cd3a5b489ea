package dev.baton.tool;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * What a tool does. Returns its result (any value Jackson can turn into JSON, or a
 * {@link JsonNode}), or {@link ToolContext#suspend(Object)} to wait for outside data.
 * An exception becomes a {@code tool-error}: the model sees its message and the run goes on.
 */
@FunctionalInterface
public interface ToolExecutor {
    @Nullable Object execute(JsonNode input, ToolContext context) throws Exception;
}
