package dev.baton.bench;

import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;

/**
 * {@link RawCycle} in plain JDBC on one connection, prepared statements kept for the connection's
 * life, autocommit but for the claim: the store's statements on the store's table, {@code INSERT}
 * of every column, {@code SELECT} of every column by primary key, the claim's {@code UPDATE ...
 * WHERE run_id = ? AND version = ?} and the decision record's {@code INSERT} in one transaction,
 * the result's {@code UPDATE}, the {@code DELETE ... WHERE run_id = ? AND version = ?}. Each
 * statement's row count is checked, so nothing is skipped. On SQLite, which takes one writer at a time,
 * the threads of this JVM take turns (a lock) rather than fail with {@code SQLITE_BUSY}.
 */
final class SqlRawCycle implements RawCycle {
    static final String COLUMNS = "run_id, agent_id, status, thread_id, resource_id, created_at, suspended_at, version,"
            + " lease_owner, lease_expires_at, payload, expires_at, summary, notify_at, notify_state";
    static final String CHANGING = "status = ?, suspended_at = ?, version = ?, lease_owner = ?, lease_expires_at = ?,"
            + " payload = ?, expires_at = ?, summary = ?, notify_at = ?, notify_state = ?";
    static final String DECISION_COLUMNS = "decision_id, agent_id, run_id, thread_id, resource_id, tool_call_id, tool_name,"
            + " kind, actor, instance_id, decided_at, reason, digest_before, digest_after, idempotency_key";

    private final Connection c;
    private final boolean binary;
    private final CycleTemplate t;
    private final PreparedStatement insert;
    private final PreparedStatement find;
    private final PreparedStatement cas;
    private final PreparedStatement decision;
    private final PreparedStatement delete;
    private final PreparedStatement remove;
    private final PreparedStatement notify;

    SqlRawCycle(Connection c, String table, boolean binary, boolean sqlite, CycleTemplate t) throws SQLException {
        this.c = c;
        this.writer = sqlite ? SQLITE_WRITER : null;
        this.binary = binary;
        this.t = t;
        c.setAutoCommit(true);
        insert = c.prepareStatement("INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
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
            bindChanging(cas, r);
            id(cas, 11, runId);
            cas.setLong(12, t.resultVersion());
            one(cas.executeUpdate(), "result");
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

    private void doInsert(RunSnapshot s) throws SQLException {
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
        one(insert.executeUpdate(), "insert");
    }

    private void doFind(String runId) throws SQLException {
        id(find, 1, runId);
        try (ResultSet rs = find.executeQuery()) {
            if (!rs.next()) throw new IllegalStateException("raw find: " + runId + " is not there");
            // read every column, as the store does (ids as bytes on MariaDB)
            for (int k = 1; k <= 15; k++) {
                if (binary && (k == 1 || k == 2 || k == 4 || k == 5)) rs.getBytes(k);
                else if (k >= 6 && k <= 8 || k == 10 || k == 12 || k == 14) rs.getLong(k);
                else rs.getString(k);
            }
        }
    }

    private void doClaim(String runId, long sh) throws SQLException {
        RunSnapshot s = t.as(t.claimed(), runId, sh);
        c.setAutoCommit(false);
        try {
            bindChanging(cas, s);
            id(cas, 11, runId);
            cas.setLong(12, t.claimVersion());
            one(cas.executeUpdate(), "claim");
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

    private static void bindChanging(PreparedStatement p, RunSnapshot r) throws SQLException {
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

    /** Removes the rows and decision records of the raw baseline's agent. */
    static void purge(Connection c, String table, boolean binary) throws SQLException {
        for (String t : List.of(table, table + "_decisions")) {
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
