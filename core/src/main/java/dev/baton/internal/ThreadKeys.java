package dev.baton.internal;

import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Thread ids are scoped by resource: a thread is identified by its resource and its thread id, so
 * alice's thread {@code t1} and carol's thread {@code t1} are two threads, and neither resource can
 * see, find or block the other's. A store keeps a thread under the key core gives it (the
 * {@code threadId} of every {@link MemoryStore} method, and {@link MemoryThread#id()} at the SPI):
 * <ul>
 *   <li>a thread of a resource: {@code resourceId + U+001F + threadId}; ids hold no control
 *       character ({@code dev.baton.Ids}), so the key is unambiguous, and at most
 *       {@value #MAX_KEY_BYTES} UTF-8 bytes;</li>
 *   <li>a thread without a resource: the thread id itself.</li>
 * </ul>
 * A thread a build before thread scoping stored for a resource under its bare thread id is still
 * that resource's thread: when the scoped key holds nothing, core looks there and takes it only if
 * it belongs to the same resource. Not API.
 */
public final class ThreadKeys {
    /** Between the resource id and the thread id in a key: a control character, which no id holds. */
    public static final char SEPARATOR = '\u001F';
    /** The longest key: two ids of 255 UTF-8 bytes and the separator. */
    public static final int MAX_KEY_BYTES = 2 * dev.baton.Ids.MAX_BYTES + 1;

    private ThreadKeys() {
    }

    /**
     * The key a store keeps a thread under.
     *
     * @param resourceId the thread's resource, or null for a thread without one
     * @param threadId   the thread id (a run's {@code threadId})
     * @return the key
     */
    public static String key(@Nullable String resourceId, String threadId) {
        return resourceId == null ? threadId : resourceId + SEPARATOR + threadId;
    }

    /**
     * The thread id a key stands for.
     *
     * @param key a key of {@link #key}, or a bare thread id
     * @return the thread id people and runs name it by
     */
    public static String threadId(String key) {
        int at = key.indexOf(SEPARATOR);
        return at < 0 ? key : key.substring(at + 1);
    }

    /**
     * The thread as applications see it: its own thread id, not the key it is stored under.
     *
     * @param stored the thread as the store returned it
     * @return the same thread with {@code id} the thread id
     */
    public static MemoryThread shown(MemoryThread stored) {
        String id = threadId(stored.id());
        return id.equals(stored.id()) ? stored : stored.toBuilder().id(id).build();
    }

    /**
     * The stored thread {@code threadId} of {@code resourceId}, as the store keeps it (its id the key):
     * under its key, or, for a resource, a thread stored before thread scoping under the bare thread
     * id if it belongs to that resource. For no resource, the thread under the bare id whoever owns
     * it: the caller checks the owner.
     *
     * @param store      the memory store
     * @param resourceId the resource, or null
     * @param threadId   the thread id
     * @return the stored thread, or empty
     */
    public static Optional<MemoryThread> find(MemoryStore store, @Nullable String resourceId, String threadId) {
        Optional<MemoryThread> scoped = store.findThread(key(resourceId, threadId));
        if (scoped.isPresent() || resourceId == null) return scoped;
        return store.findThread(threadId).filter(bare -> resourceId.equals(bare.resourceId()));
    }
}
