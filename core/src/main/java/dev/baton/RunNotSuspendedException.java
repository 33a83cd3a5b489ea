package dev.baton;

/**
 * The run is no longer suspended: another caller (thread or server) approved, declined or
 * resumed it first, and holds it now. Exactly one of several concurrent resumes wins
 * (SPEC rule 10); the others get this exception and nothing is executed for them. List the
 * runs again to see where it stands.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class RunNotSuspendedException extends ConflictException {
    private static final long serialVersionUID = 1L;
    /** The runId this exception is about (serialized with it). */
    private final String runId;

    /**
     * A run someone else holds.
     *
     * @param runId  the run
     * @param detail who holds it or what happened, for the message
     */
    public RunNotSuspendedException(String runId, String detail) {
        super("Run '" + runId + "' is no longer suspended: " + detail, null);
        this.runId = runId;
    }

    /** {@return the run id} The run. */
    public String runId() {
        return runId;
    }
}
