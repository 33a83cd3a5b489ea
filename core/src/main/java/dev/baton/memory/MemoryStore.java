package dev.baton.memory;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where memory threads and their messages live: the storage SPI of thread memory, implemented by
 * each store module beside its {@link dev.baton.store.SnapshotStore} and reached through
 * {@link dev.baton.store.SnapshotStore#memory()} (same URL, same connection pool).
 *
 * <p>Duties of an implementation (the TCK's {@code MemoryStoreContract} checks them):
 * <ul>
 *   <li>ids, titles, metadata and message contents stored and returned verbatim;</li>
 *   <li>{@link #append} atomic per call, in order, O(1) in the length of the thread (a per-thread
 *       counter, not a scan), giving every message a {@code seq} greater than any before it in the
 *       thread, and skipping a message whose {@code (runId, runIndex)} the thread already has; two
 *       appends to one thread at the same time lose nothing and interleave whole;</li>
 *   <li>{@link #lastMessages} and {@link #listMessages} an index range on {@code (threadId, seq)};
 *       {@link #listThreads} an index range on {@code (resourceId, updatedAt)}, with the total;</li>
 *   <li>{@link #deleteThread} removes the thread and all its messages;</li>
 *   <li>driver failures wrapped in {@link dev.baton.StorageException}, with timeouts.</li>
 * </ul>
 */
public interface MemoryStore {

    /**
     * Stores a new thread.
     *
     * @return false, storing nothing, if a thread with this id exists
     */
    boolean createThread(MemoryThread thread);

    /** The thread with this id. */
    Optional<MemoryThread> findThread(String threadId);

    /**
     * Replaces the thread's title, metadata and update time (its owner and creation time stay).
     *
     * @return false if there is no such thread
     */
    boolean updateThread(MemoryThread thread);

    /**
     * The threads of {@code resourceId}, newest update first (ties by id descending), from
     * {@code offset}, at most {@code limit} ({@code 0}: only the total).
     */
    ThreadPage listThreads(String resourceId, long offset, int limit);

    /**
     * Deletes the thread and every message in it.
     *
     * @return false if there was no such thread
     */
    boolean deleteThread(String threadId);

    /**
     * Appends {@code messages} in order to the thread, skipping any whose {@code (runId, runIndex)}
     * the thread already has, and sets the thread's update time to {@code at}.
     *
     * @return false, appending nothing, if there is no such thread
     */
    boolean append(String threadId, List<StoredMessage.New> messages, Instant at);

    /** The last {@code n} messages of the thread (highest {@code seq}), oldest first. */
    List<StoredMessage> lastMessages(String threadId, int n);

    /** The thread's messages, oldest first, from {@code offset}, at most {@code limit} ({@code 0}: only the total). */
    StoredMessagePage listMessages(String threadId, long offset, int limit);
}
