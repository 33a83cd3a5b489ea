package dev.baton.examples.filestore;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.LeaseContract;

/** The lease contract on the file store: the native, payload-free {@code renewLease}, and the store clock (STORE_CLOCK). */
public class FileLeaseTest extends LeaseContract {

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("filestore:target/tck-runs");
    }
}
