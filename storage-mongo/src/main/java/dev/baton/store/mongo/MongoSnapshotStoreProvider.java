package dev.baton.store.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.baton.InvalidOptionException;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStoreProvider;
import dev.baton.store.SnapshotStores;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Opens {@link MongoSnapshotStore}s for {@code mongodb://} and {@code mongodb+srv://} URLs, e.g.
 * {@code mongodb://user:secret@db1,db2/app?replicaSet=rs0}.
 *
 * <ul>
 *   <li>The database is the URL's path ({@code /app}); without one, {@value MongoSnapshotStore#DEFAULT_DATABASE}.</li>
 *   <li>Property {@code collection}: the collection of runs, default {@value MongoSnapshotStore#DEFAULT_COLLECTION}.</li>
 *   <li>Property {@code writeConcern}: {@code majority} (default), {@code acknowledged} or {@code w1}, the
 *       least every write asks for; a URL whose {@code w} asks for at least as much keeps it
 *       (see {@link WriteConcernLevel}).</li>
 *   <li>Property {@code buckets}: how many buckets spread each agent's runs, 1 (default) to 1024
 *       (see {@link MongoSnapshotStore.Builder#buckets(int)}).</li>
 *   <li>Every other setting (credentials, TLS, replica set, timeouts) is a standard connection-string option.</li>
 * </ul>
 *
 * <p>So that a dead server gives a {@link dev.baton.StorageException} within seconds and never a
 * hang, timeouts the URL leaves unset get these defaults: {@code serverSelectionTimeoutMS=5000},
 * {@code connectTimeoutMS=5000}, {@code socketTimeoutMS=15000}, {@code waitQueueTimeoutMS=10000}
 * (the last two only if the URL sets no {@code timeoutMS}). The store owns the client it opens
 * and closes it on {@link SnapshotStore#close()}.
 *
 * <p>Stateless and thread-safe; found by {@code SnapshotStores.open} through the service loader.
 * The caller closes each store it opens.
 */
public final class MongoSnapshotStoreProvider implements SnapshotStoreProvider {

    /** The property naming the collection. */
    public static final String COLLECTION = "collection";
    /** The property naming the least write concern of every write: {@code majority} (default), {@code acknowledged} or {@code w1}. */
    public static final String WRITE_CONCERN = "writeConcern";

    static final int SERVER_SELECTION_TIMEOUT_MS = 5_000;
    static final int CONNECT_TIMEOUT_MS = 5_000;
    static final int SOCKET_TIMEOUT_MS = 15_000;
    static final int WAIT_QUEUE_TIMEOUT_MS = 10_000;

    /** The property naming how many buckets spread each agent's runs, 1 to 1024; default 1 (see {@link MongoSnapshotStore.Builder#buckets(int)}). */
    public static final String BUCKETS = "buckets";

    private static final Set<String> PROPERTIES = Set.of(COLLECTION, WRITE_CONCERN, BUCKETS);

    @Override
    public String name() {
        return "mongo";
    }

    @Override
    public List<String> schemes() {
        return List.of("mongodb://", "mongodb+srv://");
    }

    @Override
    public boolean accepts(String url) {
        return url.startsWith("mongodb://") || url.startsWith("mongodb+srv://");
    }

    @Override
    public SnapshotStore open(String url, Map<String, String> properties) {
        SnapshotStoreProvider.requireKnownProperties("MongoDB", properties, PROPERTIES);
        ConnectionString cs;
        try {
            cs = new ConnectionString(url);
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("url", "not a valid MongoDB connection string '" + SnapshotStores.redact(url)
                    + "': " + e.getMessage());
        }
        String database = cs.getDatabase() == null ? MongoSnapshotStore.DEFAULT_DATABASE : cs.getDatabase();
        String collection = MongoSnapshotStore.checkName(COLLECTION,
                properties.getOrDefault(COLLECTION, MongoSnapshotStore.DEFAULT_COLLECTION));
        MongoSnapshotStore.checkName("database", database);
        WriteConcernLevel writeConcern = WriteConcernLevel.parse(properties.getOrDefault(WRITE_CONCERN, "majority"));
        int buckets = buckets(properties.get(BUCKETS));
        MongoClient client = MongoClients.create(settings(cs));
        return MongoSnapshotStore.openOwned(client, database, collection,
                "MongoDB " + SnapshotStores.redact(url) + " (" + database + "." + collection + ")", writeConcern, buckets);
    }

    /** The {@code buckets} property: an integer from 1 to 1024, default 1. */
    private static int buckets(@Nullable String value) {
        if (value == null) return 1;
        try {
            return MongoBuckets.check(Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            throw new InvalidOptionException(BUCKETS, "must be an integer from 1 to " + MongoBuckets.MAX + ", was '" + value + "'");
        }
    }

    /** The URL's settings, plus Baton's timeouts where the URL sets none. */
    static MongoClientSettings settings(ConnectionString cs) {
        boolean csot = cs.getTimeout() != null;
        MongoClientSettings.Builder b = MongoClientSettings.builder().applyConnectionString(cs);
        if (cs.getApplicationName() == null) b.applicationName("baton");
        b.applyToClusterSettings(c -> {
            if (cs.getServerSelectionTimeout() == null) {
                c.serverSelectionTimeout(SERVER_SELECTION_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
        });
        b.applyToSocketSettings(s -> {
            if (cs.getConnectTimeout() == null) s.connectTimeout(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            if (cs.getSocketTimeout() == null && !csot) s.readTimeout(SOCKET_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        });
        b.applyToConnectionPoolSettings(p -> {
            if (cs.getMaxWaitTime() == null && !csot) p.maxWaitTime(WAIT_QUEUE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        });
        return b.build();
    }
}
