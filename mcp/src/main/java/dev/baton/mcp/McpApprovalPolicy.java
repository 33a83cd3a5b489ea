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
 *
 * <p>Thread-safety: a policy must be thread-safe (runs of many threads call it at once); the ones
 * made here are immutable.
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

    /**
     * Every call waits for approval: the default, because MCP servers' hints are untrusted.
     *
     * @return the policy
     */
    static McpApprovalPolicy always() {
        return call -> true;
    }

    /**
     * No call waits: the tool runs as soon as the model calls it.
     *
     * @return the policy
     */
    static McpApprovalPolicy never() {
        return call -> false;
    }

    /**
     * Every call waits unless the server says the tool is read-only ({@code readOnlyHint: true}).
     * A tool without annotations waits. The hint is the server's claim: see {@link McpToolHints}.
     *
     * @return the policy
     */
    static McpApprovalPolicy unlessReadOnly() {
        return call -> !call.hints().readOnly();
    }

    /**
     * Calls of destructive tools wait: every tool that is not read-only, unless the server says
     * {@code destructiveHint: false} (additive updates only, which then run at once). A tool without
     * annotations waits. The hints are the server's claims: see {@link McpToolHints}.
     *
     * @return the policy
     */
    static McpApprovalPolicy whenDestructive() {
        return call -> call.hints().destructive();
    }

    /**
     * A policy from a predicate over the call; the same as a lambda, for readability.
     *
     * @param predicate true: the call waits for approval
     * @return the policy
     */
    static McpApprovalPolicy when(Predicate<McpToolCall> predicate) {
        Objects.requireNonNull(predicate, "predicate");
        return predicate::test;
    }

    /**
     * Waits when this policy or {@code other} says so.
     *
     * @param other the second policy (asked only when this one says no)
     * @return the combined policy
     */
    default McpApprovalPolicy or(McpApprovalPolicy other) {
        Objects.requireNonNull(other, "other");
        return call -> requiresApproval(call) || other.requiresApproval(call);
    }
}
