package dev.baton.store.memory;

import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.StoredMessage;
import dev.baton.store.StoredMessagePage;
import dev.baton.store.ThreadPage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

/**
 * The thread memory of a {@link MemorySnapshotStore}, in the JVM's memory and lost with it, reached
 * through {@link MemorySnapshotStore#memory()}. Every handle on one named store sees the same threads.
 *
 * <p>One lock guards all threads: appends are whole and in order, reads see whole appends. A thread
 * keeps its messages in an array in {@code seq} order ({@code seq} is the position plus one: no
 * message is ever removed from a thread, only the whole thread), so the last messages and any page
 * are found by position, and a set of {@code (runId, runIndex)} makes an append idempotent in O(1).
 * A resource's threads are in a counted tree by {@code (updatedAt DESC, id DESC)}, so a page with its
 * total is O(log n + page). Threads and messages are immutable values (metadata and contents are
 * JSON text), so they are kept and handed out as they are.
 */
final class InMemoryMemoryStore implements MemoryStore {

    /** The threads of one store, shared by every handle on it. */
    static final class Threads {
        final ReadWriteLock lock = new ReentrantReadWriteLock();
        final Map<String, ThreadState> byId = new HashMap<>();
        final Map<String, CountedTree<Listed, MemoryThread>> byResource = new HashMap<>();
    }

    /** One thread: the thread itself, its messages in seq order, and which run messages it has. */
    private static final class ThreadState {
        MemoryThread thread;
        final List<StoredMessage> messages = new ArrayList<>();
        final Set<RunMessage> appended = new HashSet<>();

        ThreadState(MemoryThread thread) {
            this.thread = thread;
        }
    }

    private record RunMessage(String runId, int runIndex) {
    }

    /** A place in a resource's listing: newest update first, then id descending. */
    private record Listed(Instant updatedAt, String id) implements Comparable<Listed> {
        static Listed of(MemoryThread t) {
            return new Listed(t.updatedAt(), t.id());
        }

        @Override
        public int compareTo(Listed o) {
            int c = o.updatedAt.compareTo(updatedAt);
            return c != 0 ? c : o.id.compareTo(id);
        }
    }

    private final Threads data;
    private final Consumer<String> checkOpen;

    /**
     * @param data      the store's threads
     * @param checkOpen throws the store's "closed" exception for the named operation once the handle is closed
     */
    InMemoryMemoryStore(Threads data, Consumer<String> checkOpen) {
        this.data = data;
        this.checkOpen = checkOpen;
    }

    @Override
    public boolean createThread(MemoryThread thread) {
        checkOpen.accept("createThread");
        Objects.requireNonNull(thread, "thread");
        data.lock.writeLock().lock();
        try {
            if (data.byId.containsKey(thread.id())) return false;
            data.byId.put(thread.id(), new ThreadState(thread));
            list(thread);
            return true;
        } finally {
            data.lock.writeLock().unlock();
        }
    }

    @Override
    public Optional<MemoryThread> findThread(String threadId) {
        checkOpen.accept("findThread");
        data.lock.readLock().lock();
        try {
            ThreadState t = data.byId.get(threadId);
            return t == null ? Optional.empty() : Optional.of(t.thread);
        } finally {
            data.lock.readLock().unlock();
        }
    }

    @Override
    public boolean updateThread(MemoryThread thread) {
        checkOpen.accept("updateThread");
        data.lock.writeLock().lock();
        try {
            ThreadState t = data.byId.get(thread.id());
            if (t == null) return false;
            touch(t, t.thread.updated(thread.title(), thread.metadataJson(), thread.updatedAt()));
            return true;
        } finally {
            data.lock.writeLock().unlock();
        }
    }

    @Override
    public ThreadPage listThreads(String resourceId, long offset, int limit) {
        checkOpen.accept("listThreads");
        Objects.requireNonNull(resourceId, "resourceId");
        checkPage(offset, limit);
        data.lock.readLock().lock();
        try {
            CountedTree<Listed, MemoryThread> listed = data.byResource.get(resourceId);
            if (listed == null) return new ThreadPage(List.of(), 0);
            List<MemoryThread> page = new ArrayList<>(Math.min(limit, 64));
            if (limit > 0 && offset < listed.size()) {
                Iterator<MemoryThread> it = listed.valuesFrom((int) offset);
                while (page.size() < limit && it.hasNext()) page.add(it.next());
            }
            return new ThreadPage(page, listed.size());
        } finally {
            data.lock.readLock().unlock();
        }
    }

    @Override
    public boolean deleteThread(String threadId) {
        checkOpen.accept("deleteThread");
        data.lock.writeLock().lock();
        try {
            ThreadState t = data.byId.remove(threadId);
            if (t == null) return false;
            unlist(t.thread);
            return true;
        } finally {
            data.lock.writeLock().unlock();
        }
    }

    @Override
    public boolean append(String threadId, List<StoredMessage.New> messages, Instant at) {
        checkOpen.accept("append");
        Objects.requireNonNull(at, "at");
        List<StoredMessage.New> batch = List.copyOf(messages);
        data.lock.writeLock().lock();
        try {
            ThreadState t = data.byId.get(threadId);
            if (t == null) return false;
            for (StoredMessage.New m : batch) {
                if (!t.appended.add(new RunMessage(m.runId(), m.runIndex()))) continue;
                t.messages.add(StoredMessage.builder().threadId(threadId).seq(t.messages.size() + 1L).runId(m.runId())
                        .runIndex(m.runIndex()).role(m.role()).content(m.content()).createdAt(at).build());
            }
            touch(t, t.thread.updated(t.thread.title(), t.thread.metadataJson(), at));
            return true;
        } finally {
            data.lock.writeLock().unlock();
        }
    }

    @Override
    public List<StoredMessage> lastMessages(String threadId, int n) {
        checkOpen.accept("lastMessages");
        if (n < 0) throw new IllegalArgumentException("n must be >= 0, was " + n);
        data.lock.readLock().lock();
        try {
            ThreadState t = data.byId.get(threadId);
            if (t == null) return List.of();
            int size = t.messages.size();
            return List.copyOf(t.messages.subList(Math.max(0, size - n), size));
        } finally {
            data.lock.readLock().unlock();
        }
    }

    @Override
    public StoredMessagePage listMessages(String threadId, long offset, int limit) {
        checkOpen.accept("listMessages");
        checkPage(offset, limit);
        data.lock.readLock().lock();
        try {
            ThreadState t = data.byId.get(threadId);
            if (t == null) return new StoredMessagePage(List.of(), 0);
            int size = t.messages.size();
            int from = (int) Math.min(offset, size);
            int to = (int) Math.min((long) from + limit, size);
            return new StoredMessagePage(t.messages.subList(from, to), size);
        } finally {
            data.lock.readLock().unlock();
        }
    }

    /** Replaces the thread and moves it in its resource's listing. */
    private void touch(ThreadState t, MemoryThread updated) {
        unlist(t.thread);
        t.thread = updated;
        list(updated);
    }

    private void list(MemoryThread t) {
        if (t.resourceId() == null) return;
        data.byResource.computeIfAbsent(t.resourceId(), r -> new CountedTree<>()).put(Listed.of(t), t);
    }

    private void unlist(MemoryThread t) {
        if (t.resourceId() == null) return;
        CountedTree<Listed, MemoryThread> listed = data.byResource.get(t.resourceId());
        if (listed == null) return;
        listed.remove(Listed.of(t));
        if (listed.isEmpty()) data.byResource.remove(t.resourceId());
    }

    private static void checkPage(long offset, int limit) {
        if (offset < 0) throw new IllegalArgumentException("offset must be >= 0, was " + offset);
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
    }
}
