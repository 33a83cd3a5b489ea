package dev.baton.store;

/**
 * What a {@link SnapshotStore} offers beyond the duties every store has. A store declares its
 * capabilities in {@link SnapshotStore#capabilities()}; the TCK runs the contracts that match
 * them and names them in its report, so "certified" says exactly what was proven.
 */
public enum StoreCapability {
    /**
     * Several processes may open the same store at once, and {@link SnapshotStore#compareAndSet},
     * {@link SnapshotStore#renewLease} and {@link SnapshotStore#delete} are atomic across them
     * (so that exactly one of several servers resumes a run). Proven by the TCK's
     * {@code ProcessContract}. The in-memory store is not shared.
     */
    SHARED,
    /** Runs survive a restart of the process that stored them. The in-memory store loses them. */
    DURABLE,
    /**
     * {@link SnapshotStore#now()} reads the store's own clock (a database's {@code now()}, Redis
     * {@code TIME}, MongoDB's server time), so agents may judge leases by one clock for every
     * instance ({@code Agent.Builder#useStoreClock()}).
     */
    STORE_CLOCK,
    /**
     * {@link SnapshotStore#memory()} returns a {@link dev.baton.memory.MemoryStore} in the same
     * database: threads and their messages for agents with a {@code Memory}. Proven by the TCK's
     * {@code MemoryStoreContract}.
     */
    THREAD_MEMORY
}
