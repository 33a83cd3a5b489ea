package dev.baton.store.memory;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.LifecycleContract;

class MemoryLifecycleTest extends LifecycleContract {
    private final String name = "lifecycle-" + System.nanoTime();

    @Override
    protected SnapshotStore openStore() {
        return MemorySnapshotStore.named(name);
    }
}
