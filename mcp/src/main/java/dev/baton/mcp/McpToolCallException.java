package dev.baton.mcp;

import java.util.Objects;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * A call of an MCP tool did not succeed. Thrown by the Baton tool's executor, it becomes a
 * {@code tool-error} of the run: the model sees the message and the run goes on (see
 * {@link Kind} for what each case means for the call's effect). {@link #retryable()} is true for
 * {@link Kind#UNREACHABLE}, {@link Kind#CONNECTION_LOST} and {@link Kind#TIMEOUT} (for the last two
 * the first call may have taken effect: only a tool that is safe to call twice should be retried).
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class McpToolCallException extends McpException {
    private static final long serialVersionUID = 1L;

    /** Why the call did not succeed, and what is known of its effect. */
    public enum Kind {
        /**
         * The server answered with a result whose {@code isError} is true: the tool ran and failed.
         * The message is the server's own text, so the model can correct its call.
         */
        TOOL_ERROR,
        /**
         * The server answered with a JSON-RPC error (an unknown tool, invalid arguments, a failure
         * of the server itself); {@link #errorCode()} is its code.
         */
        PROTOCOL_ERROR,
        /** The server could not be reached (or started) before the call: nothing was sent. */
        UNREACHABLE,
        /**
         * The connection ended while the call was under way (the process exited, the HTTP stream
         * broke): the call may or may not have taken effect. The next call connects again.
         */
        CONNECTION_LOST,
        /** No answer within the server's call timeout: the call may still take effect on the server. */
        TIMEOUT
    }

    /** The tool's name in Baton (serialized with it). */
    private final String toolName;
    /** The tool's name on the server (serialized with it). */
    private final String mcpToolName;
    /** Why the call did not succeed (serialized with it). */
    private final Kind kind;
    /** The JSON-RPC error code, for {@link Kind#PROTOCOL_ERROR} (serialized with it). */
    private final @Nullable Integer errorCode;

    /**
     * A failed call; whether a retry may help follows from {@code kind}.
     *
     * @param serverName  the server called
     * @param toolName    the tool's name in Baton
     * @param mcpToolName the tool's name on the server
     * @param kind        why the call did not succeed
     * @param errorCode   the JSON-RPC error code, for {@link Kind#PROTOCOL_ERROR}, else null
     * @param message     what the model and the logs see
     * @param cause       the underlying failure, or null
     */
    public McpToolCallException(String serverName, String toolName, String mcpToolName, Kind kind,
                                @Nullable Integer errorCode, String message,
                                @Nullable Throwable cause) {
        super(serverName, message, cause, retryable(Objects.requireNonNull(kind, "kind")));
        this.toolName = Objects.requireNonNull(toolName, "toolName");
        this.mcpToolName = Objects.requireNonNull(mcpToolName, "mcpToolName");
        this.kind = Objects.requireNonNull(kind, "kind");
        this.errorCode = errorCode;
    }

    /** {@return the tool's name in Baton} */
    public String toolName() {
        return toolName;
    }

    /** {@return the tool's name on the server} */
    public String mcpToolName() {
        return mcpToolName;
    }

    /** {@return why the call did not succeed} */
    public Kind kind() {
        return kind;
    }

    /** {@return the JSON-RPC error code of a {@link Kind#PROTOCOL_ERROR}, else empty} */
    public OptionalInt errorCode() {
        return errorCode == null ? OptionalInt.empty() : OptionalInt.of(errorCode);
    }

    /** Whether a failure of this kind may pass when tried again: the server was not reached, or did not finish. */
    static boolean retryable(Kind kind) {
        return switch (kind) {
            case UNREACHABLE, CONNECTION_LOST, TIMEOUT -> true;
            case TOOL_ERROR, PROTOCOL_ERROR -> false;
        };
    }
}
