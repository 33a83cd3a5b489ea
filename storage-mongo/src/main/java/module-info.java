/** The MongoDB {@link dev.baton.store.SnapshotStore}, on mongodb-driver-sync: one document per run, compound indexes. */
@SuppressWarnings("requires-transitive-automatic") // the driver has no module-info; its MongoClient is in our API
module dev.baton.store.mongo {
    requires transitive dev.baton.core;
    requires transitive org.mongodb.driver.sync.client;
    requires org.mongodb.driver.core;
    requires org.mongodb.bson;
    exports dev.baton.store.mongo;
    provides dev.baton.store.SnapshotStoreProvider with dev.baton.store.mongo.MongoSnapshotStoreProvider;
}
