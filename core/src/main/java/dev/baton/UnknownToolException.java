package dev.baton;

/** The suspended run waits on a tool that the resuming agent does not have. Nothing is changed. */
public class UnknownToolException extends BatonException {
    private static final long serialVersionUID = 1L;

    public UnknownToolException(String agentId, String runId, String toolName) {
        super("Agent '" + agentId + "' has no tool '" + toolName + "' needed to resume run '" + runId
                + "'. Build the agent with the same tools as the one that started the run.");
    }
}
