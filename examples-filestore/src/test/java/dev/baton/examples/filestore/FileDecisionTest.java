package dev.baton.examples.filestore;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.DecisionContract;

/** The DecisionContract on the file store. */
public class FileDecisionTest extends DecisionContract {

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("filestore:target/tck-runs");
    }
}
