package dev.baton.mcp;

import org.jspecify.annotations.Nullable;

/**
 * What an MCP server says about one of its tools: the tool's {@code annotations}, as sent in
 * {@code tools/list}. Each hint is null when the server did not send it.
 *
 * <p><b>These are hints, not guarantees.</b> The MCP specification says clients must consider
 * them untrusted unless they come from a trusted server: a server may call a tool read-only that
 * deletes files. Use them as defaults ({@link McpApprovalPolicy#unlessReadOnly()},
 * {@link McpApprovalPolicy#whenDestructive()}) only for servers you trust, and name the tools that
 * matter explicitly ({@code McpServerConfig.Builder.approval(toolName, policy)}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param title           a human-readable title, or null
 * @param readOnlyHint    true: the tool does not modify its environment
 * @param destructiveHint true: the tool may perform destructive updates; false: only additive ones
 *                        (meaningful only when the tool is not read-only)
 * @param idempotentHint  true: calling it again with the same arguments has no further effect
 * @param openWorldHint   true: the tool interacts with an open world of external entities
 */
public record McpToolHints(@Nullable String title, @Nullable Boolean readOnlyHint, @Nullable Boolean destructiveHint,
                           @Nullable Boolean idempotentHint, @Nullable Boolean openWorldHint) {

    /** A tool the server said nothing about. */
    public static final McpToolHints NONE = new McpToolHints(null, null, null, null, null);

    /** {@return whether the server says the tool is read-only; the specification's default is false} */
    public boolean readOnly() {
        return Boolean.TRUE.equals(readOnlyHint);
    }

    /**
     * Whether the tool may destroy, by the specification's defaults: a tool that is not read-only
     * is destructive unless the server says {@code destructiveHint: false}.
     *
     * @return true if the tool may destroy
     */
    public boolean destructive() {
        return !readOnly() && !Boolean.FALSE.equals(destructiveHint);
    }

    /** {@return whether the server says a repeated call has no further effect; the specification's default is false} */
    public boolean idempotent() {
        return Boolean.TRUE.equals(idempotentHint);
    }
}
