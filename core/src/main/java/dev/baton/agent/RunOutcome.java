package dev.baton.agent;

/** How a stream ended. */
public enum RunOutcome {
    /** The model finished; the run's snapshot was deleted. */
    COMPLETED,
    /** The run waits for an approval or data; its snapshot is stored. */
    SUSPENDED,
    /** The run failed (model error, storage error, lost lease); see {@link AgentResult#error()}. */
    FAILED
}
