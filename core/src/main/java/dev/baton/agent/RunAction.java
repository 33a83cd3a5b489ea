package dev.baton.agent;

/**
 * Why a stream runs, or what a claim does: the action a {@link RunListener} is told about in
 * {@link RunListener.RunContext#action()} and {@link RunListener.Claim#action()}. Each has a
 * {@link #wireName()} for logs, metrics tags and JSON.
 *
 * <p>Growth: an operation added in a later minor release adds a constant here; a {@code switch}
 * over this enum needs a {@code default}.
 *
 * <p>Immutable and thread-safe.
 */
public enum RunAction {
    /** A new run: {@code agent.stream} / {@code generate}. */
    START("start"),
    /** {@code approveToolCall}. */
    APPROVE("approve"),
    /** {@code declineToolCall}. */
    DECLINE("decline"),
    /** {@code resumeStream} with resume data. */
    RESUME("resume"),
    /** {@code continueRun} of an interrupted run. */
    CONTINUE("continue"),
    /** {@code cancelRun}, or an expiry policy that cancels. */
    CANCEL("cancel"),
    /** {@code discardRun}: the stored run is removed, nothing runs (a claim only, no stream). */
    DISCARD("discard"),
    /** {@code expireDueRuns} declining expired calls under a decline policy. */
    EXPIRE("expire");

    private final String wireName;

    RunAction(String wireName) {
        this.wireName = wireName;
    }

    /** {@return the lower-case name used in logs, metrics and JSON, e.g. {@code "approve"}} */
    public String wireName() {
        return wireName;
    }
}
