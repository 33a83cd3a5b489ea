package dev.baton.tck.support;

import dev.baton.StorageException;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A store wrapper that injects faults, for recovery tests: it counts every write (insert,
 * compare-and-set, lease renewal, delete) and can make "the process die" at write N, before or
 * after the write reaches the store, by throwing {@link SimulatedCrash}. After that crash every call
 * through this wrapper throws it again: the process is dead, so nothing it left running (a
 * heartbeat, a timer) can write any more. It can also make chosen runs' writes slow, or fail once
 * with a {@link StorageException}. Reads pass through. Use one wrapper per simulated process, over
 * the real store that outlives it. Not API.
 */
public final class FaultyStore implements SnapshotStore {

    /**
     * One write that reached the store (or was about to): what it was and what it wrote.
     *
     * @param number    1-based, in the order the writes were made
     * @param operation {@code insert}, {@code compare-and-set}, {@code delete}, {@code renew-lease}, or a memory write
     * @param runId     the run (or thread) written
     * @param status    the status written, if any
     * @param payload   the payload written (empty for deletes and renewals)
     */
    public record Write(int number, String operation, String runId, String status, String payload) {
    }

    private final SnapshotStore store;
    private final AtomicInteger writes = new AtomicInteger();
    private final List<Write> log = Collections.synchronizedList(new ArrayList<>());
    private volatile int crashAt = Integer.MAX_VALUE;
    private volatile boolean crashAfter;
    private volatile boolean dead;
    private volatile Predicate<String> slowRuns = id -> false;
    private volatile Duration slowBy = Duration.ZERO;
    private volatile Predicate<String> failOnce = null;

    /**
     * A wrapper over {@code store}, which it never closes.
     *
     * @param store the real store, which outlives the simulated process
     */
    public FaultyStore(SnapshotStore store) {
        this.store = store;
    }

    /**
     * Dies at write {@code n} (1-based): before it reaches the store, or just after.
     *
     * @param n             the write to die at
     * @param afterTheWrite true to die just after the write reached the store
     * @return this wrapper
     */
    public FaultyStore crashAt(int n, boolean afterTheWrite) {
        this.crashAt = n;
        this.crashAfter = afterTheWrite;
        return this;
    }

    /**
     * Every write of a run matching {@code runs} first waits {@code by}.
     *
     * @param runs the runs whose writes are slow
     * @param by   how long each waits
     * @return this wrapper
     */
    public FaultyStore slowWrites(Predicate<String> runs, Duration by) {
        this.slowRuns = runs;
        this.slowBy = by;
        return this;
    }

    /**
     * The next write of a run matching {@code runs} fails with a {@link StorageException}, changing nothing.
     *
     * @param runs the runs whose next write fails
     * @return this wrapper
     */
    public FaultyStore failNextWrite(Predicate<String> runs) {
        this.failOnce = runs;
        return this;
    }

    /**
     * How many writes were made (or attempted) through this wrapper.
     *
     * @return the count
     */
    public int writes() {
        return writes.get();
    }

    /**
     * Every write in order, with the payload it wrote (empty for deletes and renewals).
     *
     * @return a copy of the log
     */
    public List<Write> log() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    /**
     * Whether the simulated process died.
     *
     * @return true once it did
     */
    public boolean dead() {
        return dead;
    }

    private interface Op<T> {
        T run();
    }

    private <T> T write(String operation, String runId, String status, String payload, Op<T> op) {
        if (dead) throw new SimulatedCrash("the process is dead");
        Predicate<String> fail = failOnce;
        if (fail != null && fail.test(runId)) {
            failOnce = null;
            throw new StorageException("FaultyStore: " + operation + " of run '" + runId + "' failed (injected)");
        }
        if (slowRuns.test(runId)) {
            try {
                Thread.sleep(slowBy.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StorageException("FaultyStore: interrupted while slow", e);
            }
        }
        int n = writes.incrementAndGet();
        if (n == crashAt && !crashAfter) {
            dead = true;
            throw new SimulatedCrash("crash before write " + n + " (" + operation + " of run " + runId + ")");
        }
        T result = op.run();
        log.add(new Write(n, operation, runId, status, payload));
        if (n == crashAt) {
            dead = true;
            throw new SimulatedCrash("crash after write " + n + " (" + operation + " of run " + runId + ")");
        }
        return result;
    }

    private void alive() {
        if (dead) throw new SimulatedCrash("the process is dead");
    }

    @Override
    public boolean insert(RunSnapshot s) {
        return write("insert", s.runId(), s.status().name(), s.payload(), () -> store.insert(s));
    }

    @Override
    public Optional<RunSnapshot> find(String runId) {
        alive();
        return store.find(runId);
    }

    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot s) {
        return write("compare-and-set", s.runId(), s.status().name(), s.payload(), () -> store.compareAndSet(expectedVersion, s));
    }

    @Override
    public boolean delete(String runId, long expectedVersion) {
        return write("delete", runId, "", "", () -> store.delete(runId, expectedVersion));
    }

    @Override
    public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        return write("renew-lease", runId, "RESUMING", "", () -> store.renewLease(runId, expectedVersion, owner, newExpiry));
    }

    @Override
    public RunPage list(RunQuery query) {
        alive();
        return store.list(query);
    }

    @Override
    public Instant now() {
        alive();
        return store.now();
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return store.capabilities();
    }

    /** The wrapped store's query features: a wrapper must forward them, or core refuses queries the store answers. */
    @Override
    public Set<dev.baton.store.QueryFeature> queryFeatures() {
        return store.queryFeatures();
    }

    @Override
    public java.util.List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        alive();
        return store.listDue(agentId, now, limit);
    }

    @Override
    public java.util.List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        alive();
        return store.listNotificationsDue(agentId, now, limit);
    }

    @Override
    public boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt,
            @org.jspecify.annotations.Nullable Instant notifyAt, @org.jspecify.annotations.Nullable String notifyState) {
        return write("update-notification", runId, "", "", () -> store.updateNotification(runId, expectedVersion,
                expectedNotifyAt, notifyAt, notifyState));
    }

    /** The store's thread memory, with its writes (creating a thread, appending) counted and crashable like the rest. */
    @Override
    public Optional<dev.baton.store.MemoryStore> memory() {
        return store.memory().map(m -> new dev.baton.store.MemoryStore() {
            public boolean createThread(dev.baton.store.MemoryThread t) {
                return write("create-thread", t.id(), "", "", () -> m.createThread(t));
            }

            public Optional<dev.baton.store.MemoryThread> findThread(String id) {
                alive();
                return m.findThread(id);
            }

            public boolean updateThread(dev.baton.store.MemoryThread t) {
                return write("update-thread", t.id(), "", "", () -> m.updateThread(t));
            }

            public dev.baton.store.ThreadPage listThreads(String resourceId, long offset, int limit) {
                alive();
                return m.listThreads(resourceId, offset, limit);
            }

            public boolean deleteThread(String id) {
                return write("delete-thread", id, "", "", () -> m.deleteThread(id));
            }

            public boolean append(String threadId, java.util.List<dev.baton.store.StoredMessage.New> messages, Instant at) {
                return write("append", threadId, "", "", () -> m.append(threadId, messages, at));
            }

            public java.util.List<dev.baton.store.StoredMessage> lastMessages(String threadId, int n) {
                alive();
                return m.lastMessages(threadId, n);
            }

            public dev.baton.store.StoredMessagePage listMessages(String threadId, long offset, int limit) {
                alive();
                return m.listMessages(threadId, offset, limit);
            }
        });
    }

    @Override
    public String describe() {
        return "faulty " + store.describe();
    }

    /** Does not close the wrapped store: it outlives the simulated process. */
    @Override
    public void close() {
        dead = true;
    }
}
