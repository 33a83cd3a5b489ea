package dev.baton.store.jdbc;

import dev.baton.StorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToCreateStatementException;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The versioned migrations of the runs table, one SQL file per version and dialect under
 * {@code dev/baton/store/jdbc/migrations/<dialect>/}, and the {@code <table>_schema_history}
 * table that records which were applied.
 *
 * <p>Two instances may start at once. PostgreSQL takes a transaction-scoped advisory lock (its
 * DDL is transactional, so a migration applies whole or not at all); MySQL/MariaDB take a named
 * {@code GET_LOCK}; H2 and SQLite, which have no such lock, retry a migration that lost a race.
 * On every database each statement is idempotent ({@code IF NOT EXISTS}) and a duplicate history
 * row is accepted, so concurrent starts end with one table and one history row per version.
 */
final class Schema {
    private static final Logger LOG = LoggerFactory.getLogger(Schema.class);

    /** Every migration, in order. Append new ones; never edit an applied one. */
    static final List<Migration> MIGRATIONS = List.of(new Migration(1, "create_runs"));

    /** The columns the store reads and writes; VALIDATE checks that they exist. */
    static final String COLUMNS = "run_id, agent_id, status, thread_id, resource_id, created_at, suspended_at,"
            + " version, lease_owner, lease_expires_at, payload";

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,39}");
    private static final int LOCK_WAIT_SECONDS = 30;

    record Migration(int version, String description) {
        String fileName() {
            return String.format("V%03d__%s.sql", version, description);
        }
    }

    private Schema() {
    }

    /** Checks a table name: letters, digits and underscores, at most 40, not starting with a digit. */
    static String checkTable(String table) {
        if (table == null || !IDENTIFIER.matcher(table).matches()) {
            throw new IllegalArgumentException("table: expected a plain SQL identifier (letters, digits, _; at most"
                    + " 40 characters, not starting with a digit), was '" + table + "'");
        }
        return table;
    }

    static String historyTable(String table) {
        return table + "_schema_history";
    }

    private static String historyDdl(String table) {
        return "CREATE TABLE IF NOT EXISTS " + historyTable(table) + " (version INTEGER NOT NULL PRIMARY KEY,"
                + " description VARCHAR(200) NOT NULL, installed_at BIGINT NOT NULL)";
    }

    /** The statements of one migration, with the table name filled in. */
    static List<String> statements(JdbcDialect dialect, String table, Migration m) {
        String path = "migrations/" + dialect.folder() + "/" + m.fileName();
        String text;
        try (InputStream in = Schema.class.getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("missing resource " + path);
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + path, e);
        }
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String line : text.split("\n")) {
            String t = line.strip();
            if (t.startsWith("--") || t.isEmpty()) continue;
            cur.append(line).append('\n');
            if (t.endsWith(";")) {
                String s = cur.toString().strip();
                out.add(s.substring(0, s.length() - 1).replace("${table}", table));
                cur.setLength(0);
            }
        }
        if (!cur.toString().isBlank()) out.add(cur.toString().strip().replace("${table}", table));
        return out;
    }

    /** The whole DDL (history table and every migration) as a script, for people who run it themselves. */
    static String ddl(JdbcDialect dialect, String table) {
        checkTable(table);
        StringBuilder b = new StringBuilder();
        b.append("-- Baton runs table for ").append(dialect.displayName()).append('\n');
        for (Migration m : MIGRATIONS) {
            b.append("-- ").append(m.fileName()).append('\n');
            for (String s : statements(dialect, table, m)) b.append(s).append(";\n");
        }
        b.append("-- optional: the history table that schemaMode=create keeps\n");
        b.append(historyDdl(table)).append(";\n");
        return b.toString();
    }

    /** Applies the missing migrations. */
    static void migrate(Jdbi jdbi, JdbcDialect dialect, String table) {
        switch (dialect) {
            case POSTGRESQL -> jdbi.useTransaction(h -> {
                h.execute("SET LOCAL lock_timeout = '" + LOCK_WAIT_SECONDS + "s'");
                // the key is ours (a hash of the table name), not user input: safe to inline
                h.createQuery("SELECT 1 FROM (SELECT pg_advisory_xact_lock(" + lockKey(table) + ")) AS l")
                        .mapTo(Integer.class).one();
                apply(h, dialect, table);
            });
            case MYSQL -> jdbi.useHandle(h -> {
                String name = "baton-migrate:" + table;
                Integer got = h.createQuery("SELECT GET_LOCK(?, ?)").bind(0, name).bind(1, LOCK_WAIT_SECONDS)
                        .mapTo(Integer.class).one();
                if (got == null || got != 1) {
                    throw new StorageException("Could not take the migration lock '" + name + "' within "
                            + LOCK_WAIT_SECONDS + " s: another instance is migrating " + table + " or died holding it");
                }
                try {
                    apply(h, dialect, table);
                } finally {
                    h.createQuery("SELECT RELEASE_LOCK(?)").bind(0, name).mapTo(Integer.class).findOne();
                }
            });
            case H2, SQLITE -> applyWithRetries(jdbi, dialect, table);
        }
    }

    /**
     * H2 and SQLite have no advisory lock, and H2 commits at every DDL statement, so a lock row
     * would not hold. Every statement is idempotent instead: an instance that loses a race
     * ("index already exists" while another creates it) simply runs the migration again.
     */
    private static void applyWithRetries(Jdbi jdbi, JdbcDialect dialect, String table) {
        java.util.Random jitter = new java.util.Random();
        for (int attempt = 1; ; attempt++) {
            try {
                jdbi.useHandle(h -> apply(h, dialect, table));
                return;
            } catch (org.jdbi.v3.core.JdbiException e) {
                if (attempt == 5) throw e;
                LOG.debug("Migration of {} raced with another instance (attempt {}): {}", table, attempt, rootMessage(e));
                try {
                    Thread.sleep(20L * attempt + jitter.nextInt(50));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static void apply(Handle h, JdbcDialect dialect, String table) {
        h.execute(historyDdl(table));
        Set<Integer> applied = h.createQuery("SELECT version FROM " + historyTable(table)).mapTo(Integer.class).set();
        for (Migration m : MIGRATIONS) {
            if (applied.contains(m.version())) continue;
            for (String s : statements(dialect, table, m)) h.execute(s);
            try {
                h.execute("INSERT INTO " + historyTable(table) + " (version, description, installed_at) VALUES (?, ?, ?)",
                        m.version(), m.description(), System.currentTimeMillis());
                LOG.info("Applied Baton migration {} to {} ({})", m.fileName(), table, dialect.displayName());
            } catch (UnableToExecuteStatementException e) {
                // another instance applied the same (idempotent) migration at the same moment
                if (!(e.getCause() instanceof SQLException se) || !dialect.isDuplicateKey(se)) throw e;
            }
        }
    }

    /** Fails unless the table has every column the store uses. */
    static void validate(Jdbi jdbi, String table) {
        try {
            jdbi.useHandle(h -> h.createQuery("SELECT " + COLUMNS + " FROM " + table + " WHERE 1 = 0").mapToMap().list());
        } catch (UnableToCreateStatementException | UnableToExecuteStatementException e) {
            // H2 and SQLite refuse the statement when preparing it, the others when running it
            throw new StorageException("schemaMode=validate: table " + table + " is missing or lacks one of the columns "
                    + COLUMNS + " (" + rootMessage(e) + "). Create it with the DDL of JdbcSnapshotStore.ddl(dialect, \""
                    + table + "\") or use schemaMode=create.", e);
        }
    }

    private static long lockKey(String table) {
        // a fixed tag in the high bits keeps Baton's key away from small keys other code may use
        return (0x6261746fL << 32) | (table.hashCode() & 0xffffffffL);
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
