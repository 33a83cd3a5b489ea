package dev.baton.examples.filestore;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LifecycleContract;

/** The lifecycle contract on the file store: cancel, expiry of due runs, cursor paging of the agent's listing. */
public class FileLifecycleTest extends LifecycleContract {

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("filestore:target/tck-runs");
    }
}
