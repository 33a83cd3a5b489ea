package dev.baton.examples.filestore;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.AgentContract;

/** The agent contract on the file store: every discovery and resume rule, over this store. */
public class FileAgentTest extends AgentContract {

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("filestore:target/tck-runs");
    }
}
