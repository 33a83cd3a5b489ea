package dev.baton.store.memory;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.AgentContract;

class MemoryAgentTest extends AgentContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("memory:tck-agent-contract");
    }
}
