package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.SnapshotStoreContract;

/** The whole storage TCK (without the proxy faults) on a Mongo store with four buckets (issue 27), opened by URL, in its own collection and database; the server: see {@link MongoTestServer}. */
class MongoBucketedSnapshotStoreTest extends SnapshotStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return MongoBucketed.openByUrl(getClass());
    }
}
