package dev.baton.tool;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Decides, per call, whether a tool call waits for a person's approval, from its arguments and
 * the run it belongs to (agent, run, thread, resource). Given to
 * {@link ToolBuilder#requireApproval(ApprovalPolicy)}:
 *
 * <pre>{@code
 * Tool transfer = Tool.builder("transfer")
 *     .requireApproval((input, run) -> input.path("amount").asInt() > 100
 *             || !"treasury".equals(run.resourceId()))
 *     .execute((input, ctx) -> ...)
 *     .build();
 * }</pre>
 *
 * <p>Core asks the policy when the model proposes the call (and again for a call not yet looked
 * at when a run stops part-way), before the tool runs. A policy that throws means "approval
 * required". It may be called from any thread, concurrently for different runs, and more than
 * once for the same call, so an implementation must be thread-safe, quick and free of side effects.
 * The input it gets is a private copy; the policy may keep or change it without affecting the run.
 */
@FunctionalInterface
public interface ApprovalPolicy {

    /**
     * Whether this call waits for approval.
     *
     * @param input   the call's arguments (a copy: changing it changes nothing else)
     * @param context the run the call belongs to
     * @return true: the run suspends until the call is approved or declined
     */
    boolean requiresApproval(JsonNode input, ApprovalContext context);
}
