package dev.baton.mcp;

import dev.baton.BatonException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Something about an MCP server failed: it could not be reached or started, its tools cannot be
 * Baton tools (a name that does not fit, two servers offering the same name, a per-tool approval
 * naming a tool the server does not offer), or the toolset is closed. The message names the server
 * and what to do next; {@link #retryable()} says whether trying again later may help.
 *
 * <p>Its place among Baton's exceptions: directly under {@link BatonException}, in none of core's
 * four categories ({@code NotFoundException}, {@code ConflictException}, {@code InvalidRequestException},
 * {@code TransientException}), deliberately. One MCP server's failure can be of any kind: a server
 * that cannot be reached is transient, a tool name that cannot be a Baton name is a configuration
 * mistake, a tool's own error ({@link McpToolCallException.Kind#TOOL_ERROR}) is neither. A Java
 * class has one superclass, so the category of each failure is the value of {@link #retryable()}
 * (as core's {@code ModelException} has it), and catching {@code McpException} catches every MCP
 * failure, whatever its kind.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class McpException extends BatonException {
    private static final long serialVersionUID = 1L;

    /** The server concerned (serialized with it). */
    private final String serverName;
    /** Whether trying again later may help (serialized with it). */
    private final boolean retryable;

    /**
     * A failure that trying again does not mend (a configuration mistake).
     *
     * @param serverName the server concerned
     * @param message    what went wrong and what to do next
     */
    public McpException(String serverName, String message) {
        this(serverName, message, null, false);
    }

    /**
     * A failure that trying again does not mend (a configuration mistake).
     *
     * @param serverName the server concerned
     * @param message    what went wrong and what to do next
     * @param cause      the SDK's or the transport's failure, or null
     */
    public McpException(String serverName, String message, @Nullable Throwable cause) {
        this(serverName, message, cause, false);
    }

    /**
     * A failure that says whether trying again may help.
     *
     * @param serverName the server concerned
     * @param message    what went wrong and what to do next
     * @param cause      the SDK's or the transport's failure, or null
     * @param retryable  true if trying again later may succeed (the server could not be reached, did
     *                   not answer in time, or its connection broke)
     */
    public McpException(String serverName, String message, @Nullable Throwable cause, boolean retryable) {
        super(message, cause);
        this.serverName = Objects.requireNonNull(serverName, "serverName");
        this.retryable = retryable;
    }

    /** {@return the server concerned ({@link McpServerConfig#name()})} */
    public String serverName() {
        return serverName;
    }

    /**
     * Whether trying again later may succeed: true when the server could not be reached or started,
     * did not answer in time, or its connection broke; false for a configuration mistake, a server's
     * refusal (a JSON-RPC error), a tool's own error, or a closed toolset.
     *
     * @return true if a retry may help
     */
    public boolean retryable() {
        return retryable;
    }
}
