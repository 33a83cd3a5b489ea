package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.DecisionContract;

/** The DecisionContract over the Mongo store opened by URL; the server: see {@link MongoTestServer}. */
class MongoDecisionTest extends DecisionContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(MongoTestServer.url());
    }
}
