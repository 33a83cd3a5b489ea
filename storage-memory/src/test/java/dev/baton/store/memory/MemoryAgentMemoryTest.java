package dev.baton.store.memory;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.MemoryContract;

class MemoryAgentMemoryTest extends MemoryContract {
    private final String name = "agent-memory-" + System.nanoTime();

    @Override
    protected SnapshotStore openStore() {
        return MemorySnapshotStore.named(name);
    }
}
