package dev.baton.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a server's instructions out of the SDK's log. The SDK logs the whole answer to
 * {@code initialize} at INFO on every connect, instructions included (often dozens of lines, once per
 * reconnect); Baton does not use them, so they are taken out of that answer before the SDK reads it and
 * logged here at DEBUG instead. The SDK's INFO line then names the protocol, capabilities and server in
 * one line; silence it with the logger {@code io.modelcontextprotocol.client.LifecycleInitializer} at WARN.
 */
final class ServerInstructions {
    private static final Logger LOG = LoggerFactory.getLogger(ServerInstructions.class);

    private ServerInstructions() {
    }

    /**
     * The message the SDK should see: an answer to {@code initialize} without its {@code instructions},
     * anything else as it came.
     *
     * @param serverName the server, for the DEBUG line
     * @param message    an inbound message
     * @return the message, with instructions set aside if it is the answer to {@code initialize}
     */
    static McpSchema.JSONRPCMessage aside(String serverName, McpSchema.JSONRPCMessage message) {
        if (!(message instanceof McpSchema.JSONRPCResponse r) || !(r.result() instanceof Map<?, ?> result)) return message;
        if (!result.containsKey("instructions") || !result.containsKey("protocolVersion") || !result.containsKey("serverInfo")) {
            return message;
        }
        LOG.debug("MCP server '{}' gives these instructions (Baton does not use them): {}", serverName, result.get("instructions"));
        Map<Object, Object> without = new LinkedHashMap<>(result);
        without.remove("instructions");
        return new McpSchema.JSONRPCResponse(r.jsonrpc(), r.id(), without, r.error());
    }
}
