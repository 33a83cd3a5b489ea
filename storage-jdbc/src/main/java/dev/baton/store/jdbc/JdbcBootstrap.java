package dev.baton.store.jdbc;

import dev.baton.StorageException;
import dev.baton.store.StoreCapability;
import java.sql.SQLException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.jspecify.annotations.Nullable;

/**
 * What {@link JdbcSnapshotStore.Builder#build()} does before the store exists: connects, detects the
 * dialect if none was given, applies the {@link SchemaMode}, names the store, and works out its
 * {@link StoreCapability capabilities} from the dialect and the JDBC URL.
 */
final class JdbcBootstrap {
    private JdbcBootstrap() {
    }

    /** What a store is opened with: its dialect, the name it gives itself in messages, and what it offers. */
    record Opened(JdbcDialect dialect, String description, Set<StoreCapability> capabilities) {
    }

    /**
     * Connects, detects the dialect if not given, and applies {@code schemaMode} to {@code table}.
     *
     * @param description how the store names itself, or null for the dialect and table
     * @param url         the JDBC URL if the caller knows it, or null to read it from the connection
     * @throws StorageException if the database cannot be reached or the schema is not usable
     */
    static Opened open(Jdbi jdbi, @Nullable JdbcDialect dialect, String table, SchemaMode schemaMode,
                       @Nullable String description, @Nullable String url) {
        JdbcDialect d = dialect;
        String unnamed = description != null ? description : "JDBC store (table " + table + ")";
        String what = unnamed;
        String jdbcUrl = url;
        try {
            if (d == null) {
                String[] productAndUrl = jdbi.withHandle(h -> {
                    try {
                        var meta = h.getConnection().getMetaData();
                        return new String[] {meta.getDatabaseProductName(), meta.getURL()};
                    } catch (SQLException e) {
                        throw new StorageException(unnamed + ": cannot read the database product name", e);
                    }
                });
                String product = productAndUrl[0];
                if (jdbcUrl == null) jdbcUrl = productAndUrl[1];
                d = JdbcDialect.forProductName(product).orElseThrow(() -> new StorageException(
                        "Baton's JDBC store supports PostgreSQL, MySQL/MariaDB, H2 and SQLite, not " + product));
            }
            String name = description != null ? description : d.displayName() + " (table " + table + ")";
            what = name;
            switch (schemaMode) {
                case CREATE -> Schema.migrate(jdbi, d, table);
                case VALIDATE -> Schema.validate(jdbi, d, table);
                case NONE -> { }
            }
            if (jdbcUrl == null && schemaMode != SchemaMode.NONE && (d == JdbcDialect.H2 || d == JdbcDialect.SQLITE)) {
                jdbcUrl = jdbi.withHandle(h -> {   // connected anyway: which H2 / SQLite database is it?
                    try {
                        return h.getConnection().getMetaData().getURL();
                    } catch (SQLException e) {
                        return null;
                    }
                });
            }
            return new Opened(d, name, withOwnCapabilities(capabilitiesOf(d, jdbcUrl)));
        } catch (JdbiException e) {
            throw new StorageException(what + ": cannot open the store: " + Schema.rootMessage(e), e);
        }
    }

    /**
     * What a store on this database offers. A server database is shared and durable; an H2 or
     * SQLite database depends on its URL (in memory: neither; an H2 file without
     * {@code AUTO_SERVER=TRUE}: durable only). An H2 or SQLite store whose URL is unknown (built
     * with {@link JdbcSnapshotStore.Builder#dialect} and {@link SchemaMode#NONE}, so never connected at
     * build time) claims nothing. {@link StoreCapability#STORE_CLOCK} and
     * {@link StoreCapability#THREAD_MEMORY} and {@link StoreCapability#DECISIONS}, which every JDBC store has, are added by {@link #open}.
     */
    static Set<StoreCapability> capabilitiesOf(JdbcDialect dialect, @Nullable String jdbcUrl) {
        Set<StoreCapability> sharedAndDurable = Set.of(StoreCapability.SHARED, StoreCapability.DURABLE);
        if (dialect == JdbcDialect.POSTGRESQL || dialect == JdbcDialect.MYSQL) return sharedAndDurable;
        if (jdbcUrl == null) return Set.of();
        String u = jdbcUrl.toLowerCase(Locale.ROOT);
        if (dialect == JdbcDialect.H2) {
            String rest = u.startsWith("jdbc:h2:") ? u.substring("jdbc:h2:".length()) : u;
            if (rest.startsWith("mem:")) return Set.of();
            if (rest.startsWith("tcp:") || rest.startsWith("ssl:")) return sharedAndDurable;
            return u.replace(" ", "").contains(";auto_server=true") ? sharedAndDurable : Set.of(StoreCapability.DURABLE);
        }
        String rest = u.startsWith("jdbc:sqlite:") ? u.substring("jdbc:sqlite:".length()) : u;
        int q = rest.indexOf('?');
        String path = q < 0 ? rest : rest.substring(0, q);
        if (path.isEmpty() || path.equals(":memory:") || path.startsWith("file::memory:") || rest.contains("mode=memory")) {
            return Set.of();
        }
        return sharedAndDurable;
    }

    private static Set<StoreCapability> withOwnCapabilities(Set<StoreCapability> capabilities) {
        EnumSet<StoreCapability> all = EnumSet.of(StoreCapability.STORE_CLOCK, StoreCapability.THREAD_MEMORY,
                StoreCapability.DECISIONS, StoreCapability.NOTIFICATIONS);
        all.addAll(capabilities);
        return Collections.unmodifiableSet(all);
    }

    /** What {@link JdbcSnapshotStore#main} does: prints the DDL for {@code <dialect> [table]}. */
    static void printDdl(String[] args) {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: JdbcSnapshotStore postgresql|mysql|h2|sqlite [table]");
            System.exit(2);
        }
        JdbcDialect d = JdbcDialect.valueOf(args[0].toUpperCase(Locale.ROOT));
        System.out.print(JdbcSnapshotStore.ddl(d, args.length > 1 ? args[1] : JdbcSnapshotStore.DEFAULT_TABLE));
    }

    /** Closes the pool a URL-opened store owns, if any, when its open failed: that failure is the one to report. */
    static void closeQuietly(@Nullable AutoCloseable owned) {
        if (owned == null) return;
        try {
            owned.close();
        } catch (Exception ignored) {
            // the open already failed; that error is the one to report
        }
    }

    /** Closes the pool a URL-opened store owns, if any, at {@link JdbcSnapshotStore#close()}. */
    static void close(@Nullable AutoCloseable owned, String description) {
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                throw new StorageException(description + ": closing the connection pool failed", e);
            }
        }
    }
}
