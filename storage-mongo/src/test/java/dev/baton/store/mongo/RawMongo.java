package dev.baton.store.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import org.bson.Document;

/**
 * A client of the test's own on the test server and the test database, for the tests that build stores
 * on it and read or write documents beside them. The client opens on first use (so a test class can
 * hold one in a static final field); the test class closes it after its tests.
 */
final class RawMongo implements AutoCloseable {
    private MongoClient client;
    private String database;

    /** The client stores are built on. */
    synchronized MongoClient client() {
        if (client == null) {
            database = MongoTestServer.database();
            client = MongoTestServer.client();
        }
        return client;
    }

    /** The test database's name. */
    synchronized String database() {
        client();
        return database;
    }

    /** The collection {@code name} of the test database, read and written directly. */
    MongoCollection<Document> collection(String name) {
        return client().getDatabase(database()).getCollection(name);
    }

    @Override
    public synchronized void close() {
        if (client != null) client.close();
    }
}
