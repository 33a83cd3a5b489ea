package dev.baton.examples.stores;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.mongo.MongoSnapshotStore;
import java.util.Map;

/**
 * MongoDB (module {@code baton-storage-mongo}). Needs a running server:
 * {@code java -cp baton-examples.jar dev.baton.examples.stores.MongoExample mongodb://127.0.0.1:27017/app}.
 */
public final class MongoExample {
    private MongoExample() {
    }

    public static void main(String[] args) {
        String url = ApprovalRoundTrip.url(args, "BATON_TEST_MONGO_URL", "mongodb://127.0.0.1:27017/app");

        // 1. By URL: the database is the URL's path; the store owns its client and closes it.
        try (SnapshotStore store = SnapshotStores.open(url, Map.of("collection", "baton_runs"))) {
            ApprovalRoundTrip.run(store);
        }

        // 2. On the application's MongoClient: the store never closes it.
        try (MongoClient client = MongoClients.create(url)) {
            try (SnapshotStore store = MongoSnapshotStore.builder(client, "app").collection("baton_runs").build()) {
                ApprovalRoundTrip.run(store);
            }
        }
    }
}
