package dev.baton.bench;

import dev.baton.store.SnapshotStore;
import dev.baton.store.memory.MemorySnapshotStore;
import org.jspecify.annotations.Nullable;

/**
 * Baton's in-memory store ({@code memory:NAME}, shared inside the JVM), seeded through its own
 * {@code insert}. It has no query language, so it has no raw baseline.
 */
final class MemoryStoreBackend extends Backend {

    MemoryStoreBackend() {
        super("memory");
    }

    private static String storeName(DataSet d) {
        return NAMESPACE + "_" + d.tag();
    }

    @Override
    public String describe() {
        return "baton-storage-memory (in this JVM, " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MB heap)";
    }

    @Override
    public SnapshotStore openStore(DataSet data) {
        return MemorySnapshotStore.named(storeName(data));
    }

    @Override
    public boolean isSeeded(DataSet data) {
        return false;   // lives only as long as this JVM
    }

    @Override
    public void seed(DataSet data) {
        MemorySnapshotStore.dropNamed(storeName(data));
        try (SnapshotStore store = openStore(data)) {
            long start = System.nanoTime();
            for (int i = 0; i < data.n; i++) {
                if (!store.insert(data.run(i))) throw new IllegalStateException("duplicate seeded run " + i);
                progress("memory", i + 1, data.n, start);
            }
        }
    }

    @Override
    public @Nullable RawQueries raw(DataSet data) {
        return null;
    }

    @Override
    public SnapshotStore openMemoryStore(MemoryData data) {
        return MemorySnapshotStore.named(NAMESPACE + "_" + data.tag());
    }

    @Override
    public @Nullable RawMemory rawMemory(MemoryData data) {
        return null;
    }
}
