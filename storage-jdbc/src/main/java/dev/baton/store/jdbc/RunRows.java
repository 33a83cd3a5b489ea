package dev.baton.store.jdbc;

import dev.baton.SnapshotFormatException;
import dev.baton.agent.RunStatus;
import dev.baton.store.RunSnapshot;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Reads a row of the runs table, its columns in the order of {@link Schema#COLUMNS}, into a
 * {@link RunSnapshot}; a row that breaks the snapshot's rules is reported as a
 * {@link SnapshotFormatException} naming the run and the store.
 */
final class RunRows {
    /** How many columns a run row has: {@link Schema#COLUMNS}. */
    static final int WIDTH = 13;

    private final JdbcAccess db;

    RunRows(JdbcAccess db) {
        this.db = db;
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
            String summary = rs.getString(13);
            return new RunSnapshot(runId, agentId, status, threadId, resourceId, createdAt, suspendedAt, version,
                    leaseOwner, leaseExpiresAt, payload, expiresAt, summary);
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
