package dev.baton.agent;

/**
 * How a stream ended.
 *
 * <p>Immutable and thread-safe.
 */
public enum RunOutcome {
    /** The model finished; the run's snapshot was deleted. */
    COMPLETED,
    /** The run waits for an approval or data; its snapshot is stored and listed with the waiting calls. */
    SUSPENDED,
    /**
     * The run stopped part-way and is stored, so nothing is lost: its thread was interrupted, its
     * stream was closed early, or its model failed while it was being resumed. It is listed with
     * {@link AgentRun#interrupted()}; {@link Agent#continueRun(String)} goes on from its last stored step
     * (or approve / decline / resume, if calls still wait for a human). See {@link AgentResult#error()}.
     */
    INTERRUPTED,
    /** The run was cancelled ({@link Agent#cancelRun(String, String)}, or an expiry policy): nothing more ran, its snapshot is gone. */
    CANCELLED,
    /**
     * The stream failed and did not store the run: a model failure in a run that was never stored,
     * a lost lease, a store that failed. A run stored before stays in the store as it was last
     * written (once its lease lapses it is listed as interrupted). See {@link AgentResult#error()}.
     */
    FAILED
}
