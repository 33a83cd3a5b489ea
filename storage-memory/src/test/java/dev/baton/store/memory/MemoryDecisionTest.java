package dev.baton.store.memory;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.DecisionContract;

class MemoryDecisionTest extends DecisionContract {
    private final String name = "decisions-" + System.nanoTime();

    @Override
    protected SnapshotStore openStore() {
        return MemorySnapshotStore.named(name);
    }
}
