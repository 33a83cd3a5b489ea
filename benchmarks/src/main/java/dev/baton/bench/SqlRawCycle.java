package dev.baton.bench;

import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.jdbc.JdbcDialect;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link RawCycle} in plain JDBC on one connection, prepared statements kept for the connection's
 * life, autocommit but for the claim: the store's statements on the store's table, {@code INSERT}
 * of every column, {@code SELECT} of every column by primary key, the claim's {@code UPDATE ...
 * WHERE run_id = ? AND version = ?} and the decision record's {@code INSERT} in one transaction,
 * the result's {@code UPDATE}, the {@code DELETE ... WHERE run_id = ? AND version = ?}. Each
 * statement's row count is checked, so nothing is skipped. On SQLite, which takes one writer at a time,
 * the threads of this JVM take turns (a lock) rather than fail with {@code SQLITE_BUSY}.
 *
 * <p>The run's decider labels ({@code RunSnapshot.deciders()}, the "waiting for me" index) as the store writes
 * them (storage-jdbc's {@code DeciderLabels}): the {@code deciders} column of every {@code INSERT} and
 * {@code UPDATE}; on PostgreSQL a {@code TEXT[]} of the labels qualified by the agent
 * ({@code <length of agent_id>:<agent_id><label>}, migration V008; the partial GIN index holds the SUSPENDED
 * rows), elsewhere the labels as text ({@code <length>:<label>...}) and, for a SUSPENDED snapshot with labels,
 * the upsert of one {@code <table>_deciders} row per label at the snapshot's version, in one transaction with the
 * run's write (the suspension's insert: a claim writes none). The label rows go with the run's {@code DELETE}
 * ({@code ON DELETE CASCADE} on MariaDB and H2, a trigger on SQLite), as the store's do: no statement of ours.
 */
final class SqlRawCycle implements RawCycle {
    static final String COLUMNS = "run_id, agent_id, status, thread_id, resource_id, created_at, suspended_at, version,"
            + " lease_owner, lease_expires_at, payload, expires_at, summary, notify_at, notify_state, deciders";
    static final String CHANGING = "status = ?, suspended_at = ?, version = ?, lease_owner = ?, lease_expires_at = ?,"
            + " payload = ?, expires_at = ?, summary = ?, notify_at = ?, notify_state = ?, deciders = ?";
    static final String DECISION_COLUMNS = "decision_id, agent_id, run_id, thread_id, resource_id, tool_call_id, tool_name,"
            + " kind, actor, instance_id, decided_at, reason, digest_before, digest_after, idempotency_key";

    private final Connection c;
    private final JdbcDialect dialect;
    private final boolean binary;
    private final CycleTemplate t;
    private final PreparedStatement insert;
    private final PreparedStatement find;
    private final PreparedStatement cas;
    private final PreparedStatement decision;
    private final PreparedStatement delete;
    private final PreparedStatement remove;
    private final PreparedStatement notify;
    /** The upsert of a SUSPENDED snapshot's label rows, by number of labels (not on PostgreSQL). */
    private final Map<Integer, PreparedStatement> labelRows = new HashMap<>();
    private final String sideTable;

    SqlRawCycle(Connection c, String table, JdbcDialect dialect, CycleTemplate t) throws SQLException {
        this.c = c;
        this.dialect = dialect;
        this.writer = dialect == JdbcDialect.SQLITE ? SQLITE_WRITER : null;
        this.binary = dialect == JdbcDialect.MYSQL;
        this.t = t;
        this.sideTable = table + "_deciders";
        c.setAutoCommit(true);
        insert = c.prepareStatement("INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        find = c.prepareStatement("SELECT " + COLUMNS + " FROM " + table + " WHERE run_id = ?");
        cas = c.prepareStatement("UPDATE " + table + " SET " + CHANGING + " WHERE run_id = ? AND version = ?");
        decision = c.prepareStatement("INSERT INTO " + table + "_decisions (" + DECISION_COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        delete = c.prepareStatement("DELETE FROM " + table + " WHERE run_id = ? AND version = ?");
        remove = c.prepareStatement("DELETE FROM " + table + " WHERE run_id = ?");
        notify = c.prepareStatement("UPDATE " + table + " SET notify_at = ?, notify_state = ? WHERE run_id = ? AND version = ?"
                + " AND notify_at = ?");
    }

    /** SQLite takes one writer at a time: by hand, the threads take turns (one lock in this JVM) instead of failing busy. */
    private static final Object SQLITE_WRITER = new Object();
    private final Object writer;

    @Override
    public void cycle(String runId) {
        asTheWriter(() -> cycle0(runId));
    }

    /** Runs {@code writes} alone when the database takes one writer at a time (SQLite), else at once. */
    private void asTheWriter(Runnable writes) {
        if (writer == null) {
            writes.run();
            return;
        }
        synchronized (writer) {
            writes.run();
        }
    }

    private void cycle0(String runId) {
        try {
            long sh = t.shiftToNow();
            doInsert(t.as(t.inserted(), runId, sh));
            doFind(runId);
            doClaim(runId, sh);
            RunSnapshot r = t.as(t.result(), runId, sh);
            if (needsRows(r)) {
                c.setAutoCommit(false);
                try {
                    doUpdate(r, t.resultVersion(), "result");
                    writeRows(r);
                    c.commit();
                } catch (SQLException | RuntimeException e) {
                    c.rollback();
                    throw e;
                } finally {
                    c.setAutoCommit(true);
                }
            } else {
                doUpdate(r, t.resultVersion(), "result");
            }
            id(delete, 1, runId);
            delete.setLong(2, t.deleteVersion());
            one(delete.executeUpdate(), "delete");
        } catch (SQLException e) {
            throw new IllegalStateException("raw cycle of " + runId + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void suspend(String runId) {
        asTheWriter(() -> suspend0(runId));
    }

    private void suspend0(String runId) {
        try {
            doInsert(t.as(t.inserted(), runId, t.shiftToNow()));
        } catch (SQLException e) {
            throw new IllegalStateException("raw insert of " + runId + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void claim(String runId) {
        try {
            doClaim(runId, t.shiftToNow());
        } catch (SQLException e) {
            throw new IllegalStateException("raw claim of " + runId + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void notify(String runId, long version, Instant expectedNotifyAt, Instant notifyAt, String notifyState) {
        asTheWriter(() -> {
            try {
                millis(notify, 1, notifyAt);
                text(notify, 2, notifyState);
                id(notify, 3, runId);
                notify.setLong(4, version);
                millis(notify, 5, expectedNotifyAt);
                one(notify.executeUpdate(), "notification");
            } catch (SQLException e) {
                throw new IllegalStateException("raw notification of " + runId + ": " + e.getMessage(), e);
            }
        });
    }

    @Override
    public void remove(String runId) {
        if (writer != null) {
            synchronized (writer) {
                remove0(runId);
            }
            return;
        }
        remove0(runId);
    }

    private void remove0(String runId) {
        for (int attempt = 1; ; attempt++) {
            try {
                id(remove, 1, runId);
                remove.executeUpdate();
                return;
            } catch (java.sql.SQLTransactionRollbackException e) {
                // InnoDB: eight threads removing their rows at once can deadlock on the secondary indexes
                if (attempt == 5) throw new IllegalStateException("raw delete of " + runId + ": " + e.getMessage(), e);
            } catch (SQLException e) {
                throw new IllegalStateException("raw delete of " + runId + ": " + e.getMessage(), e);
            }
        }
    }

    /** The insert of {@code s}: with its label rows in one transaction when it has some (as the store), else alone. */
    private void doInsert(RunSnapshot s) throws SQLException {
        if (!needsRows(s)) {
            insertRow(s);
            return;
        }
        c.setAutoCommit(false);
        try {
            insertRow(s);
            writeRows(s);
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private void insertRow(RunSnapshot s) throws SQLException {
        id(insert, 1, s.runId());
        id(insert, 2, s.agentId());
        insert.setString(3, s.status().name());
        id(insert, 4, s.threadId());
        id(insert, 5, s.resourceId());
        insert.setLong(6, s.createdAt().toEpochMilli());
        insert.setLong(7, s.suspendedAt().toEpochMilli());
        insert.setLong(8, s.version());
        text(insert, 9, s.leaseOwner());
        millis(insert, 10, s.leaseExpiresAt());
        insert.setString(11, s.payload());
        millis(insert, 12, s.expiresAt());
        insert.setString(13, s.summary());
        millis(insert, 14, s.notifyAt());
        text(insert, 15, s.notifyState());
        labels(insert, 16, s);
        one(insert.executeUpdate(), "insert");
    }

    /** Whether writing {@code s} also upserts label rows: a SUSPENDED snapshot with labels, outside PostgreSQL. */
    private boolean needsRows(RunSnapshot s) {
        return dialect != JdbcDialect.POSTGRESQL && s.status() == RunStatus.SUSPENDED && !s.deciders().isEmpty();
    }

    /** Upserts one {@code <table>_deciders} row per label of {@code s} at its version, in one statement (the store's). */
    private void writeRows(RunSnapshot s) throws SQLException {
        Set<String> labels = s.deciders();
        PreparedStatement p = labelRows.get(labels.size());
        if (p == null) {
            StringBuilder values = new StringBuilder();
            for (int k = 0; k < labels.size(); k++) values.append(k == 0 ? "" : ", ").append("(?, ?, ?, ?)");
            String sql = switch (dialect) {
                case MYSQL -> "INSERT INTO " + sideTable + " (run_id, label, agent_id, version) VALUES " + values
                        + " ON DUPLICATE KEY UPDATE version = VALUES(version)";
                case H2 -> "MERGE INTO " + sideTable + " (run_id, label, agent_id, version) KEY (run_id, label) VALUES " + values;
                case SQLITE -> "INSERT INTO " + sideTable + " (run_id, label, agent_id, version) VALUES " + values
                        + " ON CONFLICT (run_id, label) DO UPDATE SET version = excluded.version";
                case POSTGRESQL -> throw new IllegalStateException("PostgreSQL keeps decider labels in the runs table");
            };
            p = c.prepareStatement(sql);
            labelRows.put(labels.size(), p);
        }
        int i = 1;
        for (String label : labels) {
            id(p, i++, s.runId());
            id(p, i++, label);
            id(p, i++, s.agentId());
            p.setLong(i++, s.version());
        }
        if (p.executeUpdate() < 1) throw new IllegalStateException("raw label rows of " + s.runId() + " changed no row");
    }

    /** Binds the {@code deciders} column of {@code s} at {@code index}, as the store does. */
    private void labels(PreparedStatement p, int index, RunSnapshot s) throws SQLException {
        Set<String> labels = s.deciders();
        if (dialect == JdbcDialect.POSTGRESQL) {
            if (labels.isEmpty()) {
                p.setNull(index, Types.ARRAY);
                return;
            }
            String q = SqlBackend.pgQualifier(s.agentId());
            String[] qualified = new String[labels.size()];
            int k = 0;
            for (String l : labels) qualified[k++] = q + l;
            p.setArray(index, c.createArrayOf("text", qualified));
            return;
        }
        text(p, index, SqlBackend.labelsText(labels));
    }

    /** The {@code UPDATE ... WHERE run_id = ? AND version = ?} of {@code r}; one row, else it fails. */
    private void doUpdate(RunSnapshot r, long expectedVersion, String what) throws SQLException {
        bindChanging(cas, r);
        id(cas, CHANGING_WIDTH + 1, r.runId());
        cas.setLong(CHANGING_WIDTH + 2, expectedVersion);
        one(cas.executeUpdate(), what);
    }

    private static final int CHANGING_WIDTH = 11;

    private void doFind(String runId) throws SQLException {
        id(find, 1, runId);
        try (ResultSet rs = find.executeQuery()) {
            if (!rs.next()) throw new IllegalStateException("raw find: " + runId + " is not there");
            // read every column, as the store does (ids as bytes on MariaDB; the labels an array on PostgreSQL)
            for (int k = 1; k <= 16; k++) {
                if (binary && (k == 1 || k == 2 || k == 4 || k == 5)) rs.getBytes(k);
                else if (k >= 6 && k <= 8 || k == 10 || k == 12 || k == 14) rs.getLong(k);
                else if (k == 16 && dialect == JdbcDialect.POSTGRESQL) {
                    java.sql.Array a = rs.getArray(k);
                    if (a != null) {
                        a.getArray();
                        a.free();
                    }
                } else rs.getString(k);
            }
        }
    }

    private void doClaim(String runId, long sh) throws SQLException {
        RunSnapshot s = t.as(t.claimed(), runId, sh);
        c.setAutoCommit(false);
        try {
            doUpdate(s, t.claimVersion(), "claim");
            if (needsRows(s)) writeRows(s);
            for (DecisionRecord d : t.decisionsAs(runId, sh)) {
                int i = 1;
                id(decision, i++, d.decisionId());
                id(decision, i++, d.agentId());
                id(decision, i++, d.runId());
                id(decision, i++, d.threadId());
                id(decision, i++, d.resourceId());
                id(decision, i++, d.toolCallId());
                id(decision, i++, d.toolName());
                decision.setString(i++, d.kind().wireName());
                id(decision, i++, d.actor());
                id(decision, i++, d.instanceId());
                decision.setLong(i++, d.decidedAt().toEpochMilli());
                text(decision, i++, d.reason());
                text(decision, i++, d.argsDigestBefore());
                text(decision, i++, d.argsDigestAfter());
                id(decision, i, d.idempotencyKey());
                one(decision.executeUpdate(), "decision record");
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }

    private void bindChanging(PreparedStatement p, RunSnapshot r) throws SQLException {
        p.setString(1, r.status().name());
        p.setLong(2, r.suspendedAt().toEpochMilli());
        p.setLong(3, r.version());
        text(p, 4, r.leaseOwner());
        millis(p, 5, r.leaseExpiresAt());
        p.setString(6, r.payload());
        millis(p, 7, r.expiresAt());
        p.setString(8, r.summary());
        millis(p, 9, r.notifyAt());
        text(p, 10, r.notifyState());
        labels(p, 11, r);
    }

    private void id(PreparedStatement p, int i, String v) throws SQLException {
        if (v == null) p.setNull(i, binary ? Types.VARBINARY : Types.VARCHAR);
        else if (binary) p.setBytes(i, v.getBytes(StandardCharsets.UTF_8));
        else p.setString(i, v);
    }

    private static void text(PreparedStatement p, int i, String v) throws SQLException {
        if (v == null) p.setNull(i, Types.VARCHAR);
        else p.setString(i, v);
    }

    private static void millis(PreparedStatement p, int i, Instant v) throws SQLException {
        if (v == null) p.setNull(i, Types.BIGINT);
        else p.setLong(i, v.toEpochMilli());
    }

    private static void one(int rows, String what) {
        if (rows != 1) throw new IllegalStateException("raw " + what + " changed " + rows + " rows");
    }

    @Override
    public void close() {
        try {
            c.close();
        } catch (SQLException ignored) {
            // closing
        }
    }

    /**
     * Removes the rows, decision records and (outside PostgreSQL) label rows of the raw baseline's agent; the label
     * rows normally go with their runs already (cascade or trigger), this deletes any a failed cycle left.
     */
    static void purge(Connection c, String table, JdbcDialect dialect) throws SQLException {
        boolean binary = dialect == JdbcDialect.MYSQL;
        List<String> tables = dialect == JdbcDialect.POSTGRESQL ? List.of(table, table + "_decisions")
                : List.of(table, table + "_decisions", table + "_deciders");
        for (String t : tables) {
            for (int attempt = 1; ; attempt++) {
                try (PreparedStatement p = c.prepareStatement("DELETE FROM " + t + " WHERE agent_id = ?")) {
                    if (binary) p.setBytes(1, CycleTemplate.RAW_AGENT.getBytes(StandardCharsets.UTF_8));
                    else p.setString(1, CycleTemplate.RAW_AGENT);
                    p.executeUpdate();
                    break;
                } catch (SQLException e) {
                    // InnoDB may pick this range delete as a deadlock's victim (gap locks beside the store's own
                    // writes of the same moment): the statement was rolled back whole, so it is simply run again
                    if (attempt >= PURGE_ATTEMPTS || !retryable(e)) throw e;
                    if (!c.getAutoCommit()) c.rollback();
                    try {
                        Thread.sleep(20L * attempt);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                        throw e;
                    }
                }
            }
        }
    }

    private static final int PURGE_ATTEMPTS = 10;

    /** A deadlock or lock wait timeout (SQLState class 40, MySQL/MariaDB 1213 and 1205, SQLite busy/locked). */
    static boolean retryable(SQLException e) {
        for (Throwable x = e; x != null; x = x.getCause()) {
            if (x instanceof SQLException s) {
                String state = s.getSQLState();
                if (state != null && state.startsWith("40")) return true;
                int code = s.getErrorCode();
                if (code == 1213 || code == 1205 || code == 5 || code == 6) return true;
            }
        }
        return false;
    }
}
