package dev.baton.store;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * Where suspended runs live. The storage SPI: small on purpose, so every rule is written once,
 * in core, and each backend only does what its database is good at.
 *
 * <p>Duties of an implementation:
 * <ul>
 *   <li>store every field of a {@link RunSnapshot} and return it unchanged; the
 *       {@code payload} text verbatim, ids literally (quotes, {@code %}, {@code *}, {@code $},
 *       unicode: no escaping, no pattern matching);</li>
 *   <li>answer {@link #list(RunQuery)} with the database's own filtering, ordering, counting
 *       and paging, on indexes (never by loading all snapshots into the JVM);</li>
 *   <li>make {@link #compareAndSet} and {@link #delete} atomic against every other writer,
 *       in this process and in others: this is what lets exactly one resume win;</li>
 *   <li>wrap driver failures in {@link dev.baton.StorageException} naming the store (and the
 *       run, for calls on one run), and never hang: use timeouts;</li>
 *   <li>declare in {@link #capabilities()} what it offers beyond these duties, and nothing more.</li>
 * </ul>
 * Implementations are thread-safe. The TCK ({@code baton-tck}) checks all of this, and names in
 * its report the capabilities it proved.
 */
public interface SnapshotStore extends AutoCloseable {

    /**
     * Stores a new run.
     *
     * @return {@code false}, storing nothing, if a run with this id already exists
     */
    boolean insert(RunSnapshot snapshot);

    /** The run with this id, whatever its agent or status; core applies scoping. */
    Optional<RunSnapshot> find(String runId);

    /**
     * Atomically replaces the stored run if and only if its version is {@code expectedVersion}.
     * {@code replacement.version()} is {@code expectedVersion + 1}; its runId, agentId,
     * threadId, resourceId and createdAt equal the stored ones.
     *
     * @return {@code true} if replaced; {@code false} if the run is missing or its version differs
     *         (the race was lost), changing nothing
     */
    boolean compareAndSet(long expectedVersion, RunSnapshot replacement);

    /**
     * Atomically deletes the run if and only if its version is {@code expectedVersion}.
     *
     * @return {@code true} if deleted; {@code false} if missing or at another version
     */
    boolean delete(String runId, long expectedVersion);

    /** Filters, orders, counts and pages in the backend, as {@link RunQuery} describes. */
    RunPage list(RunQuery query);

    /**
     * The runs of {@code agentId} whose wait has expired: {@code expiresAt <= now} and suspended as
     * of {@code now} (a run under a live lease is not due), soonest deadline first (ties by runId
     * ascending), at most {@code limit}. An index range on {@code (agentId, expiresAt)}, never a
     * scan. Payloads may be left out (empty), as with {@code withPayload(false)}.
     *
     * <p>The default throws {@link UnsupportedOperationException}: every Baton store implements it,
     * and the TCK's {@code LifecycleContract} checks it; without it, expiry of abandoned runs
     * ({@code agent.expireDueRuns}) is not available.
     */
    default java.util.List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        throw new UnsupportedOperationException(describe() + " cannot list runs by their deadline");
    }

    /**
     * Thread memory kept in the same database, if this store offers it
     * ({@link StoreCapability#THREAD_MEMORY}): an agent with a {@code Memory} and this store reads
     * and writes its threads there.
     */
    default Optional<dev.baton.memory.MemoryStore> memory() {
        return Optional.empty();
    }

    /**
     * Extends the lease of a run being resumed, without rewriting anything else: atomically, if
     * and only if the stored run is at {@code expectedVersion}, {@link dev.baton.agent.RunStatus#RESUMING}
     * and held by {@code owner}, sets its {@code leaseExpiresAt} to {@code newExpiry} and its
     * version to {@code expectedVersion + 1}. Every other field, the payload above all, stays as
     * stored. This is what the heartbeat of a long tool or model call sends.
     *
     * <p>The version moves on so that a claim decided on an earlier read (which saw the old,
     * perhaps lapsed, expiry) fails its compare-and-set instead of taking over a renewed lease.
     *
     * <p>The default reads the run and writes it back with {@link #compareAndSet}: correct, but it
     * sends the whole payload twice. Every Baton store overrides it with one native, payload-free
     * write ({@code UPDATE ... SET lease_expires_at, version}, a Lua script, {@code updateOne}).
     *
     * @return {@code true} if renewed; {@code false}, changing nothing, if the run is missing, at
     *         another version, not resuming, or held by someone else (the lease was lost)
     */
    default boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        Optional<RunSnapshot> current = find(runId);
        if (current.isEmpty()) return false;
        RunSnapshot s = current.get();
        if (s.version() != expectedVersion || s.status() != dev.baton.agent.RunStatus.RESUMING
                || !owner.equals(s.leaseOwner())) {
            return false;
        }
        return compareAndSet(expectedVersion, s.renewed(newExpiry));
    }

    /**
     * The store's own clock: the database's {@code now()}, Redis {@code TIME}, MongoDB's server
     * time. One clock for every instance, so leases can be judged without trusting each server's
     * wall clock. Only for stores with {@link StoreCapability#STORE_CLOCK}.
     *
     * @throws UnsupportedOperationException if the store has no clock of its own (the default)
     * @throws dev.baton.StorageException    if the store cannot be reached
     */
    default Instant now() {
        throw new UnsupportedOperationException(describe() + " has no clock of its own (capability STORE_CLOCK)");
    }

    /** What this store offers beyond the duties every store has; none by default. */
    default Set<StoreCapability> capabilities() {
        return Set.of();
    }

    /** A short human description for messages and logs, e.g. {@code "PostgreSQL jdbc:postgresql://db/app"}. */
    default String describe() {
        return getClass().getSimpleName();
    }

    /**
     * Releases what the store opened itself (pools, clients). Never closes a client the user passed
     * in. Idempotent: a second call does nothing. Every later call of another method fails with a
     * {@link dev.baton.StorageException} saying the store is closed (other stores on the same
     * database are not affected).
     */
    @Override
    void close();
}
