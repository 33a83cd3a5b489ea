package dev.baton.model.springai;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * A Baton tool as Spring AI describes it to the model: its name, description and JSON schema, and
 * nothing to run. Baton runs its tools itself, after its approvals; Spring AI's own tool
 * execution is switched off ({@link SpringAiLine}), so {@link #call} is never reached; if it
 * were, it refuses rather than pretend.
 */
record DescribedTool(String name, String description, String inputSchema) implements ToolCallback, ToolDefinition {

    @Override
    public ToolDefinition getToolDefinition() {
        return this;
    }

    @Override
    public String call(String toolInput) {
        throw new IllegalStateException("Tool '" + name + "' is run by Baton after its approvals, not by Spring AI:"
                + " Spring AI's own tool execution must stay off (SpringAiModel does that)");
    }
}
