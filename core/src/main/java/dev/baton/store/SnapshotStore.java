package dev.baton.store;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Where suspended runs live. The storage SPI: small on purpose, so every rule is written once,
 * in core, and each backend only does what its database is good at.
 *
 * <p>Duties of an implementation (each an abstract method; the TCK checks all of them):
 * <ul>
 *   <li>store every field of a {@link RunSnapshot} and return it unchanged; the
 *       {@code payload} and {@code summary} text verbatim, ids literally (quotes, {@code %}, {@code *},
 *       {@code $}, unicode: no escaping, no pattern matching);</li>
 *   <li>answer {@link #list(RunQuery)} with the database's own filtering, ordering, counting
 *       and paging, on indexes (never by loading all snapshots into the JVM), and
 *       {@link #listDue} on an index of deadlines;</li>
 *   <li>make {@link #compareAndSet}, {@link #renewLease} and {@link #delete} atomic against every
 *       other writer, in this process and in others: this is what lets exactly one resume win;</li>
 *   <li>wrap driver failures in {@link dev.baton.StorageException} naming the store (and the
 *       run, for calls on one run), and never hang: use timeouts;</li>
 *   <li>declare in {@link #capabilities()} what it offers beyond these duties, and nothing more,
 *       and in {@link #queryFeatures()} the query features it implements.</li>
 * </ul>
 *
 * <p><b>Thread-safety.</b> Implementations are thread-safe: one instance serves every agent and
 * thread of a process. <b>Closing.</b> Whoever opened the store closes it: an {@code Agent} closes
 * only a store it opened itself (built without {@code store(...)}).
 *
 * <p><b>How this SPI evolves</b> (the rules every release after 0.1.0 keeps):
 * <ol>
 *   <li>The methods of 0.1.0 are the duties of every store; none becomes optional and none changes
 *       its signature within a major version.</li>
 *   <li>A method added later arrives as a {@code default} method that throws
 *       {@link UnsupportedOperationException}, together with a new {@link StoreCapability}. A store
 *       implements the method and declares the capability together; the TCK tests a capability's
 *       methods on the stores that declare it. Core checks the capabilities an agent needs when the
 *       agent is built ({@code AgentBuilder.build()}), and fails there with a message naming the
 *       capability and the store, never later at run time. (Today: {@link #now()} with
 *       {@link StoreCapability#STORE_CLOCK}, {@link #memory()} with {@link StoreCapability#THREAD_MEMORY}, the decision methods with
 *       {@link StoreCapability#DECISIONS}, {@link #listNotificationsDue} and {@link #updateNotification} with
 *       {@link StoreCapability#NOTIFICATIONS}.)</li>
 *   <li>A filter or order added to {@link RunQuery} arrives with a new {@link QueryFeature}. A store
 *       declares it in {@link #queryFeatures()} once it implements it; core refuses a query that uses
 *       a feature the store did not declare, before calling the store, so no filter is ever silently
 *       ignored.</li>
 *   <li>{@link RunSnapshot} and {@link RunQuery} are classes with builders: a field added later has
 *       a default, so a store compiled against an earlier version keeps compiling and keeps its meaning.</li>
 * </ol>
 */
public interface SnapshotStore extends AutoCloseable {

    /**
     * Stores a new run.
     *
     * @param snapshot the run, at version 1
     * @return {@code false}, storing nothing, if a run with this id already exists
     */
    boolean insert(RunSnapshot snapshot);

    /**
     * The run with this id, whatever its agent or status; core applies scoping.
     *
     * @param runId the run's id
     * @return the stored run, or empty
     */
    Optional<RunSnapshot> find(String runId);

    /**
     * Atomically replaces the stored run if and only if its version is {@code expectedVersion}.
     * {@code replacement.version()} is {@code expectedVersion + 1}; its runId, agentId,
     * threadId, resourceId and createdAt equal the stored ones.
     *
     * @param expectedVersion the version the caller read
     * @param replacement     the new state of the run
     * @return {@code true} if replaced; {@code false} if the run is missing or its version differs
     *         (the race was lost), changing nothing
     */
    boolean compareAndSet(long expectedVersion, RunSnapshot replacement);

    /**
     * Atomically deletes the run if and only if its version is {@code expectedVersion}.
     *
     * @param runId           the run's id
     * @param expectedVersion the version the caller read
     * @return {@code true} if deleted; {@code false} if missing or at another version
     */
    boolean delete(String runId, long expectedVersion);

    /**
     * Filters, orders, counts and pages in the backend, as {@link RunQuery} describes. Core only
     * passes queries whose {@link RunQuery#features()} this store declared.
     *
     * @param query the conditions, validated by core
     * @return the page and the total
     */
    RunPage list(RunQuery query);

    /**
     * The runs of {@code agentId} whose wait has expired: {@code expiresAt <= now} and suspended as
     * of {@code now} (a run under a live lease is not due), soonest deadline first (ties by runId
     * ascending), at most {@code limit}. An index range on {@code (agentId, expiresAt)}, never a
     * scan. Payloads may be left out (empty), as with {@code withPayload(false)}. The TCK's
     * {@code LifecycleContract} checks it.
     *
     * @param agentId the agent whose runs are due
     * @param now     the instant deadlines and leases are judged at
     * @param limit   the most runs to return, at least 1
     * @return the due runs, soonest deadline first
     */
    List<RunSnapshot> listDue(String agentId, Instant now, int limit);

    /**
     * Extends the lease of a run being resumed, without rewriting anything else: atomically, if
     * and only if the stored run is at {@code expectedVersion}, {@link RunStatus#RESUMING}
     * and held by {@code owner}, sets its {@code leaseExpiresAt} to {@code newExpiry} and its
     * version to {@code expectedVersion + 1}. Every other field, the payload above all, stays as
     * stored: one native, payload-free write ({@code UPDATE ... SET lease_expires_at, version}, a
     * Lua script, {@code updateOne}). This is what the heartbeat of a long tool or model call sends.
     *
     * <p>The version moves on so that a claim decided on an earlier read (which saw the old,
     * perhaps lapsed, expiry) fails its compare-and-set instead of taking over a renewed lease.
     *
     * @param runId           the run's id
     * @param expectedVersion the version the holder last wrote
     * @param owner           the holder
     * @param newExpiry       the new lease expiry
     * @return {@code true} if renewed; {@code false}, changing nothing, if the run is missing, at
     *         another version, not resuming, or held by someone else (the lease was lost)
     */
    boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry);

    /**
     * The runs of {@code agentId} with a notification due: {@code notifyAt <= now} (inclusive), oldest
     * {@code notifyAt} first (ties by runId ascending), at most {@code limit}, whatever their status or
     * lease (core clears {@code notifyAt} in every write that ends or takes over a wait). An index range
     * on {@code (agentId, notifyAt)}, never a scan. Payloads may be left out (empty). Only for stores
     * with {@link StoreCapability#NOTIFICATIONS}; the TCK's {@code LifecycleContract.Notifications} checks it.
     *
     * @param agentId the agent whose runs to look at, matched literally
     * @param now     the instant {@code notifyAt} is judged at
     * @param limit   the most runs to return, at least 1
     * @return the runs with a notification due, oldest first
     * @throws UnsupportedOperationException if the store does not declare {@code NOTIFICATIONS} (the default)
     */
    default List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        throw new UnsupportedOperationException(describe() + " keeps no notifications (capability NOTIFICATIONS)");
    }

    /**
     * Claims, reschedules, completes or gives up a notification: atomically, if and only if the run is
     * stored at {@code expectedVersion} and its {@code notifyAt} equals {@code expectedNotifyAt}, sets
     * its {@code notifyAt} and {@code notifyState} to the given values (null clears them). The version
     * does <em>not</em> change and no other field is touched: one native, payload-free write. So a
     * notifier never makes a decision's compare-and-set fail, and any write of core (which carries its
     * own {@code notifyAt}) overrides a notifier's update.
     *
     * <p>A claim moves {@code notifyAt} forward (to when the claim lapses); of several instances that
     * read the same due run, exactly one claim succeeds. An instance that dies after its claim leaves
     * the notification due again at that time: delivery is at least once.
     *
     * @param runId            the run's id
     * @param expectedVersion  the version the caller read
     * @param expectedNotifyAt the {@code notifyAt} the caller read (not null)
     * @param notifyAt         the new {@code notifyAt}, or null when nothing more is due
     * @param notifyState      the new {@code notifyState}, stored verbatim, or null
     * @return {@code true} if updated; {@code false}, changing nothing, if the run is missing, at another
     *         version, or its {@code notifyAt} differs (another instance claimed it, or the wait ended)
     * @throws UnsupportedOperationException if the store does not declare {@code NOTIFICATIONS} (the default)
     */
    default boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt,
            @Nullable Instant notifyAt, @Nullable String notifyState) {
        throw new UnsupportedOperationException(describe() + " keeps no notifications (capability NOTIFICATIONS)");
    }

    /**
     * Thread memory kept in the same database, if this store offers it
     * ({@link StoreCapability#THREAD_MEMORY}): an agent with a {@code Memory} and this store reads
     * and writes its threads there. The default offers none.
     *
     * @return the memory store; present exactly when {@code THREAD_MEMORY} is declared
     */
    default Optional<MemoryStore> memory() {
        return Optional.empty();
    }

    /**
     * The store's own clock: the database's {@code now()}, Redis {@code TIME}, MongoDB's server
     * time. One clock for every instance, so leases can be judged without trusting each server's
     * wall clock. Only for stores with {@link StoreCapability#STORE_CLOCK}.
     *
     * @return the store's current time
     * @throws UnsupportedOperationException if the store has no clock of its own (the default)
     * @throws dev.baton.StorageException    if the store cannot be reached
     */
    default Instant now() {
        throw new UnsupportedOperationException(describe() + " has no clock of its own (capability STORE_CLOCK)");
    }

    // ---- decisions (StoreCapability.DECISIONS) ---------------------------------------------------

    /**
     * {@link #compareAndSet(long, RunSnapshot)} and, in the same atomic write, stores
     * {@code decisions}: either the run is replaced and every record is stored, or nothing changes
     * (a crash or failure at any point can never keep one without the other). Only for stores with
     * {@link StoreCapability#DECISIONS}.
     *
     * <p>An idempotency key is unique per agent: if a record of {@code decisions} carries a
     * {@link DecisionRecord#idempotencyKey()} already stored for its agent, the write returns
     * {@code false} and changes nothing (core then reads that record with {@link #findDecision} and
     * answers with the first outcome). A {@code decisionId} already stored is likewise refused.
     *
     * @param expectedVersion the version the caller read
     * @param replacement     the new state of the run
     * @param decisions       the records, at least one, all of the replacement's agent and run
     * @return {@code true} if replaced and recorded; {@code false}, changing nothing, if the race was
     *         lost or a key or id was taken
     * @throws UnsupportedOperationException if the store does not declare {@code DECISIONS} (the default)
     */
    default boolean compareAndSet(long expectedVersion, RunSnapshot replacement, List<DecisionRecord> decisions) {
        throw new UnsupportedOperationException(describe() + " keeps no decisions (capability DECISIONS)");
    }

    /**
     * {@link #delete(String, long)} and, in the same atomic write, stores {@code decisions}, as
     * {@link #compareAndSet(long, RunSnapshot, List)} does. The records stay after the run is gone.
     *
     * @param runId           the run's id
     * @param expectedVersion the version the caller read
     * @param decisions       the records, at least one, all of this run
     * @return {@code true} if deleted and recorded; {@code false}, changing nothing, if missing, at
     *         another version, or a key or id was taken
     * @throws UnsupportedOperationException if the store does not declare {@code DECISIONS} (the default)
     */
    default boolean delete(String runId, long expectedVersion, List<DecisionRecord> decisions) {
        throw new UnsupportedOperationException(describe() + " keeps no decisions (capability DECISIONS)");
    }

    /**
     * The decisions matching {@code query}, newest first, one page, filtered, ordered and paged by
     * the database on indexes: one index per query shape (by agent; by agent and run, thread,
     * resource or actor; each ordered by {@code decidedAt, decisionId}), never a scan of other
     * agents' records. See {@link DecisionQuery}.
     *
     * @param query the conditions, validated by core
     * @return the page
     * @throws UnsupportedOperationException if the store does not declare {@code DECISIONS} (the default)
     */
    default DecisionPage listDecisions(DecisionQuery query) {
        throw new UnsupportedOperationException(describe() + " keeps no decisions (capability DECISIONS)");
    }

    /**
     * The record of {@code agentId} that carries this idempotency key (keys are unique per agent),
     * whether its run still exists or not. A point lookup on a unique index.
     *
     * @param agentId        the agent
     * @param idempotencyKey the key, exactly
     * @return the record, or empty
     * @throws UnsupportedOperationException if the store does not declare {@code DECISIONS} (the default)
     */
    default Optional<DecisionRecord> findDecision(String agentId, String idempotencyKey) {
        throw new UnsupportedOperationException(describe() + " keeps no decisions (capability DECISIONS)");
    }

    /**
     * Deletes at most {@code limit} records of {@code agentId} decided strictly before
     * {@code olderThan}, oldest first, on the {@code (agentId, decidedAt)} index. Core calls it
     * repeatedly until it returns less than {@code limit}. Runs are not touched.
     *
     * @param agentId   the agent
     * @param olderThan records with {@code decidedAt < olderThan} go
     * @param limit     the most records to delete in this call, at least 1
     * @return how many were deleted
     * @throws UnsupportedOperationException if the store does not declare {@code DECISIONS} (the default)
     */
    default int purgeDecisions(String agentId, Instant olderThan, int limit) {
        throw new UnsupportedOperationException(describe() + " keeps no decisions (capability DECISIONS)");
    }

    /**
     * What this store offers beyond the duties every store has; none by default.
     *
     * @return the capabilities, each proven by the TCK's matching contract
     */
    default Set<StoreCapability> capabilities() {
        return Set.of();
    }

    /**
     * The {@link RunQuery} features this store implements. The default, {@link QueryFeature#BASELINE},
     * is what every store implements; a store overrides it only to add features of later releases.
     *
     * @return the features, containing at least {@code BASELINE}
     */
    default Set<QueryFeature> queryFeatures() {
        return EnumSet.of(QueryFeature.BASELINE);
    }

    /**
     * A short human description for messages and logs.
     *
     * @return e.g. {@code "PostgreSQL jdbc:postgresql://db/app"}; the class name by default
     */
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
