package dev.baton.store.mongo;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.event.CommandListener;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.baton.store.SnapshotStore;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MongoDB the tests run against, found once per JVM, in this order:
 * <ol>
 *   <li>{@code BATON_TEST_MONGO_URL} (or {@code -Dbaton.test.mongo.url}): your own server;</li>
 *   <li>Testcontainers with {@code mongo:7.0}, when a Docker engine answers;</li>
 *   <li>else {@code de.bwaldvogel:mongo-java-server} (memory backend) in this JVM on a random 127.0.0.1 port.</li>
 * </ol>
 */
final class MongoTestServer {
    private static final Logger LOG = LoggerFactory.getLogger(MongoTestServer.class);

    static final String ENV = "BATON_TEST_MONGO_URL";
    static final String PROPERTY = "baton.test.mongo.url";
    static final String IMAGE = "mongo:7.0";

    /** Which kind of server {@link #url()} points at. */
    enum Kind { ENVIRONMENT, TESTCONTAINERS, IN_JVM }

    private static Kind kind;
    private static String url;
    private static MongoClient sharedClient;

    private MongoTestServer() {
    }

    /** A {@code mongodb://} URL of the test server, with the test database as its path unless the environment gave one. */
    static synchronized String url() {
        if (url == null) start();
        return url;
    }

    /**
     * {@link #url()} with a database of {@code suite}'s own, {@code <database>_<suite's simple name>}: each contract
     * class writes into an empty database. The in-JVM server finds documents by scanning the whole collection (it
     * has no secondary indexes), so with one database for every class each class's reads scan every run the
     * classes before it wrote, and a store opening scans them again (its pending-decision catch-up, its bucket
     * check). Credentials in the URL still authenticate against the URL's database.
     *
     * @param suite the test class
     * @return the URL
     */
    static String url(Class<?> suite) {
        String base = url();
        ConnectionString cs = new ConnectionString(base);
        String own = database(suite);
        int hosts = base.indexOf("://") + 3;
        int query = base.indexOf('?', hosts);
        String head = query < 0 ? base : base.substring(0, query);
        String options = query < 0 ? "" : base.substring(query + 1);
        int path = head.indexOf('/', hosts);
        if (path >= 0) head = head.substring(0, path);
        if (cs.getCredential() != null && cs.getCredential().getSource() != null && !options.contains("authSource=")) {
            options = (options.isEmpty() ? "" : options + "&") + "authSource=" + cs.getCredential().getSource();
        }
        return head + "/" + own + (options.isEmpty() ? "" : "?" + options);
    }

    /** {@return the database of {@code suite}'s own that {@link #url(Class)} names} */
    static String database(Class<?> suite) {
        return database() + "_" + suite.getSimpleName();
    }

    /**
     * A store on {@code suite}'s own database (that of {@link #url(Class)}), in {@code collection} with
     * {@code buckets} buckets, on a client every such store shares: for the contracts whose rules do not depend on
     * how a store is opened, so that each test's store does not start a client of its own (connecting, the
     * server's monitor, a connection pool; ten times the CPU of the store's own set-up on the in-JVM server).
     * The client has the settings the provider gives a client it opens from {@link #url()} (its timeouts); the
     * store's writes, reads and indexes are those of a store opened by URL. {@code MongoSnapshotStoreTest} and
     * {@code MongoBucketedSnapshotStoreTest} open theirs by URL, each with its own client, as an application does.
     *
     * @param suite      the test class
     * @param collection the runs' collection
     * @param buckets    the bucket count
     * @return the store; the caller closes it, which leaves the shared client open
     */
    static SnapshotStore sharedClientStore(Class<?> suite, String collection, int buckets) {
        return MongoSnapshotStore.builder(sharedClient(), database(suite)).collection(collection).buckets(buckets).build();
    }

    /** {@return the client of {@link #sharedClientStore}, opened on first use and left open until the JVM ends} */
    private static synchronized MongoClient sharedClient() {
        if (sharedClient == null) {
            sharedClient = MongoClients.create(MongoSnapshotStoreProvider.settings(new ConnectionString(url())));
        }
        return sharedClient;
    }

    /** {@return the database a store opened on {@link #url()} uses: the URL's, else the store's default} */
    static String database() {
        String named = new ConnectionString(url()).getDatabase();
        return named == null ? MongoSnapshotStore.DEFAULT_DATABASE : named;
    }

    /**
     * A client of the test's own on the test server, for tests that read or write documents beside a
     * store, seeing each command through {@code listeners}; the caller closes it.
     *
     * @param listeners the command listeners, if any
     * @return the client
     */
    static MongoClient client(CommandListener... listeners) {
        MongoClientSettings.Builder settings = MongoClientSettings.builder().applyConnectionString(new ConnectionString(url()));
        for (CommandListener l : listeners) settings.addCommandListener(l);
        return MongoClients.create(settings.build());
    }

    static synchronized Kind kind() {
        if (url == null) start();
        return kind;
    }

    /** True on the in-JVM mongo-java-server, which lacks explain, TTL and transactions. */
    static boolean inJvm() {
        return kind() == Kind.IN_JVM;
    }

    private static void start() {
        String configured = System.getProperty(PROPERTY);
        if (configured == null || configured.isBlank()) configured = System.getenv(ENV);
        if (configured != null && !configured.isBlank()) {
            kind = Kind.ENVIRONMENT;
            url = configured;
        } else if (dockerAvailable()) {
            kind = Kind.TESTCONTAINERS;
            url = Containers.start() + "/baton_tck";
        } else {
            MongoServer server = new MongoServer(new MemoryBackend());
            server.bind("127.0.0.1", 0);
            InetSocketAddress address = server.getLocalAddress();
            Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow, "mongo-java-server-stop"));
            kind = Kind.IN_JVM;
            url = "mongodb://127.0.0.1:" + address.getPort() + "/baton_tck";
        }
        LOG.info("MongoDB tests run on {} at {}", kind, url);
    }

    /**
     * Asks Testcontainers only when an engine could exist (a socket or DOCKER_HOST), and gives it
     * at most 20 seconds: without Docker the check must neither hang nor fail the build.
     */
    private static boolean dockerAvailable() {
        boolean candidate = System.getenv("DOCKER_HOST") != null
                || Files.exists(Path.of("/var/run/docker.sock"))
                || Files.exists(Path.of(System.getProperty("user.home"), ".testcontainers.properties"));
        if (!candidate) return false;
        ExecutorService probe = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "docker-probe");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<Boolean> available = probe.submit(Containers::dockerAvailable);
            return available.get(20, TimeUnit.SECONDS);
        } catch (Exception | LinkageError e) {
            LOG.info("No Docker for Testcontainers ({}); using the in-JVM server", e.toString());
            return false;
        } finally {
            probe.shutdownNow();
        }
    }

    /** Kept apart so that Testcontainers classes load only when Docker may be there. */
    private static final class Containers {
        static boolean dockerAvailable() {
            return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
        }

        @SuppressWarnings("resource") // stopped by Testcontainers' reaper when the JVM ends
        static String start() {
            var container = new org.testcontainers.mongodb.MongoDBContainer(IMAGE);
            container.start();
            return container.getConnectionString();
        }
    }
}
