package dev.baton.mcp;

import dev.baton.mcp.McpToolCallException.Kind;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import java.net.ConnectException;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/** Why a request to an MCP server failed, sorted by what it means for the request's effect. */
final class McpFailure extends Exception {
    private static final long serialVersionUID = 1L;

    private final Kind kind;
    private final @Nullable Integer errorCode;
    private final boolean sessionExpired;

    private McpFailure(Kind kind, @Nullable Integer errorCode, String message, @Nullable Throwable cause) {
        this(kind, errorCode, message, cause, false);
    }

    private McpFailure(Kind kind, @Nullable Integer errorCode, String message, @Nullable Throwable cause, boolean sessionExpired) {
        super(message, cause);
        this.kind = kind;
        this.errorCode = errorCode;
        this.sessionExpired = sessionExpired;
    }

    /** True when the server no longer knew the session (it restarted): the SDK starts a new one on the same client. */
    boolean sessionExpired() {
        return sessionExpired;
    }

    Kind kind() {
        return kind;
    }

    @Nullable Integer errorCode() {
        return errorCode;
    }

    /** What to do next, for exception messages. */
    String advice() {
        return switch (kind) {
            case UNREACHABLE -> "Check that the server starts (its stderr is logged as [mcp NAME]) or that its URL is right and it listens";
            case TIMEOUT -> "Raise callTimeout / connectTimeout if the server is slow";
            case CONNECTION_LOST -> "The next request connects again";
            default -> "See the server's message";
        };
    }

    /**
     * Sorts a failure the SDK reported for a request, given what the transport said of its sending
     * ({@code sendError}, null if the sending did not fail or is unknown). Only a refused connection
     * or a forgotten session prove that the request never reached the server.
     */
    static McpFailure of(McpServerConfig config, @Nullable Throwable failure, @Nullable Throwable sendError, java.time.Duration timeout) {
        McpError protocol = find(failure, McpError.class);
        if (protocol != null && protocol.getJsonRpcError() != null) {
            var error = protocol.getJsonRpcError();
            Object data = error.data();
            String text = "MCP error " + error.code() + ": " + error.message() + (data == null ? "" : " (" + data + ")");
            return new McpFailure(Kind.PROTOCOL_ERROR, error.code(), text, failure);
        }
        if (find(failure, McpSession.ProcessExited.class) != null) {
            return new McpFailure(Kind.CONNECTION_LOST, null, "its process exited", failure);
        }
        for (Throwable t : new Throwable[] {sendError, failure}) {
            if (find(t, McpTransportSessionNotFoundException.class) != null) {
                return new McpFailure(Kind.UNREACHABLE, null, "the server no longer knows the session (it restarted)", t, true);
            }
            if (find(t, ConnectException.class) != null) {
                return new McpFailure(Kind.UNREACHABLE, null, "the request did not reach it: " + rootMessage(t), t);
            }
        }
        if (find(failure, TimeoutException.class) != null) {
            return new McpFailure(Kind.TIMEOUT, null, "no answer within " + seconds(timeout), failure);
        }
        return new McpFailure(Kind.CONNECTION_LOST, null, "the connection failed: " + rootMessage(failure), failure);
    }

    static McpFailure unreachable(McpServerConfig config, @Nullable Throwable cause) {
        return unreachable(config, cause, "");
    }

    /** As {@link #unreachable(McpServerConfig, Throwable)}, with what a stdio server last wrote on stderr (its own reason). */
    static McpFailure unreachable(McpServerConfig config, @Nullable Throwable cause, String stderr) {
        String why = find(cause, TimeoutException.class) != null
                ? "it did not complete the MCP handshake within " + seconds(config.connectTimeout())
                : exited(cause) ? "its process exited during the MCP handshake"
                : "connecting failed: " + rootMessage(cause);
        if (!stderr.isEmpty()) why += " (its last lines on stderr: " + stderr + ")";
        return new McpFailure(Kind.UNREACHABLE, null, why, cause);
    }

    /** Whether {@code cause} says the server's process exited. */
    static boolean exited(@Nullable Throwable cause) {
        return find(cause, McpSession.ProcessExited.class) != null;
    }

    static McpFailure closed(McpServerConfig config) {
        return new McpFailure(Kind.UNREACHABLE, null, "the McpToolset of server '" + config.name() + "' is closed", null);
    }

    private static String seconds(java.time.Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    static String rootMessage(@Nullable Throwable t) {
        if (t == null) return "unknown";
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String m = root.getMessage();
        return m == null || m.isBlank() ? root.getClass().getSimpleName() : root.getClass().getSimpleName() + ": " + m;
    }

    private static <T extends Throwable> @Nullable T find(@Nullable Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) return type.cast(c);
        }
        return null;
    }
}
