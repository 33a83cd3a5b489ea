package dev.baton.mcp;

import java.util.Objects;
import java.util.function.Predicate;

/**
 * Decides whether a call of an MCP tool waits for a person's approval before it is sent to the
 * server. Set one per server ({@link McpServerConfig.Builder#approval(McpApprovalPolicy)}, default
 * {@link #always()}) and, where a tool needs another rule, per tool
 * ({@link McpServerConfig.Builder#approval(String, McpApprovalPolicy)}).
 *
 * <pre>{@code
 * McpServerConfig.stdio("fs", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/srv/notes")
 *     .approval(McpApprovalPolicy.unlessReadOnly())            // the server's hints, as a default
 *     .approval("write_file", McpApprovalPolicy.always())       // never trust them for this one
 *     .approval("move_file", call -> !"ops".equals(call.run().resourceId()))
 *     .build();
 * }</pre>
 *
 * <p>A policy sees the tool, the arguments the model proposed, the server's hints and the run
 * (agent, run, thread, resource). It runs in the JVM whose model proposed the call, before anything
 * is sent to the server, and without any I/O of its own; a policy that throws means "approval
 * required". When a call is approved, it runs as proposed, on whichever instance approves it.
 */
@FunctionalInterface
public interface McpApprovalPolicy {

    /**
     * Whether this call waits for approval.
     *
     * @param call the proposed call
     * @return true: the run suspends until the call is approved or declined
     */
    boolean requiresApproval(McpToolCall call);

    /** Every call waits for approval: the default, because MCP servers' hints are untrusted. */
    static McpApprovalPolicy always() {
        return call -> true;
    }

    /** No call waits: the tool runs as soon as the model calls it. */
    static McpApprovalPolicy never() {
        return call -> false;
    }

    /**
     * Every call waits unless the server says the tool is read-only ({@code readOnlyHint: true}).
     * A tool without annotations waits. The hint is the server's claim: see {@link McpToolHints}.
     */
    static McpApprovalPolicy unlessReadOnly() {
        return call -> !call.hints().readOnly();
    }

    /**
     * Calls of destructive tools wait: every tool that is not read-only, unless the server says
     * {@code destructiveHint: false} (additive updates only, which then run at once). A tool without
     * annotations waits. The hints are the server's claims: see {@link McpToolHints}.
     */
    static McpApprovalPolicy whenDestructive() {
        return call -> call.hints().destructive();
    }

    /** A policy from a predicate over the call; the same as a lambda, for readability. */
    static McpApprovalPolicy when(Predicate<McpToolCall> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return predicate::test;
    }

    /** Waits when this policy or {@code other} says so. */
    default McpApprovalPolicy or(McpApprovalPolicy other) {
        Objects.requireNonNull(other, "other");
        return call -> requiresApproval(call) || other.requiresApproval(call);
    }
}
