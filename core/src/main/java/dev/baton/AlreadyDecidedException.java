package dev.baton;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The decision is about a call (or run) that was already decided: it says by whom, when, and
 * what to do now. For example, a second approval of a call whose approval was recorded before a
 * crash: the run is listed as interrupted, and {@code continueRun(runId)} goes on. A retry of the
 * <em>same</em> decision with the same idempotency key does not throw this: it returns the first
 * outcome.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class AlreadyDecidedException extends RunNotSuspendedException {
    /** The actor recorded for a decision that named nobody ({@code DecisionRecord.UNKNOWN}). */
    private static final String UNNAMED = "unknown";

    private static final long serialVersionUID = 1L;
    /** The toolCallId this exception is about (serialized with it). */
    private final @Nullable String toolCallId;
    /** The decision this exception is about (serialized with it). */
    private final String decision;
    /** The actor this exception is about (serialized with it). */
    private final @Nullable String actor;
    /** The decidedAt this exception is about (serialized with it). */
    private final @Nullable Instant decidedAt;
    /** The next this exception is about (serialized with it). */
    private final String next;

    /**
     * A call or run decided before.
     *
     * @param runId      the run
     * @param toolCallId the call, or null for a decision on the whole run
     * @param decision   what was decided, as a wire name ({@code "approve"}, {@code "edit"}, {@code "decline"}, ...)
     * @param actor      who decided, or null if the store keeps no decisions
     * @param decidedAt  when, or null if the store keeps no decisions
     * @param next       what to do now, e.g. "the run is listed as interrupted: continueRun('r1') goes on"
     */
    public AlreadyDecidedException(String runId, @Nullable String toolCallId, String decision, @Nullable String actor,
                                   @Nullable Instant decidedAt, String next) {
        super(runId, (toolCallId == null ? "it" : "tool call '" + toolCallId + "'") + " was already decided ("
                + decision + ")" + by(actor) + (decidedAt == null ? "" : " at " + decidedAt)
                + "; " + next);
        this.toolCallId = toolCallId;
        this.decision = decision;
        this.actor = actor;
        this.decidedAt = decidedAt;
        this.next = next;
    }

    /**
     * Who decided, in words: a name in quotes, and for a decision recorded without an actor
     * ({@link dev.baton.store.DecisionRecord#UNKNOWN}, a Java caller that named nobody) what that means,
     * never "by 'unknown'", which reads like a person of that name.
     */
    private static String by(@Nullable String actor) {
        if (actor == null) return "";
        // DecisionRecord.UNKNOWN's value, spelt here: dev.baton must not depend on dev.baton.store (ArchitectureTest)
        if (actor.equals(UNNAMED)) return " by an unnamed caller (no actor given)";
        return " by '" + actor + "'";
    }

    /** {@return the call decided on, or null for a decision on the whole run} */
    public @Nullable String toolCallId() { return toolCallId; }

    /** {@return what was decided, as a wire name} */
    public String decision() { return decision; }

    /** {@return who decided, or null when not recorded} */
    public @Nullable String actor() { return actor; }

    /** {@return when, or null when not recorded} */
    public @Nullable Instant decidedAt() { return decidedAt; }

    /** {@return what to do now} */
    public String next() { return next; }
}
