package dev.baton;

import org.jspecify.annotations.Nullable;

/**
 * A run stopped part-way and was stored as interrupted: its thread was interrupted, its stream
 * was closed early, or its model failed while it was being resumed. Nothing is lost:
 * {@code agent.continueRun(runId)} goes on from the last stored step. Carried by the stream's
 * {@code error} event and by {@code AgentResult.error()}; the cause, if any, says what stopped it
 * (a {@link ModelException} for a model failure: {@code AgentResult.modelFailure()} finds it).
 * Not in a category: it reports a run that was kept, not a call that failed.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class RunInterruptedException extends BatonException {
    private static final long serialVersionUID = 1L;
    /** The runId this exception is about (serialized with it). */
    private final String runId;

    /**
     * A run that was kept as interrupted.
     *
     * @param runId the run
     * @param why   what stopped it, for the message
     * @param cause what stopped it, or null
     */
    public RunInterruptedException(String runId, String why, @Nullable Throwable cause) {
        super("Run '" + runId + "' was interrupted (" + why + "). It is stored: continueRun(\"" + runId
                + "\") goes on from its last stored step.", cause);
        this.runId = runId;
    }

    /** {@return the run id} The run. */
    public String runId() {
        return runId;
    }
}
