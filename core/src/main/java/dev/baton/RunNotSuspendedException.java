package dev.baton;

/**
 * The run is no longer suspended: another caller (thread or server) approved, declined or
 * resumed it first, and holds it now. Exactly one of several concurrent resumes wins
 * (SPEC rule 10); the others get this exception and nothing is executed for them.
 */
public class RunNotSuspendedException extends BatonException {
    private static final long serialVersionUID = 1L;
    private final String runId;

    public RunNotSuspendedException(String runId, String detail) {
        super("Run '" + runId + "' is no longer suspended: " + detail);
        this.runId = runId;
    }

    public String runId() {
        return runId;
    }
}
