package dev.baton.mcp;

import dev.baton.BatonException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Something about an MCP server failed: it could not be reached or started, its tools cannot be
 * Baton tools (a name that does not fit, two servers offering the same name), or the toolset is
 * closed. The message names the server and what to do next.
 */
public class McpException extends BatonException {
    private static final long serialVersionUID = 1L;

    private final String serverName;

    /**
     * @param serverName the server concerned
     * @param message    what went wrong and what to do next
     */
    public McpException(String serverName, String message) {
        super(message);
        this.serverName = Objects.requireNonNull(serverName, "serverName");
    }

    /**
     * @param serverName the server concerned
     * @param message    what went wrong and what to do next
     * @param cause      the SDK's or the transport's failure, or null
     */
    public McpException(String serverName, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.serverName = Objects.requireNonNull(serverName, "serverName");
    }

    /** The server concerned ({@link McpServerConfig#name()}). */
    public String serverName() {
        return serverName;
    }
}
