package dev.baton.store.jdbc;

import dev.baton.SnapshotFormatException;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A row of the runs table, its columns in the order of {@link Schema#COLUMNS}, to and from a
 * {@link RunSnapshot}: the parameters of the statements that write a run ({@link #setRow},
 * {@link #setChanging}), and the run a row reads back ({@link #read}); a row that breaks the
 * snapshot's rules is reported as a {@link SnapshotFormatException} naming the run and the store.
 */
final class RunRows {
    /** How many columns a run row has: {@link Schema#COLUMNS}. */
    static final int WIDTH = 16;

    /** The placeholders of every column of a row, for {@link #setRow}. */
    static final String VALUES = "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?";
    /** The {@code SET} list of every column a run's life changes, for {@link #setChanging}. */
    static final String CHANGING = "status = ?, suspended_at = ?, version = ?, lease_owner = ?,"
            + " lease_expires_at = ?, payload = ?, expires_at = ?, summary = ?, notify_at = ?, notify_state = ?, deciders = ?";
    /** How many parameters {@link #CHANGING} has. */
    static final int CHANGING_WIDTH = 11;

    private final JdbcAccess db;
    private final DeciderLabels labels;

    RunRows(JdbcAccess db, DeciderLabels labels) {
        this.db = db;
        this.labels = labels;
    }

    /** Sets every column of {@code s}, in the order of {@link Schema#COLUMNS}, from position {@code from} (1-based; {@link #VALUES}). */
    void setRow(java.sql.PreparedStatement p, int from, RunSnapshot s) throws SQLException {
        int i = from;
        db.setId(p, i++, s.runId());
        db.setId(p, i++, s.agentId());
        p.setString(i++, s.status().name());
        db.setId(p, i++, s.threadId());
        db.setId(p, i++, s.resourceId());
        p.setLong(i++, s.createdAt().toEpochMilli());
        p.setLong(i++, s.suspendedAt().toEpochMilli());
        p.setLong(i++, s.version());
        JdbcAccess.setText(p, i++, s.leaseOwner());
        JdbcAccess.setMillis(p, i++, s.leaseExpiresAt());
        p.setString(i++, s.payload());
        JdbcAccess.setMillis(p, i++, s.expiresAt());
        p.setString(i++, s.summary());
        JdbcAccess.setMillis(p, i++, s.notifyAt());
        JdbcAccess.setText(p, i++, s.notifyState());
        labels.set(p, i, s);
    }

    /** Sets the columns of {@link #CHANGING} at positions 1 to {@link #CHANGING_WIDTH}; the caller binds the rest. */
    void setChanging(java.sql.PreparedStatement p, RunSnapshot r) throws SQLException {
        p.setString(1, r.status().name());
        p.setLong(2, r.suspendedAt().toEpochMilli());
        p.setLong(3, r.version());
        JdbcAccess.setText(p, 4, r.leaseOwner());
        JdbcAccess.setMillis(p, 5, r.leaseExpiresAt());
        p.setString(6, r.payload());
        JdbcAccess.setMillis(p, 7, r.expiresAt());
        p.setString(8, r.summary());
        JdbcAccess.setMillis(p, 9, r.notifyAt());
        JdbcAccess.setText(p, 10, r.notifyState());
        labels.set(p, 11, r);
    }

    /** True when the row at the cursor holds a run (false for the all-NULL row of a page past the end). */
    boolean present(ResultSet rs) throws SQLException {
        return rs.getObject(1) != null;
    }

    RunSnapshot read(ResultSet rs) throws SQLException {
        String runId = db.readId(rs, 1);
        if (runId == null) throw new SnapshotFormatException("(null)", "a row of " + db.description + " has no run_id", null);
        try {
            String agentId = required(runId, "agent_id", db.readId(rs, 2));
            String statusText = required(runId, "status", rs.getString(3));
            RunStatus status;
            try {
                status = RunStatus.valueOf(statusText);
            } catch (IllegalArgumentException e) {
                throw new SnapshotFormatException(runId, "unknown status '" + statusText + "' in " + db.description, e);
            }
            String threadId = db.readId(rs, 4);
            String resourceId = db.readId(rs, 5);
            Instant createdAt = Instant.ofEpochMilli(requiredLong(runId, rs, 6, "created_at"));
            Instant suspendedAt = Instant.ofEpochMilli(requiredLong(runId, rs, 7, "suspended_at"));
            long version = requiredLong(runId, rs, 8, "version");
            String leaseOwner = rs.getString(9);
            Instant leaseExpiresAt = millis(rs, 10);
            String payload = required(runId, "payload", rs.getString(11));
            Instant expiresAt = millis(rs, 12);
            String summary = required(runId, "summary", rs.getString(13));
            Instant notifyAt = millis(rs, 14);
            String notifyState = rs.getString(15);
            java.util.Set<String> deciders = labels.read(rs, 16, agentId);
            return RunSnapshot.builder()
                    .runId(runId).agentId(agentId).status(status)
                    .threadId(threadId).resourceId(resourceId)
                    .createdAt(createdAt).suspendedAt(suspendedAt)
                    .version(version)
                    .lease(leaseOwner, leaseExpiresAt)
                    .payload(payload)
                    .expiresAt(expiresAt)
                    .summary(summary)
                    .notification(notifyAt, notifyState)
                    .deciders(deciders)
                    .build();
        } catch (IllegalArgumentException e) {   // RunSnapshot's own checks: version < 1, a lease on a SUSPENDED run, ...
            throw new SnapshotFormatException(runId, e.getMessage() + " in " + db.description, e);
        }
    }

    private static @Nullable Instant millis(ResultSet rs, int index) throws SQLException {
        long v = rs.getLong(index);
        return rs.wasNull() ? null : Instant.ofEpochMilli(v);
    }

    private String required(String runId, String column, @Nullable String value) {
        if (value == null) throw new SnapshotFormatException(runId, "column " + column + " is NULL in " + db.description, null);
        return value;
    }

    private long requiredLong(String runId, ResultSet rs, int index, String column) throws SQLException {
        long v = rs.getLong(index);
        if (rs.wasNull()) throw new SnapshotFormatException(runId, "column " + column + " is NULL in " + db.description, null);
        return v;
    }
}
