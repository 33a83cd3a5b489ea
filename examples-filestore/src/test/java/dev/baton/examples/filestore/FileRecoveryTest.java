package dev.baton.examples.filestore;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.RecoveryContract;

/** The recovery contract on the file store: a crash at every write of a three-step run, slow writes, clocks, dropped streams, interrupts, subagents. */
public class FileRecoveryTest extends RecoveryContract {

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("filestore:target/tck-runs");
    }
}
