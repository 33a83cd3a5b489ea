package dev.baton.store;

/**
 * What a {@link SnapshotStore} offers beyond the duties every store has. A store declares its
 * capabilities in {@link SnapshotStore#capabilities()}; the TCK runs the contracts that match
 * them and names them in its report, so "certified" says exactly what was proven.
 *
 * <p>Core checks the capabilities an agent needs when it is built: {@code useStoreClock()} needs
 * {@link #STORE_CLOCK}, a {@code Memory} bound to the agent's store needs {@link #THREAD_MEMORY},
 * notifications ({@code notifications(...)}) need {@link #NOTIFICATIONS};
 * without them {@code AgentBuilder.build()} fails with an {@link dev.baton.InvalidOptionException}
 * naming the capability and the store. Growth: an SPI method added after 0.1.0 comes with a new
 * constant here (see {@link SnapshotStore}), so a {@code switch} over this enum needs a
 * {@code default}.
 *
 * <p>Immutable and thread-safe.
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
     * instance ({@code AgentBuilder#useStoreClock()}).
     */
    STORE_CLOCK,
    /**
     * {@link SnapshotStore#memory()} returns a {@link MemoryStore} in the same
     * database: threads and their messages for agents with a {@code Memory}. Proven by the TCK's
     * {@code MemoryStoreContract}.
     */
    THREAD_MEMORY,
    /**
     * The audit trail of decisions: {@link SnapshotStore#compareAndSet(long, RunSnapshot, java.util.List)} and
     * {@link SnapshotStore#delete(String, long, java.util.List)} store {@link DecisionRecord}s in the same
     * atomic write as the run's change, and {@link SnapshotStore#listDecisions},
     * {@link SnapshotStore#findDecision} and {@link SnapshotStore#purgeDecisions} read and remove them.
     * Proven by the TCK's {@code DecisionContract}. Without it, an agent works as before but records no
     * decisions, and {@code Agent.listDecisions} refuses with an {@link UnsupportedOperationException}
     * naming the store.
     */
    DECISIONS,
    /**
     * The store is the outbox of notifications: it keeps {@link RunSnapshot#notifyAt()} and
     * {@link RunSnapshot#notifyState()}, finds due notifications on an index
     * ({@link SnapshotStore#listNotificationsDue}) and moves them atomically without a new version
     * ({@link SnapshotStore#updateNotification}). An agent with notifications needs it. Proven by
     * the TCK's {@code LifecycleContract.Notifications}.
     */
    NOTIFICATIONS
}
