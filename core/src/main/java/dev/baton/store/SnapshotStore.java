package dev.baton.store;

import java.util.Optional;

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
 *   <li>wrap driver failures in {@link dev.baton.StorageException} naming the store, and
 *       never hang: use timeouts.</li>
 * </ul>
 * Implementations are thread-safe. The TCK ({@code baton-tck}) checks all of this.
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

    /** A short human description for messages and logs, e.g. {@code "PostgreSQL jdbc:postgresql://db/app"}. */
    default String describe() {
        return getClass().getSimpleName();
    }

    /** Releases what the store opened itself (pools, clients). Never closes a client the user passed in. */
    @Override
    void close();
}
