package dev.baton.bench;

import dev.baton.StorageException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Plain JDBC on one connection, autocommit, prepared statements kept per query shape: the
 * page {@code SELECT ... ORDER BY created_at DESC, run_id DESC LIMIT 20} and its {@code COUNT(*)},
 * with the store's WHERE clause (agent, filters, dates, effective status, on MySQL/MariaDB
 * through the store's {@code lease_state}). It reads what the store's listing reads: every
 * column but the payload, and the summary (whose text stands in the {@code payload} of a
 * {@link RawQueries.Row}).
 */
final class SqlRawQueries implements RawQueries {
    /** What the listing reads: every column but the payload, which a listing leaves unread when a summary is there. */
    static final String LISTED = "run_id, agent_id, status, thread_id, resource_id, created_at, suspended_at,"
            + " version, lease_owner, lease_expires_at, summary";
    /** The store's effective-status condition for SUSPENDED, spelled exactly as JdbcSnapshotStore spells it. */
    static final String SUSPENDED_NOW = " AND ((status = 'SUSPENDED' AND lease_owner IS NULL AND lease_expires_at IS NULL)"
            + " OR (status = 'RESUMING' AND lease_owner IS NOT NULL AND lease_expires_at <= ?))";
    /** The same on MySQL/MariaDB, where the store folds it into its indexed virtual column lease_state. */
    static final String SUSPENDED_NOW_MYSQL = " AND lease_state <= ?";

    private final Connection c;
    private final String table;
    private final boolean binary;
    private final Map<String, PreparedStatement[]> statements = new HashMap<>();

    SqlRawQueries(Connection c, String table, boolean binary) {
        this.c = c;
        this.table = table;
        this.binary = binary;
    }

    @Override
    public Page page(Query q) {
        String shape = (q.threadId() != null ? "t" : "") + (q.resourceId() != null ? "r" : "")
                + (q.from() != null ? "f" : "") + (q.to() != null ? "u" : "") + q.limit();
        try {
            PreparedStatement[] ps = statements.get(shape);
            if (ps == null) {
                StringBuilder where = new StringBuilder(" WHERE agent_id = ?");
                if (q.threadId() != null) where.append(" AND thread_id = ?");
                if (q.resourceId() != null) where.append(" AND resource_id = ?");
                if (q.from() != null) where.append(" AND created_at >= ?");
                if (q.to() != null) where.append(" AND created_at <= ?");
                where.append(binary ? SUSPENDED_NOW_MYSQL : SUSPENDED_NOW);
                ps = new PreparedStatement[] {
                    c.prepareStatement("SELECT " + LISTED + " FROM " + table + where
                            + " ORDER BY created_at DESC, run_id DESC LIMIT " + q.limit()),
                    c.prepareStatement("SELECT COUNT(*) FROM " + table + where)
                };
                statements.put(shape, ps);
            }
            long now = System.currentTimeMillis();
            bind(ps[0], q, now);
            List<Row> rows = new ArrayList<>(q.limit());
            try (ResultSet rs = ps[0].executeQuery()) {
                while (rs.next()) {
                    rows.add(new Row(id(rs, 1), id(rs, 2), rs.getString(3), id(rs, 4), id(rs, 5), rs.getLong(6),
                            rs.getLong(7), rs.getLong(8), rs.getString(11)));
                }
            }
            bind(ps[1], q, now);
            long total;
            try (ResultSet rs = ps[1].executeQuery()) {
                rs.next();
                total = rs.getLong(1);
            }
            return new Page(total, rows);
        } catch (SQLException e) {
            throw new StorageException("raw query on " + table + " failed: " + e.getMessage(), e);
        }
    }

    private void bind(PreparedStatement p, Query q, long now) throws SQLException {
        int k = SqlBackend.bindId(p, 1, q.agentId(), binary);
        if (q.threadId() != null) k = SqlBackend.bindId(p, k, q.threadId(), binary);
        if (q.resourceId() != null) k = SqlBackend.bindId(p, k, q.resourceId(), binary);
        if (q.from() != null) p.setLong(k++, q.from());
        if (q.to() != null) p.setLong(k++, q.to());
        p.setLong(k, now);
    }

    private @Nullable String id(ResultSet rs, int i) throws SQLException {
        if (!binary) return rs.getString(i);
        byte[] b = rs.getBytes(i);
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        try {
            c.close();
        } catch (SQLException ignored) {
            // closing at the end of a benchmark
        }
    }
}
