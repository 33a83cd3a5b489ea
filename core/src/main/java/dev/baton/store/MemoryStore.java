package dev.baton.store;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where memory threads and their messages live: the storage SPI of thread memory, implemented by
 * each store module beside its {@link SnapshotStore} and reached through
 * {@link SnapshotStore#memory()} (same URL, same connection pool).
 *
 * <p><b>Thread keys.</b> Thread ids are scoped by resource: alice's thread {@code t1} and carol's
 * thread {@code t1} are two threads. Core keeps that rule once, for every store, by the key it gives a
 * thread: the {@code threadId} of every method here, {@link MemoryThread#id()} of the threads it
 * stores and {@link StoredMessage#threadId()}, is {@code resourceId + U+001F + threadId} for a thread
 * of a resource, and the thread id itself for a thread without one. A store treats the key as an
 * opaque string: it keeps keys of up to 511 UTF-8 bytes (two ids of 255 bytes and the separator),
 * holding that control character, verbatim, and matches them literally.
 *
 * <p>Duties of an implementation (each an abstract method; the TCK's {@code MemoryStoreContract}
 * checks them):
 * <ul>
 *   <li>thread keys (up to 511 UTF-8 bytes, see above), ids, titles, metadata and message contents
 *       stored and returned verbatim;</li>
 *   <li>{@link #append} atomic per call, in order, O(1) in the length of the thread (a per-thread
 *       counter, not a scan), giving every message a {@code seq} greater than any before it in the
 *       thread, and skipping a message whose {@code (runId, runIndex)} the thread already has;</li>
 *   <li>{@link #lastMessages} and {@link #listMessages} an index range on {@code (threadId, seq)};
 *       {@link #listThreads} an index range on {@code (resourceId, updatedAt)}, with the total;</li>
 *   <li>{@link #deleteThread} removes the thread and all its messages;</li>
 *   <li>driver failures wrapped in {@link dev.baton.StorageException}, with timeouts.</li>
 * </ul>
 *
 * <p><b>Thread-safety duty.</b> Implementations are thread-safe, and correct under concurrent use
 * from many threads and processes: two appends to one thread at the same time lose nothing and
 * interleave whole (each call's messages stay together, in order, with increasing {@code seq});
 * two {@link #createThread} calls with one id create it once (one returns false); an append racing
 * a {@link #deleteThread} either lands before the delete (and is deleted) or returns false. The
 * {@code MemoryStoreContract}'s concurrency tests name this duty.
 *
 * <p><b>How this SPI evolves</b>: as {@link SnapshotStore}'s. The methods of 0.1.0 are duties; a
 * method added later arrives as a {@code default} that throws {@link UnsupportedOperationException},
 * together with a new {@link StoreCapability} declared by the {@code SnapshotStore} whose
 * {@code memory()} returns this store, and core checks it when an agent is built.
 * {@link MemoryThread} and {@link StoredMessage} are classes with builders, so they can gain fields.
 */
public interface MemoryStore {

    /**
     * Stores a new thread.
     *
     * @param thread the thread
     * @return false, storing nothing, if a thread with this id exists
     */
    boolean createThread(MemoryThread thread);

    /**
     * The thread with this id.
     *
     * @param threadId the thread's id
     * @return the thread, or empty
     */
    Optional<MemoryThread> findThread(String threadId);

    /**
     * Replaces the thread's title, metadata and update time (its owner and creation time stay).
     *
     * @param thread the thread with its new title, metadata and update time
     * @return false if there is no such thread
     */
    boolean updateThread(MemoryThread thread);

    /**
     * The threads of {@code resourceId}, newest update first (ties by id descending), from
     * {@code offset}, at most {@code limit} ({@code 0}: only the total).
     *
     * @param resourceId the owner
     * @param offset     how many threads to skip
     * @param limit      the most threads to return
     * @return the page and the total
     */
    ThreadPage listThreads(String resourceId, long offset, int limit);

    /**
     * Deletes the thread and every message in it.
     *
     * @param threadId the thread's id
     * @return false if there was no such thread
     */
    boolean deleteThread(String threadId);

    /**
     * Appends {@code messages} in order to the thread, skipping any whose {@code (runId, runIndex)}
     * the thread already has, and sets the thread's update time to {@code at}.
     *
     * @param threadId the thread's id
     * @param messages the messages, in order
     * @param at       the new update time of the thread and the messages' creation time
     * @return false, appending nothing, if there is no such thread
     */
    boolean append(String threadId, List<StoredMessage.New> messages, Instant at);

    /**
     * The last {@code n} messages of the thread (highest {@code seq}), oldest first.
     *
     * @param threadId the thread's id
     * @param n        how many
     * @return at most {@code n} messages, oldest first
     */
    List<StoredMessage> lastMessages(String threadId, int n);

    /**
     * The thread's messages, oldest first, from {@code offset}, at most {@code limit} ({@code 0}: only the total).
     *
     * @param threadId the thread's id
     * @param offset   how many messages to skip
     * @param limit    the most messages to return
     * @return the page and the thread's message count
     */
    StoredMessagePage listMessages(String threadId, long offset, int limit);
}
