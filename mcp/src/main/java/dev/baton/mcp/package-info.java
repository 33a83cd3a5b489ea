/**
 * The tools of MCP servers as Baton tools.
 *
 * <ul>
 *   <li>{@link dev.baton.mcp.McpServerConfig}: one server, over stdio (a process Baton starts) or
 *       streamable HTTP; its tool prefix, approval policies, timeouts and tool filter.</li>
 *   <li>{@link dev.baton.mcp.McpToolset}: the connections to some servers; {@code tools()} gives
 *       their tools as {@link dev.baton.tool.Tool}s for {@code Agent.builder(...).tools(...)};
 *       {@code close()} ends the connections and the processes.</li>
 *   <li>{@link dev.baton.mcp.McpApprovalPolicy}, {@link dev.baton.mcp.McpToolCall},
 *       {@link dev.baton.mcp.McpToolHints}: which calls wait for a person's approval.</li>
 *   <li>{@link dev.baton.mcp.McpCallMeta}: what every call carries in its {@code _meta} (the
 *       idempotency key and the attempt), for server authors.</li>
 * </ul>
 *
 * Everything here is non-null unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.baton.mcp;

import org.jspecify.annotations.NullMarked;
