package dev.baton.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.StorageException;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStoreProvider;
import dev.baton.store.SnapshotStores;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.jdbi.v3.core.Jdbi;

/**
 * Opens {@link JdbcSnapshotStore}s for {@code jdbc:postgresql:}, {@code jdbc:mysql:},
 * {@code jdbc:mariadb:}, {@code jdbc:h2:} and {@code jdbc:sqlite:} URLs, on a HikariCP pool that
 * the store closes on {@link SnapshotStore#close()}.
 *
 * <p>Properties (all optional):
 * <ul>
 *   <li>{@code user}, {@code password}: credentials (or put them in the URL);</li>
 *   <li>{@code table}: the runs table, default {@value JdbcSnapshotStore#DEFAULT_TABLE}; the thread memory is in
 *       {@code <table>_threads} and {@code <table>_messages};</li>
 *   <li>{@code schemaMode}: {@code create} (default), {@code validate} or {@code none}, see {@link SchemaMode};</li>
 *   <li>{@code poolSize}: most connections in the pool, default 10;</li>
 *   <li>{@code connectTimeout}: seconds to open a connection or wait for one from the pool, default 10;</li>
 *   <li>{@code socketTimeout}: seconds a PostgreSQL/MySQL/MariaDB read may block, default 60;</li>
 *   <li>{@code queryTimeout}: seconds a statement may run before it is cancelled, default 30.</li>
 * </ul>
 * On SQLite the pool opens the file in WAL mode with a {@code busy_timeout}, so concurrent
 * writers wait for each other instead of failing; on H2 the lock timeout is raised likewise, and
 * {@code WRITE_DELAY=0} makes every commit reach the file at once, so a killed JVM loses no claim.
 *
 * <p>Stateless and thread-safe; found by {@code SnapshotStores.open} through the service loader.
 * The caller closes each store it opens (which closes that store's pool).
 */
public final class JdbcSnapshotStoreProvider implements SnapshotStoreProvider {

    private static final List<String> SCHEMES =
            List.of("jdbc:postgresql:", "jdbc:mysql:", "jdbc:mariadb:", "jdbc:h2:", "jdbc:sqlite:");
    private static final Set<String> KEYS = Set.of("user", "password", "table", "schemaMode", "poolSize",
            "connectTimeout", "socketTimeout", "queryTimeout");
    private static final AtomicInteger POOLS = new AtomicInteger();

    @Override
    public String name() {
        return "jdbc";
    }

    @Override
    public List<String> schemes() {
        return SCHEMES;
    }

    @Override
    public boolean accepts(String url) {
        return url != null && JdbcDialect.forUrl(url).isPresent();
    }

    @Override
    public SnapshotStore open(String url, Map<String, String> properties) {
        JdbcDialect dialect = JdbcDialect.forUrl(url).orElseThrow(() ->
                new IllegalArgumentException("url: not a JDBC URL this store supports (" + SCHEMES + "): "
                        + SnapshotStores.redact(url)));
        SnapshotStoreProvider.requireKnownProperties("JDBC", properties, KEYS);
        String table = Schema.checkTable(properties.getOrDefault("table", JdbcSnapshotStore.DEFAULT_TABLE));
        SchemaMode mode = SchemaMode.parse(properties.getOrDefault("schemaMode", "create"));
        int poolSize = positive(properties, "poolSize", 10);
        int connectTimeout = positive(properties, "connectTimeout", 10);
        int socketTimeout = positive(properties, "socketTimeout", 60);
        int queryTimeout = positive(properties, "queryTimeout", JdbcSnapshotStore.DEFAULT_QUERY_TIMEOUT_SECONDS);

        String jdbcUrl = driverUrl(url);
        String description = dialect.displayName() + " " + SnapshotStores.redact(url)
                + (table.equals(JdbcSnapshotStore.DEFAULT_TABLE) ? "" : " (table " + table + ")");

        HikariConfig config = new HikariConfig();
        config.setPoolName("baton-" + dialect.name().toLowerCase(Locale.ROOT) + "-" + POOLS.incrementAndGet());
        config.setJdbcUrl(jdbcUrl);
        if (properties.get("user") != null) config.setUsername(properties.get("user"));
        if (properties.get("password") != null) config.setPassword(properties.get("password"));
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(Math.min(2, poolSize));
        config.setConnectionTimeout(connectTimeout * 1000L);
        config.setValidationTimeout(Math.min(connectTimeout * 1000L, 5000L));
        driverDefaults(dialect, jdbcUrl, connectTimeout, socketTimeout).forEach(config::addDataSourceProperty);

        HikariDataSource pool;
        try {
            pool = new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw new StorageException(description + ": cannot connect: " + Schema.rootMessage(e), e);
        }
        return JdbcSnapshotStore.owningBuilder(Jdbi.create(pool), pool)
                .dialect(dialect)
                .table(table)
                .schemaMode(mode)
                .queryTimeoutSeconds(queryTimeout)
                .description(description)
                .url(url)
                .build();
    }

    /** {@code jdbc:mysql:} goes to MariaDB Connector/J, which wants a flag for it, unless MySQL's own driver is present. */
    private static String driverUrl(String url) {
        if (!url.toLowerCase(Locale.ROOT).startsWith("jdbc:mysql:")) return url;
        try {
            DriverManager.getDriver(url);
            return url;
        } catch (SQLException noDriver) {
            return url + (url.contains("?") ? "&" : "?") + "permitMysqlScheme";
        }
    }

    /** Timeouts (and SQLite's WAL) unless the URL already sets them. */
    private static Map<String, String> driverDefaults(JdbcDialect dialect, String url, int connect, int socket) {
        String u = url.toLowerCase(Locale.ROOT);
        Map<String, String> m = new java.util.LinkedHashMap<>();
        switch (dialect) {
            case POSTGRESQL -> {
                putUnlessIn(m, u, "connectTimeout", String.valueOf(connect));
                putUnlessIn(m, u, "socketTimeout", String.valueOf(socket));
                putUnlessIn(m, u, "tcpKeepAlive", "true");
            }
            case MYSQL -> {
                putUnlessIn(m, u, "connectTimeout", String.valueOf(connect * 1000));
                putUnlessIn(m, u, "socketTimeout", String.valueOf(socket * 1000));
            }
            case H2 -> {
                putUnlessIn(m, u, "LOCK_TIMEOUT", "10000");
                // H2 writes commits to the file up to 500 ms late by default: a JVM killed in that
                // window would lose a claim and let a second resume run the tool again
                putUnlessIn(m, u, "WRITE_DELAY", "0");
            }
            case SQLITE -> {
                putUnlessIn(m, u, "busy_timeout", "10000");
                putUnlessIn(m, u, "journal_mode", "WAL");
            }
        }
        return m;
    }

    private static void putUnlessIn(Map<String, String> m, String lowerUrl, String key, String value) {
        if (!lowerUrl.contains(key.toLowerCase(Locale.ROOT) + "=")) m.put(key, value);
    }

    private static int positive(Map<String, String> p, String key, int fallback) {
        String v = p.get(key);
        if (v == null) return fallback;
        try {
            int n = Integer.parseInt(v.trim());
            if (n > 0) return n;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(key + ": expected a positive integer, was '" + v + "'");
    }
}
