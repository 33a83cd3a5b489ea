package dev.baton;

/**
 * No suspended run with this id exists for the calling agent. A run that belongs to
 * another agent answers exactly like a run that does not exist (SPEC rule 2).
 */
public class RunNotFoundException extends BatonException {
    private static final long serialVersionUID = 1L;
    private final String runId;

    public RunNotFoundException(String agentId, String runId) {
        super("No snapshot found for run '" + runId + "' of agent '" + agentId
                + "': it never suspended, already ended, or belongs to another agent."
                + " Call listSuspendedRuns() to see the runs that are waiting.");
        this.runId = runId;
    }

    public String runId() {
        return runId;
    }
}
