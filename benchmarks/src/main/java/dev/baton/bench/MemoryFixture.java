package dev.baton.bench;

import dev.baton.ThreadNotFoundException;
import dev.baton.ThreadOwnershipException;
import dev.baton.internal.MessageCodec;
import dev.baton.internal.ThreadKeys;
import dev.baton.memory.Memory;
import dev.baton.model.Message;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoredMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the memory benchmarks of one (backend, messages) share inside one JVM: the store with the
 * seeded thread memory, core's {@link Memory} on it (reading the last {@value #PAGE} messages, as a
 * run does), the raw queries, and the targets. Set by {@link MemoryRun} before JMH starts.
 */
public final class MemoryFixture {
    public static final int TARGETS = 64;
    public static final int PAGE = 20;

    static volatile @Nullable MemoryFixture current;

    public final Backend backend;
    public final MemoryData data;
    public final SnapshotStore snapshots;
    public final MemoryStore store;
    public final Memory memory;
    public final @Nullable RawMemory raw;
    final String[] threadIds = new String[TARGETS];
    /** The keys the store keeps those threads under ({@code ThreadKeys}). */
    final String[] threadKeys = new String[TARGETS];
    final String[] threadResources = new String[TARGETS];
    final String[] resourceIds = new String[TARGETS];

    MemoryFixture(Backend backend, MemoryData data) {
        this.backend = backend;
        this.data = data;
        this.snapshots = backend.openMemoryStore(data);
        this.store = snapshots.memory().orElseThrow(() -> new IllegalStateException(backend.name() + " has no thread memory"));
        this.memory = Memory.builder().lastMessages(PAGE).store(snapshots).build();
        this.raw = backend.rawMemory(data);
        for (int k = 0; k < TARGETS; k++) {
            int t = thread(k, data.threads);
            threadIds[k] = MemoryData.threadId(t);
            threadKeys[k] = data.keyOf(t);
            threadResources[k] = data.resourceOf(t);
            resourceIds[k] = MemoryData.resourceId(resource(k, data.resources));
        }
    }

    /**
     * What a run reads of its thread before its first model call, as core's run loop reads it (its
     * {@code RunMemory.open}, not public API): the thread, its owner checked, then its last
     * {@link Memory#lastMessages()} messages, decoded into {@link Message}s with core's stored-message
     * codec. The same store calls and decoding, without the save of the run's first message.
     */
    List<Message> history(String threadId, @Nullable String resourceId) {
        MemoryThread t = ThreadKeys.find(store, resourceId, threadId).orElseThrow(() -> new ThreadNotFoundException(threadId));
        if (!Objects.equals(t.resourceId(), resourceId)) throw new ThreadOwnershipException(threadId, t.resourceId(), resourceId);
        List<Message> out = new ArrayList<>(memory.lastMessages());
        for (StoredMessage m : store.lastMessages(t.id(), memory.lastMessages())) out.add(MessageCodec.decodeText(m.content()));
        return out;
    }

    /** The thread of target {@code k}: spread over all threads. */
    static int thread(int k, int threads) {
        return (int) ((k * 7919L) % threads);
    }

    /** The resource of target {@code k}: spread over all resources. */
    static int resource(int k, int resources) {
        return (int) ((k * 37L) % resources);
    }

    static MemoryFixture require(String backend, int messages) {
        MemoryFixture f = current;
        if (f == null || !f.backend.name().equals(backend) || f.data.messages != messages) {
            throw new IllegalStateException("no memory fixture for " + backend + " messages=" + messages
                    + ": run the benchmarks through dev.baton.bench.BenchMain, not JMH's own main");
        }
        return f;
    }

    void close() {
        if (raw != null) raw.close();
        snapshots.close();
    }
}
