package dev.baton.store.memory;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.ListingContract;

class MemoryListingTest extends ListingContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("memory:tck-listing-contract");
    }
}
