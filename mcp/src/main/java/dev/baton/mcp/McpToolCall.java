package dev.baton.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.tool.ApprovalContext;
import java.util.Objects;

/**
 * A call of an MCP tool that the model proposed, as an {@link McpApprovalPolicy} sees it.
 *
 * <p>The constructor is for this module and tests; this record may gain components later.
 * Immutable and thread-safe: the arguments are copied in and every {@link #arguments()} call
 * returns a fresh copy, so a policy that changes them changes nothing the run stores or the tool
 * receives.
 *
 * @param server      the server's name ({@link McpServerConfig#name()})
 * @param mcpToolName the tool's name on the server
 * @param toolName    the tool's name in Baton, the one the model called (the server's prefix and the MCP name)
 * @param arguments   the arguments the model proposed (a copy: changing it changes nothing else)
 * @param hints       what the server says about the tool (untrusted hints, see {@link McpToolHints})
 * @param run         the run the call belongs to: agent, run, thread, resource
 */
public record McpToolCall(String server, String mcpToolName, String toolName, JsonNode arguments, McpToolHints hints,
                          ApprovalContext run) {

    /**
     * Checks and copies.
     *
     * @param server      the server's name
     * @param mcpToolName the tool's name on the server
     * @param toolName    the tool's name in Baton
     * @param arguments   the arguments the model proposed (copied)
     * @param hints       what the server says about the tool
     * @param run         the run the call belongs to
     */
    public McpToolCall {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(mcpToolName, "mcpToolName");
        Objects.requireNonNull(toolName, "toolName");
        arguments = Objects.requireNonNull(arguments, "arguments").deepCopy();
        Objects.requireNonNull(hints, "hints");
        Objects.requireNonNull(run, "run");
    }

    /** {@return the arguments the model proposed; a copy: changing it changes nothing else} */
    @Override
    public JsonNode arguments() {
        return arguments.deepCopy();
    }
}
