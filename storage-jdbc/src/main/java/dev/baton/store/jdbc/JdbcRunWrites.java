package dev.baton.store.jdbc;

import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The statements on one run of a {@link JdbcSnapshotStore}: {@link JdbcSnapshotStore#insert},
 * {@link JdbcSnapshotStore#find}, compare-and-set ({@code UPDATE ... WHERE run_id = ? AND version = ?}),
 * delete and lease renewal, each one statement outside any transaction; the forms that also
 * write decision records go through {@link JdbcDecisions#write} (one statement on PostgreSQL, one
 * transaction elsewhere). All but the lease renewal are plain JDBC on a pooled connection
 * ({@link JdbcAccess#withConnection}), not Jdbi: the statements of an approval are the store's hot path.
 */
final class JdbcRunWrites {
    private final JdbcAccess db;
    private final JdbcDialect dialect;
    private final String table;
    private final RunRows rows;
    private final JdbcDecisions decisions;
    private final DeciderLabels labels;

    private final String insertSql;
    private final String findSql;
    private final String casSql;
    private final String deleteSql;

    JdbcRunWrites(JdbcAccess db, String table, RunRows rows, JdbcDecisions decisions, DeciderLabels labels) {
        this.db = db;
        this.labels = labels;
        this.dialect = db.dialect;
        this.table = table;
        this.rows = rows;
        this.decisions = decisions;
        this.insertSql = "INSERT INTO " + table + " (" + Schema.COLUMNS + ") VALUES (" + RunRows.VALUES + ")";
        this.findSql = "SELECT " + Schema.COLUMNS + " FROM " + table + " WHERE run_id = ?";
        this.casSql = "UPDATE " + table + " SET " + RunRows.CHANGING + " WHERE run_id = ? AND version = ?";
        this.deleteSql = "DELETE FROM " + table + " WHERE run_id = ? AND version = ?";
    }

    /**
     * One {@code INSERT}; a duplicate key is {@code false}. A SUSPENDED run with decider labels, outside
     * PostgreSQL: the {@code INSERT} and the upsert of its label rows, in one transaction ({@link DeciderLabels}).
     */
    boolean insert(RunSnapshot s) {
        db.checkFits(s);
        return db.withConnection("insert", s.runId(), c -> {
            if (!labels.needsRows(s)) return insertRow(c, s);
            return db.inTransaction(c, t -> {
                if (!insertRow(t, s)) return false;
                labels.writeRows(t, s);
                return true;
            });
        });
    }

    private boolean insertRow(java.sql.Connection c, RunSnapshot s) throws SQLException {
        try (PreparedStatement p = db.prepare(c, insertSql)) {
            rows.setRow(p, 1, s);
            try {
                return p.executeUpdate() == 1;
            } catch (SQLException e) {
                if (dialect.isDuplicateKey(e)) return false;
                throw e;
            }
        }
    }

    /** One {@code SELECT} by primary key; an id too long to have been stored is not looked up. */
    Optional<RunSnapshot> find(String runId) {
        Objects.requireNonNull(runId, "runId");
        if (!dialect.fits(runId)) return Optional.empty();   // too long to have been stored
        return db.withConnection("find", runId, c -> {
            try (PreparedStatement p = db.prepare(c, findSql)) {
                db.setId(p, 1, runId);
                try (ResultSet rs = p.executeQuery()) {
                    return rs.next() ? Optional.of(rows.read(rs)) : Optional.<RunSnapshot>empty();
                }
            }
        });
    }

    /**
     * One {@code UPDATE ... WHERE run_id = ? AND version = ?} of every field a run's life changes; for a
     * SUSPENDED snapshot with decider labels, outside PostgreSQL, with the upsert of its label rows in one
     * transaction ({@link DeciderLabels}). A claim (RESUMING) stays one statement.
     */
    boolean compareAndSet(long expectedVersion, RunSnapshot r) {
        db.checkFits(r);
        return db.withConnection("compare-and-set", r.runId(), c -> {
            if (!labels.needsRows(r)) return update(c, expectedVersion, r);
            return db.inTransaction(c, t -> {
                if (!update(t, expectedVersion, r)) return false;
                labels.writeRows(t, r);
                return true;
            });
        });
    }

    private boolean update(java.sql.Connection c, long expectedVersion, RunSnapshot r) throws SQLException {
        try (PreparedStatement p = db.prepare(c, casSql)) {
            bindCas(p, expectedVersion, r);
            return p.executeUpdate() == 1;
        }
    }

    /**
     * The {@code UPDATE} and an {@code INSERT} into {@code <table>_decisions} per record, atomically: on
     * PostgreSQL one statement ({@code WITH changed AS (UPDATE ... RETURNING run_id) INSERT ... SELECT ...
     * FROM changed}), elsewhere one transaction.
     */
    boolean compareAndSet(long expectedVersion, RunSnapshot r, List<DecisionRecord> records) {
        db.checkFits(r);
        return decisions.write("compare-and-set", r.runId(), records, casSql, p -> bindCas(p, expectedVersion, r),
                labels.needsRows(r) ? t -> labels.writeRows(t, r) : null);
    }

    /** One {@code DELETE ... WHERE run_id = ? AND version = ?}. */
    boolean delete(String runId, long expectedVersion) {
        Objects.requireNonNull(runId, "runId");
        if (!dialect.fits(runId)) return false;
        return db.withConnection("delete", runId, c -> {
            try (PreparedStatement p = db.prepare(c, deleteSql)) {
                bindDelete(p, runId, expectedVersion);
                return p.executeUpdate() == 1;
            }
        });
    }

    /** The {@code DELETE} and an {@code INSERT} into {@code <table>_decisions} per record, atomically (see compare-and-set). */
    boolean delete(String runId, long expectedVersion, List<DecisionRecord> records) {
        Objects.requireNonNull(runId, "runId");
        if (!dialect.fits(runId)) return false;
        return decisions.write("delete", runId, records, deleteSql, p -> bindDelete(p, runId, expectedVersion), null);
    }

    /**
     * One {@code UPDATE} of {@code lease_expires_at} and {@code version} where the run is at
     * {@code expectedVersion}, {@code RESUMING} and held by {@code owner}; the payload stays where it is.
     */
    boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(newExpiry, "newExpiry");
        if (!dialect.fits(runId)) return false;   // too long to have been stored
        return db.call("lease renewal", runId, h -> {
            var u = h.createUpdate("UPDATE " + table + " SET lease_expires_at = ?, version = version + 1"
                    + " WHERE run_id = ? AND version = ? AND status = 'RESUMING' AND " + dialect.leaseOwnerIs());
            u.bind(0, newExpiry.toEpochMilli());
            db.bindId(u, 1, runId);
            u.bind(2, expectedVersion);
            u.bind(3, owner);
            return u.execute() == 1;
        });
    }

    private void bindCas(PreparedStatement p, long expectedVersion, RunSnapshot r) throws SQLException {
        rows.setChanging(p, r);
        db.setId(p, RunRows.CHANGING_WIDTH + 1, r.runId());
        p.setLong(RunRows.CHANGING_WIDTH + 2, expectedVersion);
    }

    private void bindDelete(PreparedStatement p, String runId, long expectedVersion) throws SQLException {
        db.setId(p, 1, runId);
        p.setLong(2, expectedVersion);
    }
}
