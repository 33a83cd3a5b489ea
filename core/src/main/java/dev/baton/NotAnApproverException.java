package dev.baton;

import org.jspecify.annotations.Nullable;

/**
 * A decision on a call was refused by the agent's approver rules before anything changed: the
 * person lacks a role the rule asks for, started the run themselves (separation of duties), has
 * already approved the call (a quorum needs distinct people), or named nobody. Nothing is recorded.
 * The message names the rule, the decision and the person; over HTTP it is a 403
 * {@code not-an-approver}.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class NotAnApproverException extends BatonException {
    private static final long serialVersionUID = 1L;
    /** The run decided on (serialized with it). */
    private final String runId;
    /** The call decided on (serialized with it). */
    private final String toolCallId;
    /** The name of the rule that refused (serialized with it). */
    private final String rule;
    /** The decision refused, as a wire name (serialized with it). */
    private final String decision;
    /** Who asked, or null when nobody was named (serialized with it). */
    private final @Nullable String actor;

    /**
     * A refused decision.
     *
     * @param runId      the run
     * @param toolCallId the call
     * @param rule       the name of the approver rule that applies to the call
     * @param decision   {@code "approve"}, {@code "edit"}, {@code "decline"} or {@code "answer"}
     * @param actor      who asked, or null when nobody was named
     * @param why        why the rule refuses, e.g. "needs one of the roles [finance]"
     */
    public NotAnApproverException(String runId, String toolCallId, String rule, String decision, @Nullable String actor,
                                  String why) {
        super((actor == null ? "An unnamed caller (no approver given)" : "'" + actor + "'") + " may not " + decision
                + " tool call '" + toolCallId + "' of run '" + runId + "': approver rule '" + rule + "' " + why
                + ". Nothing was changed or recorded.");
        this.runId = runId;
        this.toolCallId = toolCallId;
        this.rule = rule;
        this.decision = decision;
        this.actor = actor;
    }

    /** {@return the run decided on} */
    public String runId() { return runId; }

    /** {@return the call decided on} */
    public String toolCallId() { return toolCallId; }

    /** {@return the name of the rule that refused} */
    public String rule() { return rule; }

    /** {@return the decision refused: approve, edit, decline or answer} */
    public String decision() { return decision; }

    /** {@return who asked, or null when nobody was named} */
    public @Nullable String actor() { return actor; }
}
