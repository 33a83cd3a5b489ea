package dev.baton;

/**
 * No stored run with this id exists for the calling agent. A run that belongs to another agent
 * answers exactly like a run that does not exist (SPEC rule 2). Call {@code listSuspendedRuns()}
 * to see the runs that wait.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class RunNotFoundException extends NotFoundException {
    private static final long serialVersionUID = 1L;
    /** The agentId this exception is about (serialized with it). */
    private final String agentId;
    /** The runId this exception is about (serialized with it). */
    private final String runId;

    /**
     * A run id the agent does not know.
     *
     * @param agentId the calling agent
     * @param runId   the run it named
     */
    public RunNotFoundException(String agentId, String runId) {
        super("No snapshot found for run '" + runId + "' of agent '" + agentId
                + "': it never suspended, already ended, or belongs to another agent."
                + " Call listSuspendedRuns() to see the runs that are waiting.", null);
        this.agentId = agentId;
        this.runId = runId;
    }

    /** {@return the agent id} The calling agent's id. */
    public String agentId() {
        return agentId;
    }

    /** {@return the run id} The run id that was not found. */
    public String runId() {
        return runId;
    }
}
