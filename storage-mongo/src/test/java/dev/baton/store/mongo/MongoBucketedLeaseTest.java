package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.LeaseContract;

/** The lease TCK on a Mongo store with four buckets (issue 27), in its own collection and database, on the shared client (see {@link MongoBucketed}); the server: see {@link MongoTestServer}. */
class MongoBucketedLeaseTest extends LeaseContract {
    @Override
    protected SnapshotStore openStore() {
        return MongoBucketed.open(getClass());
    }
}
