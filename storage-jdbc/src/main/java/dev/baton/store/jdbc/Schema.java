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
import org.jdbi.v3.core.statement.StatementException;
import org.jdbi.v3.core.statement.UnableToCreateStatementException;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The versioned migrations of the store's tables (the runs table {@code <table>}, and the thread
 * memory's {@code <table>_threads} and {@code <table>_messages}), one SQL file per version and
 * dialect under {@code dev/baton/store/jdbc/migrations/<dialect>/}, and the
 * {@code <table>_schema_history} table that records which were applied.
 *
 * <p>Two instances may start at once. PostgreSQL takes a transaction-scoped advisory lock (its
 * DDL is transactional, so a migration applies whole or not at all); MySQL/MariaDB take a named
 * {@code GET_LOCK}; H2 and SQLite, which have no such lock, retry a migration that lost a race.
 * On every database each statement is idempotent ({@code IF NOT EXISTS}; where the database has
 * no such clause, MySQL's columns and indexes and SQLite's columns, the error "it already
 * exists" counts as done) and a duplicate history row is accepted, so concurrent starts end with
 * one set of tables and one history row per version, and a migration that stopped half-way
 * (MySQL's DDL is not transactional) completes on the next start.
 */
final class Schema {
    private static final Logger LOG = LoggerFactory.getLogger(Schema.class);

    /** Every migration, in order. Append new ones; never edit an applied one. */
    static final List<Migration> MIGRATIONS = List.of(
            new Migration(1, "create_runs"),
            new Migration(2, "deadlines_summaries_covering_indexes"),
            new Migration(3, "thread_memory"),
            new Migration(4, "decisions"),
            new Migration(5, "notifications"),
            new Migration(6, "thread_keys"),
            new Migration(7, "deciders"),
            new Migration(8, "deciders_by_agent"),
            new Migration(9, "waiting_for_me_indexes"));

    /** The columns of the runs table the store reads and writes, in this order; VALIDATE checks that they exist. */
    static final String COLUMNS = "run_id, agent_id, status, thread_id, resource_id, created_at, suspended_at,"
            + " version, lease_owner, lease_expires_at, payload, expires_at, summary, notify_at, notify_state, deciders";
    /** The columns of {@code <table>_threads}, in the order {@link JdbcMemoryStore} reads them. */
    static final String THREAD_COLUMNS = "id, resource_id, title, metadata, created_at, updated_at";
    /** The columns of {@code <table>_messages}, in the order {@link JdbcMemoryStore} reads them. */
    static final String MESSAGE_COLUMNS = "thread_id, seq, run_id, run_index, role, content, created_at";

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,39}");
    private static final int LOCK_WAIT_SECONDS = 30;
    /** Per dialect and table: the migrations of H2 and SQLite stores in this JVM take turns. */
    private static final java.util.concurrent.ConcurrentMap<String, java.util.concurrent.locks.ReentrantLock> IN_PROCESS =
            new java.util.concurrent.ConcurrentHashMap<>();

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

    /** The thread memory's threads table. */
    static String threadsTable(String table) {
        return table + "_threads";
    }

    /** The thread memory's messages table. */
    static String messagesTable(String table) {
        return table + "_messages";
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
        b.append("-- Baton tables for ").append(dialect.displayName()).append(": runs (").append(table)
                .append("), thread memory (").append(threadsTable(table)).append(", ").append(messagesTable(table))
                .append("), decisions (").append(table).append("_decisions)")
                .append(dialect == JdbcDialect.POSTGRESQL ? "" : ", decider labels (" + table + "_deciders)").append('\n');
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
                JdbcAccess.positional(h);
                h.execute("SET LOCAL lock_timeout = '" + LOCK_WAIT_SECONDS + "s'");
                // the key is ours (a hash of the table name), not user input: safe to inline
                h.createQuery("SELECT 1 FROM (SELECT pg_advisory_xact_lock(" + lockKey(table) + ")) AS l")
                        .mapTo(Integer.class).one();
                apply(h, dialect, table);
            });
            case MYSQL -> jdbi.useHandle(h -> {
                JdbcAccess.positional(h);
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
     *
     * <p>Stores in one JVM (where an embedded database's instances usually are) also take turns,
     * per table name: H2 copies a table for {@code ALTER TABLE ... ADD COLUMN}, and two such
     * copies of one table at once can wait on each other's lock of the schema for a long time.
     */
    private static void applyWithRetries(Jdbi jdbi, JdbcDialect dialect, String table) {
        java.util.Random jitter = new java.util.Random();
        java.util.concurrent.locks.ReentrantLock turn = IN_PROCESS.computeIfAbsent(dialect + ":" + table,
                k -> new java.util.concurrent.locks.ReentrantLock());
        for (int attempt = 1; ; attempt++) {
            try {
                turn.lock();
                try {
                    jdbi.useHandle(h -> apply(JdbcAccess.positional(h), dialect, table));
                } finally {
                    turn.unlock();
                }
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
            for (String s : statements(dialect, table, m)) execute(h, dialect, s);
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

    /**
     * One migration statement. Where the database cannot say {@code IF NOT EXISTS} (MySQL's
     * columns and indexes, SQLite's columns), "it already exists" (or, for a drop, "it is
     * already gone") means an earlier, interrupted run of this migration did it.
     */
    private static void execute(Handle h, JdbcDialect dialect, String statement) {
        try {
            h.execute(statement);
        } catch (StatementException e) {   // SQLite refuses "duplicate column" when preparing, the others when running
            if (!(e.getCause() instanceof SQLException se) || !dialect.isAlreadyApplied(se)) throw e;
            LOG.debug("Already applied, skipped: {} ({})", statement, se.getMessage());
        }
    }

    /**
     * Fails unless every table has every column the store uses: the runs table (with MySQL's
     * {@code lease_state} and {@code waiting_version}) and the thread memory's two tables.
     */
    static void validate(Jdbi jdbi, JdbcDialect dialect, String table) {
        String runColumns = dialect == JdbcDialect.MYSQL ? COLUMNS + ", lease_state, waiting_version" : COLUMNS;
        validate(jdbi, table, table, runColumns);
        validate(jdbi, table, threadsTable(table), THREAD_COLUMNS + ", next_seq");
        validate(jdbi, table, messagesTable(table), MESSAGE_COLUMNS);
        validate(jdbi, table, table + "_decisions", JdbcDecisions.COLUMNS);
        if (dialect != JdbcDialect.POSTGRESQL) validate(jdbi, table, table + "_deciders", "run_id, label, agent_id, version");
    }

    private static void validate(Jdbi jdbi, String table, String checked, String columns) {
        try {
            jdbi.useHandle(h -> JdbcAccess.positional(h).createQuery("SELECT " + columns + " FROM " + checked + " WHERE 1 = 0")
                    .mapToMap().list());
        } catch (UnableToCreateStatementException | UnableToExecuteStatementException e) {
            // H2 and SQLite refuse the statement when preparing it, the others when running it
            throw new StorageException("schemaMode=validate: table " + checked + " is missing or lacks one of the columns "
                    + columns + " (" + rootMessage(e) + "). Create the tables with the DDL of JdbcSnapshotStore.ddl(dialect, \""
                    + table + "\") (every migration, in order) or use schemaMode=create.", e);
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
