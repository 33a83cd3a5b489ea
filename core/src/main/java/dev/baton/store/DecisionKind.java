package dev.baton.store;

import dev.baton.InvalidOptionException;

/**
 * What a person (or a policy) decided about a suspended run: the kind of a {@link DecisionRecord}.
 * Each has a {@link #wireName()}, the lower-case name stored by every store and used in JSON.
 *
 * <p>Growth: a later minor release may add constants; a {@code switch} over this enum needs a
 * {@code default}. Immutable and thread-safe.
 */
public enum DecisionKind {
    /** A waiting call was approved with the arguments the model proposed. */
    APPROVE("approve"),
    /** A waiting call was approved with arguments a person edited. */
    EDIT("edit"),
    /** A waiting call was declined. */
    DECLINE("decline"),
    /** Resume data was given to a call that waited for it. */
    RESUME("resume"),
    /** The run was cancelled (by a person, or by an expiry policy that cancels). */
    CANCEL("cancel"),
    /** The stored run was discarded: nothing ran. */
    DISCARD("discard"),
    /** An interrupted run was continued. */
    CONTINUE("continue"),
    /** An expiry policy declined a call whose wait expired (actor {@code system}). */
    EXPIRE("expire"),
    /**
     * A call that waited for approval longer than its approver rule's {@code escalateAfter} moved to
     * the rule's escalation group (actor {@code system}; the reason names the group). The call still waits.
     */
    ESCALATE("escalate");

    private final String wireName;

    DecisionKind(String wireName) {
        this.wireName = wireName;
    }

    /** {@return the lower-case name stores keep and JSON uses, e.g. {@code "edit"}} */
    public String wireName() {
        return wireName;
    }

    /**
     * The kind with this wire name.
     *
     * @param wireName e.g. {@code "approve"}
     * @return the kind
     * @throws InvalidOptionException if no kind has this name
     */
    public static DecisionKind fromWireName(String wireName) {
        for (DecisionKind k : values()) if (k.wireName.equals(wireName)) return k;
        throw new InvalidOptionException("kind", "unknown decision kind '" + wireName + "'");
    }
}
