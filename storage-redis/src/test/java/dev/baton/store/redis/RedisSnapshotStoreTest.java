package dev.baton.store.redis;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.SnapshotStoreContract;
import dev.baton.tck.StoreFaults;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** The storage TCK on Redis, through {@code SnapshotStores.open} and the provider; faults through a TCP proxy. */
class RedisSnapshotStoreTest extends SnapshotStoreContract {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisSnapshotStoreTest.class);

    @org.junit.jupiter.api.AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX));
    }

    /** A 2-second command timeout through a proxy that the TCK kills or freezes. */
    @Override
    protected Optional<StoreFaults> faults() throws Exception {
        RedisURI target = RedisURI.create(RedisTestServer.url());
        return Optional.of(StoreFaults.throughProxy(target.getHost(), target.getPort(), Duration.ofSeconds(2),
                (host, port) -> SnapshotStores.open("redis://" + host + ":" + port,
                        Map.of("keyPrefix", PREFIX, "timeout", "PT2S"))));
    }
}
