package dev.baton.store.jdbc;

import dev.baton.StorageException;
import dev.baton.store.RunSnapshot;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.statement.SqlStatement;
import org.jdbi.v3.core.statement.SqlStatements;
import org.jdbi.v3.core.statement.TemplateEngine;
import org.jspecify.annotations.Nullable;

/**
 * What the run store and the memory store of one {@link JdbcSnapshotStore} share: the Jdbi (and
 * so the pool), the dialect, the name used in messages, the query timeout, and whether the store
 * is closed. Every call goes through {@link #call}: one handle (one pooled connection) per call,
 * driver failures wrapped in a {@link StorageException}.
 */
final class JdbcAccess {
    final Jdbi jdbi;
    final JdbcDialect dialect;
    final String description;
    private final int queryTimeoutSeconds;
    /** The pool behind {@link #jdbi} when the store knows it (opened by URL or from a DataSource), else null. */
    private final @Nullable DataSource dataSource;
    private volatile boolean closed;

    JdbcAccess(Jdbi jdbi, @Nullable DataSource dataSource, JdbcDialect dialect, String description, int queryTimeoutSeconds) {
        this.jdbi = jdbi;
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.description = description;
        this.queryTimeoutSeconds = queryTimeoutSeconds;
    }

    /** Marks the store closed; every later call fails. Returns false if it already was. */
    boolean close() {
        if (closed) return false;
        closed = true;
        return true;
    }

    /**
     * Runs {@code work} on a handle of its own, with the query timeout set on the handle's own copy
     * of the configuration (a user's Jdbi keeps its settings).
     *
     * @param what  what is being done, for the message of a failure ("insert", "list", ...)
     * @param subject the run or thread the call is about, or null
     */
    <T> T call(String what, @Nullable String subject, Function<Handle, T> work) {
        return call(what, "run", subject, work);
    }

    /**
     * As {@link #call(String, String, Function)}, for a subject of another kind: the message of a
     * failure reads "{@code <what> <kind> '<subject>' failed}", e.g. "appending to thread 't-1' failed".
     */
    <T> T call(String what, String kind, @Nullable String subject, Function<Handle, T> work) {
        if (closed) throw new StorageException(description + " is closed; " + what + " was not done");
        try {
            return jdbi.withHandle(h -> {
                // the handle's own copy of the configuration: a user's Jdbi keeps its parser, template engine and timeout
                positional(h).getConfig(SqlStatements.class).setQueryTimeout(queryTimeoutSeconds);
                return work.apply(h);
            });
        } catch (JdbiException e) {
            if (subject != null && !kind.equals("run")) {
                throw new StorageException(description + ": " + what + " " + kind + " '" + subject + "' failed: "
                        + Schema.rootMessage(e), e);
            }
            throw StorageException.failed(description, what, subject, Schema.rootMessage(e), e);
        }
    }

    /**
     * {@code h}, its own copy of the configuration set to take the store's SQL as it is: {@link PositionalSqlParser},
     * no template engine. Every statement the store sends through a Jdbi handle goes through one so set.
     */
    static Handle positional(Handle h) {
        h.getConfig(SqlStatements.class).setSqlParser(PositionalSqlParser.INSTANCE).setTemplateEngine(TemplateEngine.NOP);
        return h;
    }

    /** Work on one plain JDBC connection. */
    @FunctionalInterface
    interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} on a connection of its own, in plain JDBC: borrowed from the pool when the store
     * knows it, else the connection of a Jdbi handle opened for the call. The statements on one run (insert,
     * find, compare-and-set, delete) take this path: a Jdbi handle and statement cost several times the
     * driver's own work per call (see docs/BENCHMARKS.md, "Where a cycle's time goes"). Statements must be
     * {@link #prepare prepared} here, so that they carry the query timeout; the connection is handed back
     * in the state it came in (autocommit on).
     *
     * @param what    what is being done, for the message of a failure
     * @param subject the run the call is about, or null
     */
    <T> T withConnection(String what, @Nullable String subject, SqlWork<T> work) {
        if (closed) throw new StorageException(description + " is closed; " + what + " was not done");
        try {
            if (dataSource != null) {
                try (Connection c = dataSource.getConnection()) {
                    return autocommitted(c, work);
                }
            }
            try (Handle h = jdbi.open()) {
                return autocommitted(h.getConnection(), work);
            }
        } catch (SQLException | JdbiException e) {
            throw StorageException.failed(description, what, subject, Schema.rootMessage(e), e);
        }
    }

    /** Runs {@code work} with autocommit on (each statement its own transaction), as the connection came back. */
    private static <T> T autocommitted(Connection c, SqlWork<T> work) throws SQLException {
        if (c.getAutoCommit()) return work.run(c);
        c.setAutoCommit(true);   // an application's pool may hand out connections without autocommit
        try {
            return work.run(c);
        } finally {
            c.setAutoCommit(false);
        }
    }

    /**
     * Runs {@code work} in one transaction on {@code c} (autocommit on when called): committed if it
     * returns true, rolled back if it returns false or throws; autocommit is on again afterwards. On
     * MySQL/MariaDB the transaction is an explicit {@code START TRANSACTION} ... {@code COMMIT} with
     * autocommit left on: the driver sends {@code SET autocommit} to the server at each switch, two round
     * trips more a transaction.
     */
    boolean inTransaction(Connection c, SqlWork<Boolean> work) throws SQLException {
        if (dialect == JdbcDialect.MYSQL) {
            try (java.sql.Statement st = c.createStatement()) {
                st.execute("START TRANSACTION");
                boolean done = false;
                try {
                    boolean ok = work.run(c);
                    st.execute(ok ? "COMMIT" : "ROLLBACK");
                    done = true;
                    return ok;
                } finally {
                    if (!done) rollbackQuietly(st);
                }
            }
        }
        c.setAutoCommit(false);
        boolean done = false;
        try {
            boolean ok = work.run(c);
            if (ok) c.commit();
            else c.rollback();
            done = true;
            return ok;
        } finally {
            try {
                if (!done) c.rollback();
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    /** After a failure inside an explicit transaction: roll it back, keeping the failure that is on its way. */
    private static void rollbackQuietly(java.sql.Statement st) {
        try {
            st.execute("ROLLBACK");
        } catch (SQLException broken) {
            // the connection is broken: the pool drops it, and the server rolls the transaction back
        }
    }

    /** A statement on {@code c} with the store's query timeout. */
    PreparedStatement prepare(Connection c, String sql) throws SQLException {
        PreparedStatement p = c.prepareStatement(sql);
        p.setQueryTimeout(queryTimeoutSeconds);
        return p;
    }

    /** Binds an id at {@code index} (1-based): UTF-8 bytes on MySQL/MariaDB, else the string; null as NULL. */
    void setId(PreparedStatement p, int index, @Nullable String value) throws SQLException {
        if (value == null) p.setNull(index, dialect.idsAreBinary() ? Types.VARBINARY : Types.VARCHAR);
        else if (dialect.idsAreBinary()) p.setBytes(index, value.getBytes(StandardCharsets.UTF_8));
        else p.setString(index, value);
    }

    static void setText(PreparedStatement p, int index, @Nullable String value) throws SQLException {
        if (value == null) p.setNull(index, Types.VARCHAR);
        else p.setString(index, value);
    }

    static void setMillis(PreparedStatement p, int index, @Nullable Instant value) throws SQLException {
        if (value == null) p.setNull(index, Types.BIGINT);
        else p.setLong(index, value.toEpochMilli());
    }

    // ---------------------------------------------------------------- ids and values

    /** Whether {@code id} fits the id columns, see {@link JdbcDialect#fits}. */
    boolean fits(@Nullable String id) {
        return id == null || dialect.fits(id);
    }

    /** Fails with an {@link IllegalArgumentException} naming {@code field} if {@code value} does not fit an id column. */
    void checkFits(String field, @Nullable String value, String of) {
        if (value != null && !dialect.fits(value)) {
            throw new IllegalArgumentException(field + " '" + value.substring(0, Math.min(40, value.length()))
                    + "...' " + of + "is longer than the " + dialect.idLimit() + " " + description + " keeps");
        }
    }

    /** Whether a thread key fits the memory tables' key columns, see {@link JdbcDialect#fitsThreadKey}. */
    boolean fitsThreadKey(String key) {
        return dialect.fitsThreadKey(key);
    }

    /** Fails with an {@link IllegalArgumentException} if a thread key does not fit the memory tables' key columns. */
    void checkThreadKeyFits(String key) {
        if (!dialect.fitsThreadKey(key)) {
            throw new IllegalArgumentException("thread key '" + key.substring(0, Math.min(40, key.length()))
                    + "...' is longer than the " + dialect.threadKeyLimit() + " " + description + " keeps");
        }
    }

    /**
     * Fails with an {@link IllegalArgumentException} naming the field if an id of {@code s} does not
     * fit an id column or its lease owner is longer than 255 characters.
     */
    void checkFits(RunSnapshot s) {
        checkFits("runId", s.runId(), "");
        checkFits("agentId", s.agentId(), "");
        checkFits("threadId", s.threadId(), "");
        checkFits("resourceId", s.resourceId(), "");
        if (s.leaseOwner() != null && s.leaseOwner().length() > 255) {
            throw new IllegalArgumentException("leaseOwner of run '" + s.runId() + "' is longer than the 255 characters "
                    + description + " keeps");
        }
    }

    /** An id as bound: UTF-8 bytes on MySQL/MariaDB ({@code VARBINARY}), else the string. */
    Object id(String value) {
        return dialect.idsAreBinary() ? value.getBytes(StandardCharsets.UTF_8) : value;
    }

    @Nullable String readId(ResultSet rs, int index) throws SQLException {
        if (!dialect.idsAreBinary()) return rs.getString(index);
        byte[] b = rs.getBytes(index);
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    void bindId(SqlStatement<?> st, int index, @Nullable String value) {
        if (value == null) st.bindNull(index, dialect.idsAreBinary() ? Types.VARBINARY : Types.VARCHAR);
        else st.bind(index, id(value));
    }

    static void bindText(SqlStatement<?> st, int index, @Nullable String value) {
        if (value == null) st.bindNull(index, Types.VARCHAR);
        else st.bind(index, value);
    }

    /** Binds {@code params} from position 0 on; ids must already be in their bound form ({@link #id}). */
    static void bindAll(SqlStatement<?> st, java.util.List<Object> params) {
        for (int i = 0; i < params.size(); i++) st.bind(i, params.get(i));
    }

    /** The database server's clock: one {@link JdbcDialect#nowMillisSql()} query. */
    Instant now() {
        return call("reading the clock", null, h -> Instant.ofEpochMilli(
                h.createQuery(dialect.nowMillisSql()).mapTo(Long.class).one()));
    }
}
