package dev.baton.mcp;

/**
 * What Baton puts in the {@code _meta} of every {@code tools/call} request, for the authors of MCP
 * servers. A server that reads {@link #IDEMPOTENCY_KEY} can make a call that Baton repeats after a
 * crash take effect once.
 *
 * <p>Why a call may come again: Baton stores a tool's result when the tool returns. If the process
 * running a call dies before that (or the run is interrupted), the call is still recorded as
 * executing, and continuing the run sends it again, with the same idempotency key and the next
 * attempt number (see docs/recovery.md). A server that keeps the keys it has done (a unique
 * column, a set with an expiry) answers the repeat from what it did the first time.
 *
 * <pre>{@code
 * // in a server written with the MCP Java SDK
 * (exchange, request) -> {
 *     String key = (String) request.meta().get("dev.baton/idempotency-key");
 *     ...
 * }
 * }</pre>
 *
 * <p>Constants only: not instantiable, nothing to close.
 */
public final class McpCallMeta {

    /** {@code dev.baton/idempotency-key}: the same for every attempt of a call, different for every other call (a string). */
    public static final String IDEMPOTENCY_KEY = "dev.baton/idempotency-key";
    /** {@code dev.baton/attempt}: 1 the first time this call is sent, more when a run continued after a crash sends it again (a number). */
    public static final String ATTEMPT = "dev.baton/attempt";
    /** {@code dev.baton/run-id}: the Baton run the call belongs to (a string). */
    public static final String RUN_ID = "dev.baton/run-id";
    /** {@code dev.baton/tool-call-id}: the model's id of the call within its run (a string). */
    public static final String TOOL_CALL_ID = "dev.baton/tool-call-id";

    private McpCallMeta() {
    }
}
