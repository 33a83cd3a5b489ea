package dev.baton;

/**
 * This process held a run's claim, but its lease expired and another caller took the run
 * over (or the run was removed). This process stops working on the run; the new holder goes on.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class LeaseLostException extends ConflictException {
    private static final long serialVersionUID = 1L;
    /** The runId this exception is about (serialized with it). */
    private final String runId;

    /**
     * The lease on a run was lost.
     *
     * @param runId the run
     */
    public LeaseLostException(String runId) {
        this(runId, "its lease expired and another caller took it over, or it was removed. This process stopped working on it.");
    }

    /**
     * The lease on a run was lost, saying how.
     *
     * @param runId  the run
     * @param detail what happened
     */
    public LeaseLostException(String runId, String detail) {
        super("Lost the claim on run '" + runId + "': " + detail, null);
        this.runId = runId;
    }

    /** {@return the run id} The run. */
    public String runId() {
        return runId;
    }
}
