package dev.baton;

/**
 * A run stopped part-way and was stored as interrupted: its thread was interrupted, its stream
 * was closed early, or its model failed while it was being resumed. Nothing is lost:
 * {@code agent.continueRun(runId)} goes on from the last stored step. Carried by the stream's
 * {@code error} event and by {@code AgentResult.error()}; the cause, if any, says what stopped it.
 */
public class RunInterruptedException extends BatonException {
    private static final long serialVersionUID = 1L;
    private final String runId;

    public RunInterruptedException(String runId, String why, Throwable cause) {
        super("Run '" + runId + "' was interrupted (" + why + "). It is stored: continueRun(\"" + runId
                + "\") goes on from its last stored step.", cause);
        this.runId = runId;
    }

    public String runId() {
        return runId;
    }
}
