package dev.baton.store.memory;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStoreProvider;
import java.util.List;
import java.util.Map;

/**
 * Opens {@link MemorySnapshotStore}s for {@code memory:} (private) and {@code memory:NAME} (named,
 * shared in the JVM). Stateless and thread-safe; found by {@code SnapshotStores.open} through the
 * service loader.
 */
public final class MemorySnapshotStoreProvider implements SnapshotStoreProvider {

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public List<String> schemes() {
        return List.of("memory:");
    }

    @Override
    public boolean accepts(String url) {
        return url.startsWith("memory:");
    }

    @Override
    public SnapshotStore open(String url, Map<String, String> properties) {
        String name = url.substring("memory:".length());
        return name.isEmpty() ? MemorySnapshotStore.create() : MemorySnapshotStore.named(name);
    }
}
