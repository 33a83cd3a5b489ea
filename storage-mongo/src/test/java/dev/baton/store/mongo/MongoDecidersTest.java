package dev.baton.store.mongo;

import static dev.baton.tck.support.Snapshots.uniqueId;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The deciders filter ({@link DecidersCheck}) on MongoDB, in one bucket and in four. */
class MongoDecidersTest {
    @ParameterizedTest(name = "{0} bucket(s)")
    @ValueSource(ints = {1, 4})
    void decidersFilter(int buckets) {
        try (SnapshotStore store = SnapshotStores.open(MongoTestServer.url(),
                Map.of("collection", uniqueId("deciders"), "buckets", Integer.toString(buckets)))) {
            new DecidersCheck(store).all();
        }
    }
}
