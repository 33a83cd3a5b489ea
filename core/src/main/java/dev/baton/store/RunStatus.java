package dev.baton.store;

/**
 * Where a stored run stands. Runs that end are deleted, so only these two states are ever stored.
 * Part of the storage SPI ({@link RunSnapshot#status()}) and shown to users as
 * {@code AgentRun.status()}.
 *
 * <p>Immutable and thread-safe.
 */
public enum RunStatus {
    /** Waiting for an approval, a decline or resume data. Listed by {@code listSuspendedRuns}. */
    SUSPENDED,
    /**
     * Claimed by one caller that is executing it now, under a lease. Not listed as suspended.
     * When the lease expires without being extended, the run counts as {@link #SUSPENDED} again.
     */
    RESUMING
}
