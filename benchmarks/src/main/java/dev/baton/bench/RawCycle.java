package dev.baton.bench;

/**
 * The statements of one suspend-then-approve cycle, by hand, on one connection of one benchmark
 * thread: the floor a cycle through Baton is measured against ({@link RawCycleBenchmark}). It
 * replays a {@link CycleTemplate}: the same rows, fields, index entries and payload sizes as Baton,
 * in the store's own table or key layout, with none of Baton's work (no JSON, no snapshot objects,
 * no pool, no model or tool).
 */
interface RawCycle extends AutoCloseable {
    /** The whole cycle on a new run {@code runId}: insert, find, claim with its decision record, result, delete. */
    void cycle(String runId);

    /** The suspension alone: the insert of run {@code runId}. */
    void suspend(String runId);

    /** The claim alone on run {@code runId}, inserted just before: the compare-and-set and the decision record, atomically. */
    void claim(String runId);

    /**
     * The notification write alone on run {@code runId}, stored at {@code version} with {@code expectedNotifyAt}: moves
     * its {@code notifyAt} to {@code notifyAt} and sets {@code notifyState}, only if both still hold (what
     * {@code SnapshotStore.updateNotification} does).
     */
    void notify(String runId, long version, java.time.Instant expectedNotifyAt, java.time.Instant notifyAt, String notifyState);

    /** Removes run {@code runId} (inserted by {@link #suspend} or left by {@link #claim}), whatever its version. */
    void remove(String runId);

    @Override
    void close();
}
