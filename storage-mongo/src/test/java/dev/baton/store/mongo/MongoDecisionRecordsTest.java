package dev.baton.store.mongo;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;

/** The decision records checked directly against the reference over the Mongo store opened by URL; the server: see {@link MongoTestServer}. */
class MongoDecisionRecordsTest extends DecisionStoreChecks {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open(MongoTestServer.url());
    }
}
