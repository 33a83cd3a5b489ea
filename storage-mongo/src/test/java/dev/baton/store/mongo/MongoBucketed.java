package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.util.Map;

/**
 * How the bucketed TCK runs open their store: {@code buckets=4}, in collection {@value #COLLECTION} of the test class's
 * own database; by URL for the storage TCK ({@code MongoBucketedSnapshotStoreTest}), on the shared client for the other
 * contracts (see {@link MongoTestServer#sharedClientStore}).
 */
final class MongoBucketed {
    /** Apart from the other tests' collection, whose stores have one bucket. */
    static final String COLLECTION = "baton_runs_b4";
    static final int BUCKETS = 4;

    private MongoBucketed() {
    }

    /** A store on {@code suite}'s own database, opened by URL through {@link SnapshotStores}, with a client of its own. */
    static SnapshotStore openByUrl(Class<?> suite) {
        return SnapshotStores.open(MongoTestServer.url(suite),
                Map.of(MongoSnapshotStoreProvider.COLLECTION, COLLECTION, MongoSnapshotStoreProvider.BUCKETS, String.valueOf(BUCKETS)));
    }

    /** A store on {@code suite}'s own database, on the client such stores share. */
    static SnapshotStore open(Class<?> suite) {
        return MongoTestServer.sharedClientStore(suite, COLLECTION, BUCKETS);
    }
}
