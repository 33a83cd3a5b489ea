package dev.baton;

/**
 * A decision was bound to a version of a waiting call that is no longer the one waiting: the digest
 * the person was shown ({@code AgentRunToolCall.digest()}, sent on the options) differs from the
 * digest of the call that waits now. Nothing was changed and nothing runs. List the run again,
 * show the person the call as it is now, and decide again. HTTP answers 409.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class DecisionConflictException extends ConflictException {
    private static final long serialVersionUID = 1L;
    /** The runId this exception is about (serialized with it). */
    private final String runId;
    /** The toolCallId this exception is about (serialized with it). */
    private final String toolCallId;
    /** The expectedDigest this exception is about (serialized with it). */
    private final String expectedDigest;
    /** The actualDigest this exception is about (serialized with it). */
    private final String actualDigest;

    /**
     * A decision about another version of the call.
     *
     * @param runId          the run
     * @param toolCallId     the call
     * @param expectedDigest the digest the decision carried (what the person saw)
     * @param actualDigest   the digest of the call waiting now
     */
    public DecisionConflictException(String runId, String toolCallId, String expectedDigest, String actualDigest) {
        super("Tool call '" + toolCallId + "' of run '" + runId + "' is no longer the one that was shown (digest "
                + expectedDigest + ", waiting now: " + actualDigest + "); nothing was changed. List the run again and decide on the call as it is now.",
                (Throwable) null);
        this.runId = runId;
        this.toolCallId = toolCallId;
        this.expectedDigest = expectedDigest;
        this.actualDigest = actualDigest;
    }

    /** {@return the run} */
    public String runId() { return runId; }

    /** {@return the call} */
    public String toolCallId() { return toolCallId; }

    /** {@return the digest the decision carried} */
    public String expectedDigest() { return expectedDigest; }

    /** {@return the digest of the call that waits now} */
    public String actualDigest() { return actualDigest; }
}
