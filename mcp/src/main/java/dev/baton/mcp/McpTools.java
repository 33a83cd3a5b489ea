package dev.baton.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.mcp.McpToolCallException.Kind;
import dev.baton.tool.Tool;
import dev.baton.tool.ToolBuilder;
import dev.baton.tool.ToolContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Turns the tools of one MCP server into Baton tools: names, descriptions, schemas, approval, calls. */
final class McpTools {
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() { };

    private McpTools() {
    }

    /** The Baton tools of the server behind {@code connection} (listing its tools if needed). */
    static List<Tool> of(McpConnection connection, ObjectMapper json) throws InterruptedException {
        McpServerConfig config = connection.config();
        List<McpSchema.Tool> listed = connection.tools();
        Set<String> offered = new LinkedHashSet<>();
        for (McpSchema.Tool t : listed) offered.add(t.name());
        for (String named : config.namedTools()) {
            if (!offered.contains(named)) {
                throw new McpException(config.name(), "approval(\"" + named + "\", ...) names no tool of the MCP server '"
                        + config.name() + "', which offers " + offered + ". Correct the name (the server's name of the tool, "
                        + "without the prefix), or remove the rule.");
            }
        }
        List<Tool> tools = new ArrayList<>();
        for (McpSchema.Tool t : listed) {
            if (config.includes(t.name())) tools.add(tool(connection, t, json));
        }
        return tools;
    }

    /** The server's annotations of {@code tool}, as hints. */
    static McpToolHints hints(McpSchema.Tool tool) {
        McpSchema.ToolAnnotations a = tool.annotations();
        if (a == null) return tool.title() == null ? McpToolHints.NONE : new McpToolHints(tool.title(), null, null, null, null);
        return new McpToolHints(a.title() != null ? a.title() : tool.title(), a.readOnlyHint(), a.destructiveHint(),
                a.idempotentHint(), a.openWorldHint());
    }

    private static Tool tool(McpConnection connection, McpSchema.Tool mcp, ObjectMapper json) {
        McpServerConfig config = connection.config();
        String server = config.name();
        String mcpName = mcp.name();
        String name = config.toolPrefix() + mcpName;
        ToolBuilder builder;
        try {
            builder = Tool.builder(name);
        } catch (IllegalArgumentException e) {
            throw new McpException(server, "The MCP server '" + server + "' offers a tool '" + mcpName + "', and '" + name
                    + "' is not a valid Baton tool name (letters, digits, '_', '.', '-'; 1-128). Leave the tool out with "
                    + "toolFilter(...), or choose a shorter toolPrefix.", e);
        }
        JsonNode schema = mcp.inputSchema() == null ? json.createObjectNode().put("type", "object") : json.valueToTree(mcp.inputSchema());
        McpToolHints listedHints = hints(mcp);
        McpApprovalPolicy policy = config.approvalFor(mcpName);
        return builder
                .description(description(mcp))
                .inputSchema(schema)
                .requireApproval((input, run) -> policy.requiresApproval(
                        new McpToolCall(server, mcpName, name, input, connection.hints(mcpName, listedHints), run)))
                .execute((input, ctx) -> call(connection, mcpName, name, input, ctx, json))
                .build();
    }

    private static String description(McpSchema.Tool mcp) {
        if (mcp.description() != null && !mcp.description().isBlank()) return mcp.description();
        McpToolHints hints = hints(mcp);
        return hints.title() == null ? "" : hints.title();
    }

    private static Object call(McpConnection connection, String mcpName, String name, JsonNode input, ToolContext ctx,
                               ObjectMapper json) throws InterruptedException {
        String server = connection.config().name();
        if (!input.isObject()) {
            throw new IllegalArgumentException("The arguments of " + name + " must be a JSON object, got " + input.getNodeType());
        }
        Map<String, Object> arguments = json.convertValue(input, MAP);
        Map<String, Object> meta = Map.of(
                McpCallMeta.IDEMPOTENCY_KEY, ctx.idempotencyKey(),
                McpCallMeta.ATTEMPT, ctx.attempt(),
                McpCallMeta.RUN_ID, ctx.runId(),
                McpCallMeta.TOOL_CALL_ID, ctx.toolCallId());
        McpSchema.CallToolResult result;
        try {
            result = connection.call(mcpName, arguments, meta);
        } catch (McpFailure f) {
            throw new McpToolCallException(server, name, mcpName, f.kind(), f.errorCode(), message(server, mcpName, f), f);
        }
        if (Boolean.TRUE.equals(result.isError())) {
            throw new McpToolCallException(server, name, mcpName, Kind.TOOL_ERROR, null, McpResults.errorMessage(result, json), null);
        }
        return McpResults.toResult(result, json);
    }

    /** What the model is told when a call failed other than by the tool's own error. */
    private static String message(String server, String mcpName, McpFailure f) {
        return switch (f.kind()) {
            case PROTOCOL_ERROR -> "The MCP server '" + server + "' refused the call of " + mcpName + ": " + f.getMessage();
            case UNREACHABLE -> "The MCP server '" + server + "' could not be reached, so " + mcpName + " was not called: " + f.getMessage();
            case TIMEOUT -> "The MCP server '" + server + "' gave " + mcpName + " no answer in time (" + f.getMessage()
                    + "); the call may still take effect.";
            default -> "The connection to the MCP server '" + server + "' ended during the call of " + mcpName + " ("
                    + f.getMessage() + "); the call may or may not have taken effect.";
        };
    }
}
