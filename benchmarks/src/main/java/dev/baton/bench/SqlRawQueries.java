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
    private final dev.baton.store.jdbc.JdbcDialect dialect;
    private final Map<String, PreparedStatement[]> statements = new HashMap<>();

    SqlRawQueries(Connection c, String table, dev.baton.store.jdbc.JdbcDialect dialect) {
        this.c = c;
        this.table = table;
        this.dialect = dialect;
        this.binary = dialect == dev.baton.store.jdbc.JdbcDialect.MYSQL;
    }

    @Override
    public boolean deciders() {
        return true;
    }

    @Override
    public Page page(Query q) {
        String shape = (q.threadId() != null ? "t" : "") + (q.resourceId() != null ? "r" : "")
                + (q.from() != null ? "f" : "") + (q.to() != null ? "u" : "") + q.limit()
                + (q.deciders() != null ? "d" + q.deciders().size() : "");
        try {
            PreparedStatement[] ps = statements.get(shape);
            if (ps == null) {
                StringBuilder where = new StringBuilder(" WHERE agent_id = ?");
                if (q.threadId() != null) where.append(" AND thread_id = ?");
                if (q.resourceId() != null) where.append(" AND resource_id = ?");
                if (q.from() != null) where.append(" AND created_at >= ?");
                if (q.to() != null) where.append(" AND created_at <= ?");
                if (q.deciders() != null) where.append(waitingFor(q.deciders()));
                else where.append(binary ? SUSPENDED_NOW_MYSQL : SUSPENDED_NOW);
                ps = new PreparedStatement[] {
                    c.prepareStatement("SELECT " + LISTED + " FROM " + table + where
                            + " ORDER BY created_at DESC, run_id DESC LIMIT " + q.limit()),
                    c.prepareStatement(q.deciders() != null && binary ? "SELECT COUNT(*) FROM " + mysqlWaitingCount(q, where)
                            : "SELECT COUNT(*) FROM " + table + where)
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
            if (q.deciders() != null && binary) bindMysqlWaitingCount(ps[1], q);
            else bind(ps[1], q, now);
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

    /**
     * "Waiting for me": stored status SUSPENDED and, for some pair, the granting label held and the excluding
     * one not. PostgreSQL: on the {@code deciders} array, whose labels are qualified by the run's agent
     * ({@link SqlBackend#pgQualifier}, bound in {@link #bind}), its overlap with the agent's granting labels answered
     * by the partial GIN index, and all of it by the partial index {@code <table>_list_waiting} of V009 (the agent's
     * SUSPENDED runs with labels, labels included). The others: the label rows of the side table
     * {@code <table>_deciders} at the run's version, from its {@code (agent_id, label, run_id, version)} index, the
     * version checked in the runs table's waiting index of V009 (MySQL/MariaDB's {@code waiting_version}, SQLite's
     * partial covering index); H2 checks the version inside, on the primary key, as its row-value {@code IN} would
     * scan the agent's runs.
     */
    private String waitingFor(List<dev.baton.store.RunQuery.Decider> deciders) {
        // MySQL/MariaDB: waiting_version (V009) is the version of a SUSPENDED run with labels, so it says SUSPENDED too
        StringBuilder b = new StringBuilder(dialect == dev.baton.store.jdbc.JdbcDialect.MYSQL ? "" : " AND status = 'SUSPENDED'");
        if (dialect == dev.baton.store.jdbc.JdbcDialect.POSTGRESQL) {
            b.append(" AND deciders && ARRAY[");
            for (int k = 0; k < grants(deciders).size(); k++) b.append(k == 0 ? "?" : ", ?");
            b.append("]::text[] AND (");
            for (int k = 0; k < deciders.size(); k++) b.append(k == 0 ? "" : " OR ").append("(? = ANY(deciders) AND NOT ? = ANY(deciders))");
            return b.append(')').toString();
        }
        String side = table + "_deciders";
        boolean h2 = dialect == dev.baton.store.jdbc.JdbcDialect.H2;
        b.append(switch (dialect) {
            case H2 -> " AND run_id IN (SELECT g.run_id FROM ";
            case MYSQL -> " AND (run_id, waiting_version) IN (SELECT g.run_id, g.version FROM ";
            default -> " AND (run_id, version) IN (SELECT g.run_id, g.version FROM ";
        }).append(side).append(" g WHERE g.agent_id = ? AND (");
        String excluded = dialect == dev.baton.store.jdbc.JdbcDialect.SQLITE ? side + " x INDEXED BY " + side + "_label" : side + " x";
        for (int k = 0; k < deciders.size(); k++) {
            b.append(k == 0 ? "" : " OR ").append("(g.label = ? AND NOT EXISTS (SELECT 1 FROM ").append(excluded)
                    .append(" WHERE x.agent_id = g.agent_id AND x.label = ? AND x.run_id = g.run_id AND x.version = g.version))");
        }
        b.append(')');
        if (h2) b.append(" AND g.version = (SELECT v.version FROM ").append(table).append(" v WHERE v.run_id = g.run_id)");
        return b.append(')').toString();
    }

    /**
     * MySQL/MariaDB's waiting-for-me total, as the store counts it: the agent's label rows of the asked labels (one
     * range of the label index), grouped by run and version and kept where a pair's granting label is there and its
     * excluding one is not, joined in that order to the runs table's waiting index (V009) on run and waiting_version.
     * {@code where} is the page's: the text up to the deciders condition is the other filters.
     */
    private String mysqlWaitingCount(Query q, StringBuilder where) {
        String base = where.substring(0, where.indexOf(" AND (run_id, waiting_version) IN"));
        StringBuilder b = new StringBuilder("(SELECT g.run_id, g.version FROM ").append(table).append("_deciders g WHERE g.agent_id = ? AND g.label IN (");
        for (int k = 0; k < asked(q.deciders()).size(); k++) b.append(k == 0 ? "?" : ", ?");
        b.append(") GROUP BY g.run_id, g.version HAVING ");
        for (int k = 0; k < q.deciders().size(); k++) b.append(k == 0 ? "" : " OR ").append("(MAX(g.label = ?) = 1 AND MAX(g.label = ?) = 0)");
        return b.append(") d STRAIGHT_JOIN ").append(table).append(" FORCE INDEX (").append(table).append("_waiting) ON ").append(table)
                .append(".run_id = d.run_id AND ").append(table).append(".waiting_version = d.version").append(base).toString();
    }

    private void bindMysqlWaitingCount(PreparedStatement p, Query q) throws SQLException {
        int k = SqlBackend.bindId(p, 1, q.agentId(), binary);
        for (String l : asked(q.deciders())) k = SqlBackend.bindId(p, k, l, binary);
        for (dev.baton.store.RunQuery.Decider d : q.deciders()) {
            k = SqlBackend.bindId(p, k, d.granted(), binary);
            k = SqlBackend.bindId(p, k, d.unlessExcluded(), binary);
        }
        k = SqlBackend.bindId(p, k, q.agentId(), binary);
        if (q.threadId() != null) k = SqlBackend.bindId(p, k, q.threadId(), binary);
        if (q.resourceId() != null) k = SqlBackend.bindId(p, k, q.resourceId(), binary);
        if (q.from() != null) p.setLong(k++, q.from());
        if (q.to() != null) p.setLong(k++, q.to());
    }

    private static java.util.Set<String> asked(List<dev.baton.store.RunQuery.Decider> deciders) {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        for (dev.baton.store.RunQuery.Decider d : deciders) {
            out.add(d.granted());
            out.add(d.unlessExcluded());
        }
        return out;
    }

    private static java.util.Set<String> grants(List<dev.baton.store.RunQuery.Decider> deciders) {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        for (dev.baton.store.RunQuery.Decider d : deciders) out.add(d.granted());
        return out;
    }

    private void bind(PreparedStatement p, Query q, long now) throws SQLException {
        int k = SqlBackend.bindId(p, 1, q.agentId(), binary);
        if (q.threadId() != null) k = SqlBackend.bindId(p, k, q.threadId(), binary);
        if (q.resourceId() != null) k = SqlBackend.bindId(p, k, q.resourceId(), binary);
        if (q.from() != null) p.setLong(k++, q.from());
        if (q.to() != null) p.setLong(k++, q.to());
        if (q.deciders() == null) {
            p.setLong(k, now);
            return;
        }
        if (dialect == dev.baton.store.jdbc.JdbcDialect.POSTGRESQL) {
            String agent = SqlBackend.pgQualifier(q.agentId());   // the labels as the agent's runs store them
            for (String g : grants(q.deciders())) p.setString(k++, agent + g);
            for (dev.baton.store.RunQuery.Decider d : q.deciders()) {
                p.setString(k++, agent + d.granted());
                p.setString(k++, agent + d.unlessExcluded());
            }
            return;
        }
        k = SqlBackend.bindId(p, k, q.agentId(), binary);
        for (dev.baton.store.RunQuery.Decider d : q.deciders()) {
            k = SqlBackend.bindId(p, k, d.granted(), binary);
            k = SqlBackend.bindId(p, k, d.unlessExcluded(), binary);
        }
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
