package dev.baton.store.mongo;

import com.mongodb.ConnectionString;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.SnapshotStoreContract;
import dev.baton.tck.StoreFaults;
import java.time.Duration;
import java.util.Optional;

/**
 * The whole storage TCK on the Mongo store opened by URL through {@link SnapshotStores}; the server: see
 * {@link MongoTestServer}. Faults go through a TCP proxy, with timeouts of 2 to 3 seconds.
 */
class MongoSnapshotStoreTest extends SnapshotStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(MongoTestServer.url(getClass()));
    }

    @Override
    protected Optional<StoreFaults> faults() throws Exception {
        ConnectionString target = new ConnectionString(MongoTestServer.url(getClass()));
        String[] hostPort = target.getHosts().get(0).split(":");
        String database = target.getDatabase() == null ? "baton_tck" : target.getDatabase();
        return Optional.of(StoreFaults.throughProxy(hostPort[0], hostPort.length > 1 ? Integer.parseInt(hostPort[1]) : 27017,
                Duration.ofSeconds(4), (host, port) -> SnapshotStores.open("mongodb://" + host + ":" + port + "/" + database
                        + "?directConnection=true&serverSelectionTimeoutMS=2000&connectTimeoutMS=2000&socketTimeoutMS=3000")));
    }
}
