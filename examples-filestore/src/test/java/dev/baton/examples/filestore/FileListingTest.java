package dev.baton.examples.filestore;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.ListingContract;

/** The listing contract on the file store: summary and deadline stored, payload-free listings, cursor paging under churn, {@code listDue}. */
public class FileListingTest extends ListingContract {

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("filestore:target/tck-runs");
    }
}
