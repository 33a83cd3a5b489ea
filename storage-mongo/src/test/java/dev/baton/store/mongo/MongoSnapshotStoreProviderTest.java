package dev.baton.store.mongo;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.baton.InvalidOptionException;
import dev.baton.StoreProviderException;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStoreProvider;
import dev.baton.store.SnapshotStores;
import java.util.Date;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bson.BsonType;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** URL handling, properties, the client forms, timeouts and the stored document layout. */
class MongoSnapshotStoreProviderTest {

    private static MongoClient client;

    @BeforeAll
    static void connect() {
        client = MongoClients.create(MongoTestServer.url());
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    /** The test server's URL up to the hosts, without the database path, so tests can choose the database. */
    private static String base() {
        String url = MongoTestServer.url();
        int hostEnd = url.indexOf('/', url.indexOf("//") + 2);
        if (hostEnd < 0) hostEnd = url.indexOf('?') < 0 ? url.length() : url.indexOf('?');
        return url.substring(0, hostEnd);
    }

    /** The test server's options ({@code ?...}), or nothing. */
    private static String query() {
        String url = MongoTestServer.url();
        int q = url.indexOf('?');
        return q < 0 ? "" : url.substring(q);
    }

    @Nested
    class Discovery {

        @Test
        void theServiceLoaderFindsTheProviderForBothSchemes() {
            assertThat(SnapshotStores.providers()).filteredOn(p -> p.name().equals("mongo")).singleElement()
                    .satisfies(p -> {
                        assertThat(p).isInstanceOf(MongoSnapshotStoreProvider.class);
                        assertThat(p.accepts("mongodb://localhost")).isTrue();
                        assertThat(p.accepts("mongodb+srv://cluster0.example.net/app")).isTrue();
                        assertThat(p.accepts("mongodb:localhost")).isFalse();
                        assertThat(p.accepts("jdbc:postgresql://localhost/db")).isFalse();
                        assertThat(p.accepts("redis://localhost")).isFalse();
                        assertThat(p.schemes()).containsExactly("mongodb://", "mongodb+srv://");
                    });
        }

        @Test
        void anUnknownPropertyIsRefusedBeforeConnecting() {
            assertThatThrownBy(() -> SnapshotStores.open("mongodb://127.0.0.1:1/x", Map.of("table", "runs")))
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("table");
        }

        @Test
        void aBadCollectionNameIsRefusedBeforeConnecting() {
            assertThatThrownBy(() -> SnapshotStores.open("mongodb://127.0.0.1:1/x", Map.of("collection", "a$b")))
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("collection");
            assertThatThrownBy(() -> SnapshotStores.open("mongodb://127.0.0.1:1/x", Map.of("collection", " ")))
                    .isInstanceOf(InvalidOptionException.class);
        }

        @Test
        void anInvalidConnectionStringIsAnInvalidOptionWithThePasswordHidden() {
            assertThatThrownBy(() -> SnapshotStores.open("mongodb://user:secret@host:notaport/db"))
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("url")
                    .hasMessageNotContaining("secret");
        }

        @Test
        void aUrlOfAnotherSchemeIsNotOurs() {
            assertThatThrownBy(() -> SnapshotStores.open("mongo://localhost/x")).isInstanceOf(StoreProviderException.class);
        }
    }

    @Nested
    class Timeouts {

        @Test
        void unsetTimeoutsGetBatonsDefaults() {
            MongoClientSettings s = MongoSnapshotStoreProvider.settings(new ConnectionString("mongodb://h/db"));
            assertThat(s.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS)).isEqualTo(5_000);
            assertThat(s.getSocketSettings().getConnectTimeout(TimeUnit.MILLISECONDS)).isEqualTo(5_000);
            assertThat(s.getSocketSettings().getReadTimeout(TimeUnit.MILLISECONDS)).isEqualTo(15_000);
            assertThat(s.getConnectionPoolSettings().getMaxWaitTime(TimeUnit.MILLISECONDS)).isEqualTo(10_000);
            assertThat(s.getApplicationName()).isEqualTo("baton");
        }

        @Test
        void timeoutsInTheUrlWin() {
            MongoClientSettings s = MongoSnapshotStoreProvider.settings(new ConnectionString(
                    "mongodb://h/db?serverSelectionTimeoutMS=1000&connectTimeoutMS=2000&socketTimeoutMS=3000"
                            + "&waitQueueTimeoutMS=4000&appName=mine"));
            assertThat(s.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS)).isEqualTo(1_000);
            assertThat(s.getSocketSettings().getConnectTimeout(TimeUnit.MILLISECONDS)).isEqualTo(2_000);
            assertThat(s.getSocketSettings().getReadTimeout(TimeUnit.MILLISECONDS)).isEqualTo(3_000);
            assertThat(s.getConnectionPoolSettings().getMaxWaitTime(TimeUnit.MILLISECONDS)).isEqualTo(4_000);
            assertThat(s.getApplicationName()).isEqualTo("mine");
        }

        @Test
        void aClientSideOperationTimeoutReplacesTheSocketAndPoolDefaults() {
            MongoClientSettings s = MongoSnapshotStoreProvider.settings(new ConnectionString("mongodb://h/db?timeoutMS=7000"));
            assertThat(s.getTimeout(TimeUnit.MILLISECONDS)).isEqualTo(7_000);
            assertThat(s.getSocketSettings().getReadTimeout(TimeUnit.MILLISECONDS)).isZero();
            assertThat(s.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS)).isEqualTo(5_000);
        }
    }

    @Nested
    class Layout {

        @Test
        void theDatabaseComesFromTheUrlPath() {
            String db = "baton_path_" + Long.toHexString(System.nanoTime());
            RunSnapshot s = suspended(uniqueId("agent"), uniqueId("run"), "t", "r", 0);
            try (SnapshotStore store = SnapshotStores.open(base() + "/" + db + query(), Map.of("collection", "runs_x"))) {
                assertThat(store.describe()).contains(db + ".runs_x");
                store.insert(s);
            }
            assertThat(client.getDatabase(db).getCollection("runs_x").countDocuments(new Document("_id", s.runId())))
                    .isEqualTo(1);
        }

        @Test
        void withoutAPathTheDatabaseIsBaton() {
            RunSnapshot s = suspended(uniqueId("agent"), uniqueId("run"), "t", "r", 0);
            try (SnapshotStore store = SnapshotStores.open(base() + "/" + query())) {
                assertThat(store.describe()).contains("baton.baton_runs");
                store.insert(s);
            }
            assertThat(client.getDatabase("baton").getCollection("baton_runs")
                    .countDocuments(new Document("_id", s.runId()))).isEqualTo(1);
        }

        @Test
        void aRunIsOneDocumentWithTypedTopLevelFieldsAndTheIdStoredLiterally() {
            String collection = uniqueId("layout");
            String runId = "{\"$gt\": \"\"}.x";
            RunSnapshot s = RunSnapshot.builder().runId(runId).agentId(uniqueId("agent")).status(RunStatus.SUSPENDED)
                    .threadId("$ne").resourceId("a.b").createdAt(T0.plusMillis(123)).suspendedAt(T0.plusMillis(456))
                    .payload("{\"k\": 1}").expiresAt(T0.plusMillis(999)).summary("{\"calls\": []}")
                    .deciders(java.util.List.of("r:$ne", "*")).build();
            try (SnapshotStore store = MongoSnapshotStore.builder(client, "baton_layout").collection(collection).build()) {
                store.insert(s);
                RunSnapshot c = s.claimed("owner-1", T0.plusMillis(789), "{\"k\": 2}");
                assertThat(store.compareAndSet(1, c)).isTrue();
            }
            var raw = client.getDatabase("baton_layout").getCollection(collection, RawBsonDocument.class)
                    .find(new Document("_id", runId)).first();
            assertThat(raw).isNotNull();
            assertThat(raw.keySet()).containsExactly("_id", "agentId", "status", "threadId", "resourceId", "createdAt",
                    "suspendedAt", "version", "leaseOwner", "leaseExpiresAt", "payload", "expiresAt", "summary", "notifyAt", "notifyState",
                    "deciders");
            assertThat(raw.get("_id").getBsonType()).isEqualTo(BsonType.STRING);
            // the decider labels: an array of strings, in sorted order, kept by the claim
            assertThat(raw.getArray("deciders").getValues()).extracting(v -> v.asString().getValue()).containsExactly("*", "r:$ne");
            assertThat(raw.getString("_id").getValue()).isEqualTo(runId);
            assertThat(raw.getString("threadId").getValue()).isEqualTo("$ne");
            assertThat(raw.getString("resourceId").getValue()).isEqualTo("a.b");
            assertThat(raw.getString("status").getValue()).isEqualTo("RESUMING");
            assertThat(raw.getDateTime("createdAt").getValue()).isEqualTo(T0.plusMillis(123).toEpochMilli());
            assertThat(raw.getDateTime("suspendedAt").getValue()).isEqualTo(T0.plusMillis(456).toEpochMilli());
            assertThat(raw.getDateTime("leaseExpiresAt").getValue()).isEqualTo(T0.plusMillis(789).toEpochMilli());
            assertThat(raw.get("version").getBsonType()).isEqualTo(BsonType.INT64);
            assertThat(raw.getInt64("version").getValue()).isEqualTo(2);
            assertThat(raw.getString("payload").getValue()).isEqualTo("{\"k\": 2}");
            assertThat(raw.getDateTime("expiresAt").getValue()).isEqualTo(T0.plusMillis(999).toEpochMilli());
            assertThat(raw.getString("summary").getValue()).isEqualTo("{\"calls\": []}");
        }

        @Test
        void aSuspendedRunStoresItsMissingLeaseAndIdsAsNull() {
            String collection = uniqueId("layout");
            RunSnapshot s = suspended(uniqueId("agent"), uniqueId("run"), null, null, 0);
            try (SnapshotStore store = MongoSnapshotStore.builder(client, "baton_layout").collection(collection).build()) {
                store.insert(s);
            }
            Document d = client.getDatabase("baton_layout").getCollection(collection).find().first();
            assertThat(d).containsEntry("threadId", null).containsEntry("leaseOwner", null)
                    .containsEntry("leaseExpiresAt", null).containsEntry("expiresAt", null)
                    .containsEntry("summary", s.summary()).containsEntry("createdAt", Date.from(s.createdAt()));
        }
    }

    @Nested
    class ClientForms {

        @Test
        void aStoreBuiltOnTheApplicationsClientNeverClosesIt() {
            String collection = uniqueId("owned");
            RunSnapshot s = suspended(uniqueId("agent"), uniqueId("run"), "t", "r", 0);
            try (SnapshotStore store = MongoSnapshotStore.builder(client, "baton_client").collection(collection).build()) {
                assertThat(store.insert(s)).isTrue();
                assertThat(store.describe()).contains("baton_client." + collection);
            }
            // still open: the store was closed, the client was not
            assertThat(client.getDatabase("baton_client").getCollection(collection).countDocuments()).isEqualTo(1);
            try (SnapshotStore again = MongoSnapshotStore.builder(client, "baton_client").collection(collection).build()) {
                assertThat(again.find(s.runId())).contains(s);
                assertThat(again.list(RunQuery.forAgent(s.agentId(), T0).build()).items()).containsExactly(s);
            }
        }

        @Test
        void aStoreOpenedFromAUrlClosesItsOwnClient() {
            SnapshotStore store = SnapshotStores.open(MongoTestServer.url());
            store.close();
            // the store refuses calls itself (the TCK's Closing group requires it); its client is closed too
            assertThatThrownBy(() -> store.find("any")).isInstanceOf(dev.baton.StorageException.class)
                    .hasMessageContaining("is closed");
        }

        @Test
        void theBuilderRefusesEmptyNames() {
            assertThatThrownBy(() -> MongoSnapshotStore.builder(client, "")).isInstanceOf(InvalidOptionException.class)
                    .hasMessageContaining("database");
            assertThatThrownBy(() -> MongoSnapshotStore.builder(client, "db").collection("$x"))
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("collection");
        }

        @Test
        void theProviderIsAlsoUsableDirectly() {
            SnapshotStoreProvider p = new MongoSnapshotStoreProvider();
            try (SnapshotStore store = p.open(MongoTestServer.url(), Map.of())) {
                assertThat(store).isInstanceOf(MongoSnapshotStore.class);
                assertThat(store.describe()).startsWith("MongoDB ");
            }
        }
    }
}
