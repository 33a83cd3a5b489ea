package dev.baton.examples.filestore;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;

/** The decision records checked directly against the reference on the file store. */
class FileDecisionRecordsTest extends DecisionStoreChecks {

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("filestore:target/tck-runs");
    }
}
