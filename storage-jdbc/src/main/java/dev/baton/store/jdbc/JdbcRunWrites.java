package dev.baton.store.jdbc;

import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * The statements on one run of a {@link JdbcSnapshotStore}: {@link JdbcSnapshotStore#insert},
 * {@link JdbcSnapshotStore#find}, compare-and-set ({@code UPDATE ... WHERE run_id = ? AND version = ?}),
 * delete and lease renewal, each one statement outside any transaction; the forms that also
 * write decision records run in one transaction through {@link JdbcDecisions#write}.
 */
final class JdbcRunWrites {
    private final JdbcAccess db;
    private final JdbcDialect dialect;
    private final String table;
    private final RunRows rows;
    private final JdbcDecisions decisions;

    JdbcRunWrites(JdbcAccess db, String table, RunRows rows, JdbcDecisions decisions) {
        this.db = db;
        this.dialect = db.dialect;
        this.table = table;
        this.rows = rows;
        this.decisions = decisions;
    }

    /** One {@code INSERT}; a duplicate key is {@code false}. */
    boolean insert(RunSnapshot s) {
        db.checkFits(s);
        return db.call("insert", s.runId(), h -> {
            var u = h.createUpdate("INSERT INTO " + table + " (" + Schema.COLUMNS + ") VALUES (" + RunRows.VALUES + ")");
            rows.bindRow(u, s);
            try {
                return u.execute() == 1;
            } catch (UnableToExecuteStatementException e) {
                if (e.getCause() instanceof SQLException se && dialect.isDuplicateKey(se)) return false;
                throw e;
            }
        });
    }

    /** One {@code SELECT} by primary key; an id too long to have been stored is not looked up. */
    Optional<RunSnapshot> find(String runId) {
        Objects.requireNonNull(runId, "runId");
        if (!dialect.fits(runId)) return Optional.empty();   // too long to have been stored
        return db.call("find", runId, h -> {
            var q = h.createQuery("SELECT " + Schema.COLUMNS + " FROM " + table + " WHERE run_id = ?");
            db.bindId(q, 0, runId);
            return q.map((rs, ctx) -> rows.read(rs)).findOne();
        });
    }

    /** One {@code UPDATE ... WHERE run_id = ? AND version = ?} of every field a run's life changes. */
    boolean compareAndSet(long expectedVersion, RunSnapshot r) {
        db.checkFits(r);
        return db.call("compare-and-set", r.runId(), h -> casOn(h, expectedVersion, r));
    }

    /** The {@code UPDATE} and an {@code INSERT} into {@code <table>_decisions} per record, in one transaction. */
    boolean compareAndSet(long expectedVersion, RunSnapshot r, List<DecisionRecord> records) {
        db.checkFits(r);
        return decisions.write("compare-and-set", r.runId(), records, h -> casOn(h, expectedVersion, r));
    }

    /** One {@code DELETE ... WHERE run_id = ? AND version = ?}. */
    boolean delete(String runId, long expectedVersion) {
        Objects.requireNonNull(runId, "runId");
        if (!dialect.fits(runId)) return false;
        return db.call("delete", runId, h -> deleteOn(h, runId, expectedVersion));
    }

    /** The {@code DELETE} and an {@code INSERT} into {@code <table>_decisions} per record, in one transaction. */
    boolean delete(String runId, long expectedVersion, List<DecisionRecord> records) {
        Objects.requireNonNull(runId, "runId");
        if (!dialect.fits(runId)) return false;
        return decisions.write("delete", runId, records, h -> deleteOn(h, runId, expectedVersion));
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

    private boolean casOn(Handle h, long expectedVersion, RunSnapshot r) {
        var u = h.createUpdate("UPDATE " + table + " SET " + RunRows.CHANGING + " WHERE run_id = ? AND version = ?");
        RunRows.bindChanging(u, r);
        db.bindId(u, 10, r.runId());
        u.bind(11, expectedVersion);
        return u.execute() == 1;
    }

    private boolean deleteOn(Handle h, String runId, long expectedVersion) {
        var u = h.createUpdate("DELETE FROM " + table + " WHERE run_id = ? AND version = ?");
        db.bindId(u, 0, runId);
        u.bind(1, expectedVersion);
        return u.execute() == 1;
    }
}
