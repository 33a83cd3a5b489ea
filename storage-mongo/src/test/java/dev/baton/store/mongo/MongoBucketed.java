package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.util.Map;

/** How the bucketed TCK runs open their store: by URL, {@code buckets=4}, in collection {@value #COLLECTION}. */
final class MongoBucketed {
    /** Apart from the other tests' collection, whose stores have one bucket. */
    static final String COLLECTION = "baton_runs_b4";
    static final int BUCKETS = 4;

    private MongoBucketed() {
    }

    static SnapshotStore open() {
        return SnapshotStores.open(MongoTestServer.url(),
                Map.of(MongoSnapshotStoreProvider.COLLECTION, COLLECTION, MongoSnapshotStoreProvider.BUCKETS, String.valueOf(BUCKETS)));
    }
}
