package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The deciders filter ({@link DecidersCheck}) on Redis: in one bucket and in four, and on a three-node Cluster in six
 * (the label sets and the listing's temporary set share the agent's, or the bucket's, hash slot).
 */
class RedisDecidersTest {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisDecidersTest.class);

    @AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
        RedisTestServer.deleteKeys(PREFIX + "b4");
    }

    @ParameterizedTest(name = "{0} bucket(s)")
    @ValueSource(ints = {1, 4})
    void decidersFilter(int buckets) {
        try (SnapshotStore store = SnapshotStores.open(RedisTestServer.url(),
                Map.of("keyPrefix", buckets == 1 ? PREFIX : PREFIX + "b" + buckets, "buckets", Integer.toString(buckets)))) {
            new DecidersCheck(store).all();
        }
    }

    @Test
    void decidersFilterOnACluster() {
        try (SnapshotStore store = SnapshotStores.open(RedisTestCluster.url(),
                Map.of("keyPrefix", PREFIX, "cluster", "true", "buckets", "6"))) {
            new DecidersCheck(store).all();
        }
    }
}
