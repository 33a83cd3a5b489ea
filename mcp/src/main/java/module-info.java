/**
 * Baton MCP: the tools of Model Context Protocol servers (stdio and streamable HTTP, through the
 * official MCP Java SDK) as Baton tools, with approval policies per server and per tool. Start at
 * {@code dev.baton.mcp.McpToolset}.
 */
module dev.baton.mcp {
    requires transitive dev.baton.core;
    requires io.modelcontextprotocol.sdk.mcp.core;
    requires io.modelcontextprotocol.sdk.mcp.json.jackson2;
    requires reactor.core;
    requires java.net.http;
    requires org.slf4j;
    requires static transitive org.jspecify;

    exports dev.baton.mcp;
}
