package dev.baton;

/**
 * The suspended run waits on a tool that the resuming agent does not have. Nothing is changed.
 * Build the agent with the same tools as the one that started the run.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class UnknownToolException extends InvalidRequestException {
    private static final long serialVersionUID = 1L;
    /** The agentId this exception is about (serialized with it). */
    private final String agentId;
    /** The runId this exception is about (serialized with it). */
    private final String runId;
    /** The toolName this exception is about (serialized with it). */
    private final String toolName;

    /**
     * A tool the resuming agent lacks.
     *
     * @param agentId  the resuming agent
     * @param runId    the run
     * @param toolName the tool the run waits on
     */
    public UnknownToolException(String agentId, String runId, String toolName) {
        super("Agent '" + agentId + "' has no tool '" + toolName + "' needed to resume run '" + runId
                + "'. Build the agent with the same tools as the one that started the run.", null);
        this.agentId = agentId;
        this.runId = runId;
        this.toolName = toolName;
    }

    /** {@return the agent id} The resuming agent. */
    public String agentId() {
        return agentId;
    }

    /** {@return the run id} The run. */
    public String runId() {
        return runId;
    }

    /** {@return the tool name} The tool the agent lacks. */
    public String toolName() {
        return toolName;
    }
}
