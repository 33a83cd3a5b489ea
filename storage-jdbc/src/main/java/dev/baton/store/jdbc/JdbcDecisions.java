package dev.baton.store.jdbc;

import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The decision records of a JDBC store, in {@code <table>_decisions} (migration V004): inserted
 * atomically with the run's compare-and-set or delete (one statement on PostgreSQL, one transaction elsewhere), listed with one indexed query per page,
 * found by idempotency key, purged in batches. Not API.
 */
final class JdbcDecisions {
    static final String COLUMNS = "decision_id, agent_id, run_id, thread_id, resource_id, tool_call_id, tool_name, kind,"
            + " actor, instance_id, decided_at, reason, digest_before, digest_after, idempotency_key";
    private static final String VALUES = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";

    private final JdbcAccess db;
    private final String decisions;
    private final String insertSql;

    JdbcDecisions(JdbcAccess db, String table) {
        this.db = db;
        this.decisions = table + "_decisions";
        this.insertSql = "INSERT INTO " + decisions + " (" + COLUMNS + ") VALUES (" + VALUES + ")";
    }

    /** Binds the parameters of the run's change ({@code UPDATE} or {@code DELETE}) from position 1 on. */
    @FunctionalInterface
    interface ChangeBinder {
        void bind(PreparedStatement p) throws SQLException;
    }

    /** More statements of the same transaction, after the change applied (not on PostgreSQL, which writes one statement). */
    @FunctionalInterface
    interface AlsoWrite {
        void write(java.sql.Connection c) throws SQLException;
    }

    /**
     * Atomically: the run's change ({@code changeSql}, an {@code UPDATE} or {@code DELETE} of one row by
     * run id and version, bound by {@code binder}) and every record. On PostgreSQL one statement, in its
     * own transaction ({@code WITH changed AS (<change> RETURNING run_id) INSERT INTO <table>_decisions
     * SELECT ... FROM changed [UNION ALL ...]}: the records are inserted only if the change applied); elsewhere
     * one transaction of the change, {@code also} (the run's decider label rows, if any) and a batch of inserts. False, with nothing changed, if the change
     * did not apply or a record's id or key is taken.
     */
    boolean write(String what, String runId, List<DecisionRecord> records, String changeSql, ChangeBinder binder,
            @org.jspecify.annotations.Nullable AlsoWrite also) {
        if (records.isEmpty()) throw new IllegalArgumentException("no decision records for run '" + runId + "'");
        for (DecisionRecord r : records) {
            if (!r.runId().equals(runId)) {
                throw new IllegalArgumentException("a record of run '" + r.runId() + "' in a write of run '" + runId + "'");
            }
        }
        return db.withConnection(what + " with its decision", runId, c -> {
            try {
                if (db.dialect == JdbcDialect.POSTGRESQL) return oneStatement(c, records, changeSql, binder);
                return db.inTransaction(c, t -> {
                    try (PreparedStatement change = db.prepare(t, changeSql)) {
                        binder.bind(change);
                        if (change.executeUpdate() != 1) return false;
                    }
                    if (also != null) also.write(t);
                    try (PreparedStatement insert = db.prepare(t, insertSql)) {
                        if (records.size() == 1) {
                            bind(insert, 1, records.get(0));
                            insert.executeUpdate();
                        } else {
                            for (DecisionRecord r : records) {
                                bind(insert, 1, r);
                                insert.addBatch();
                            }
                            insert.executeBatch();
                        }
                    }
                    return true;
                });
            } catch (SQLException e) {
                if (isTaken(e)) return false;   // rolled back: nothing changed
                throw e;
            }
        });
    }

    /** PostgreSQL: the change and the records in one statement (see {@link #write}). */
    private boolean oneStatement(java.sql.Connection c, List<DecisionRecord> records, String changeSql, ChangeBinder binder)
            throws SQLException {
        int changeParams = (int) changeSql.chars().filter(ch -> ch == '?').count();
        StringBuilder sql = new StringBuilder("WITH changed AS (").append(changeSql).append(" RETURNING run_id) INSERT INTO ")
                .append(decisions).append(" (").append(COLUMNS).append(") ");
        for (int k = 0; k < records.size(); k++) {
            sql.append(k == 0 ? "" : " UNION ALL ").append("SELECT ").append(VALUES).append(" FROM changed");
        }
        try (PreparedStatement p = db.prepare(c, sql.toString())) {
            binder.bind(p);
            int at = changeParams + 1;
            for (DecisionRecord r : records) at = bind(p, at, r);
            return p.executeUpdate() == records.size();
        }
    }

    /** Binds a record's columns from position {@code from} (1-based); returns the next position. */
    private int bind(PreparedStatement p, int from, DecisionRecord r) throws SQLException {
        int i = from;
        db.setId(p, i++, r.decisionId());
        db.setId(p, i++, r.agentId());
        db.setId(p, i++, r.runId());
        db.setId(p, i++, r.threadId());
        db.setId(p, i++, r.resourceId());
        db.setId(p, i++, r.toolCallId());
        db.setId(p, i++, r.toolName());
        p.setString(i++, r.kind().wireName());
        db.setId(p, i++, r.actor());
        db.setId(p, i++, r.instanceId());
        p.setLong(i++, r.decidedAt().toEpochMilli());
        JdbcAccess.setText(p, i++, r.reason());
        JdbcAccess.setText(p, i++, r.argsDigestBefore());
        JdbcAccess.setText(p, i++, r.argsDigestAfter());
        db.setId(p, i++, r.idempotencyKey());
        return i;
    }

    /** A unique or primary key violation: SQLSTATE class 23, or SQLite's constraint error. */
    private static boolean isTaken(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s) {
                String state = s.getSQLState();
                if (state != null && state.startsWith("23")) return true;
                String m = String.valueOf(s.getMessage());
                if (m.contains("UNIQUE constraint failed") || m.contains("PRIMARY KEY constraint failed")) return true;
            }
            if (t.getCause() == t) break;
        }
        return false;
    }

    DecisionPage list(DecisionQuery q) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM " + decisions + " WHERE agent_id = ?");
        List<Object> params = new ArrayList<>();
        params.add(db.id(q.agentId()));
        if (q.runId() != null) filter(sql, params, "run_id", q.runId());
        if (q.threadId() != null) filter(sql, params, "thread_id", q.threadId());
        if (q.resourceId() != null) filter(sql, params, "resource_id", q.resourceId());
        if (q.actor() != null) filter(sql, params, "actor", q.actor());
        if (q.from() != null) {
            sql.append(" AND decided_at >= ?");
            params.add(q.from().toEpochMilli());
        }
        if (q.to() != null) {
            sql.append(" AND decided_at <= ?");
            params.add(q.to().toEpochMilli());
        }
        if (q.after() != null) {
            sql.append(" AND (decided_at < ? OR (decided_at = ? AND decision_id < ?))");
            long at = q.after().decidedAt().toEpochMilli();
            params.add(at);
            params.add(at);
            params.add(db.id(q.after().decisionId()));
        }
        // the limit as a literal, as the run listing writes it (PageAndTotal.page): a validated int
        // (1..1000), and a bound LIMIT measured about 80 us slower a page on PostgreSQL
        sql.append(" ORDER BY decided_at DESC, decision_id DESC LIMIT ").append(q.limit() + 1);
        boolean unknownId = !fitsAll(q);
        if (unknownId) return new DecisionPage(List.of(), false);
        List<DecisionRecord> rows = db.call("listing decisions", null, h -> {
            var query = h.createQuery(sql.toString());
            JdbcAccess.bindAll(query, params);
            return query.map((rs, ctx) -> read(rs)).list();
        });
        boolean more = rows.size() > q.limit();
        return new DecisionPage(more ? rows.subList(0, q.limit()) : rows, more);
    }

    private boolean fitsAll(DecisionQuery q) {
        return db.fits(q.agentId()) && db.fits(q.runId()) && db.fits(q.threadId()) && db.fits(q.resourceId());
    }

    private void filter(StringBuilder sql, List<Object> params, String column, String value) {
        sql.append(" AND ").append(column).append(" = ?");
        params.add(db.id(value));
    }

    Optional<DecisionRecord> find(String agentId, String key) {
        if (!db.fits(agentId)) return Optional.empty();
        return db.call("finding the decision with key '" + key + "'", null, h -> {
            var query = h.createQuery("SELECT " + COLUMNS + " FROM " + decisions + " WHERE agent_id = ? AND idempotency_key = ?");
            query.bind(0, db.id(agentId));
            query.bind(1, db.id(key));
            return query.map((rs, ctx) -> read(rs)).findFirst();
        });
    }

    int purge(String agentId, Instant olderThan, int limit) {
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        if (!db.fits(agentId)) return 0;
        String sql = db.dialect == JdbcDialect.MYSQL
                ? "DELETE FROM " + decisions + " WHERE agent_id = ? AND decided_at < ? ORDER BY decided_at, decision_id LIMIT ?"
                : "DELETE FROM " + decisions + " WHERE decision_id IN (SELECT decision_id FROM " + decisions
                        + " WHERE agent_id = ? AND decided_at < ? ORDER BY decided_at, decision_id LIMIT ?)";
        return db.call("purging decisions of agent '" + agentId + "'", null, h -> {
            var u = h.createUpdate(sql);
            u.bind(0, db.id(agentId));
            u.bind(1, olderThan.toEpochMilli());
            u.bind(2, limit);
            return u.execute();
        });
    }

    private DecisionRecord read(ResultSet rs) throws SQLException {
        String reason = rs.getString(12);
        return DecisionRecord.builder().decisionId(db.readId(rs, 1)).agentId(db.readId(rs, 2)).runId(db.readId(rs, 3))
                .threadId(db.readId(rs, 4)).resourceId(db.readId(rs, 5)).toolCallId(db.readId(rs, 6)).toolName(db.readId(rs, 7))
                .kind(DecisionKind.fromWireName(rs.getString(8))).actor(db.readId(rs, 9)).instanceId(db.readId(rs, 10))
                .decidedAt(Instant.ofEpochMilli(rs.getLong(11))).reason(reason).argsDigestBefore(rs.getString(13))
                .argsDigestAfter(rs.getString(14)).idempotencyKey(db.readId(rs, 15)).build();
    }
}
