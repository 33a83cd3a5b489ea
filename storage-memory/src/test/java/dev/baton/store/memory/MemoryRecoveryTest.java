package dev.baton.store.memory;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.RecoveryContract;

class MemoryRecoveryTest extends RecoveryContract {
    private final String name = "recovery-" + System.nanoTime();

    @Override
    protected SnapshotStore openStore() {
        return MemorySnapshotStore.named(name);
    }
}
