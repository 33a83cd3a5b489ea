package dev.baton.store.jdbc;

import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A run's decider labels ({@link RunSnapshot#deciders()}) in a JDBC store (migration V007), and the
 * condition of {@link RunQuery#deciders()}:
 *
 * <ul>
 *   <li>PostgreSQL: the column {@code deciders TEXT[]} (NULL for none), written by the run's own
 *       {@code INSERT}/{@code UPDATE}, each label qualified by the run's agent ({@link #qualifier}:
 *       {@code <length of agent_id>:<agent_id><label>}, since migration V008); the filter is
 *       {@code status = 'SUSPENDED' AND deciders && ARRAY[granted...]} on the labels qualified by the listing's
 *       agent and the exact rule per {@link RunQuery.Decider}, all answered from the partial index
 *       {@code <table>_list_waiting} (migration V009: the agent's SUSPENDED runs with labels, in listing order, the
 *       labels included), so the total reads no heap page; the partial GIN index of V007 remains for the planner.
 *       Reading a run strips its agent's qualifier again.</li>
 *   <li>MySQL/MariaDB, H2, SQLite: the column {@code deciders} holds the labels as text (each
 *       {@code <length>:<label>}), for reading the run back; the filter runs on the side table
 *       {@code <table>_deciders (run_id, label, agent_id, version)}: one row per label of a snapshot
 *       written {@code SUSPENDED}, at that snapshot's version, upserted in the same transaction as the
 *       write. Only rows at the run's current version count, so a write of a snapshot that is not
 *       {@code SUSPENDED} (a claim) or that has no labels touches no side row (one statement, as before),
 *       and a label a later write dropped stops counting without a {@code DELETE}. The rows go with the
 *       run ({@code ON DELETE CASCADE}; a trigger on SQLite). The check "at the run's current version" is answered
 *       from an index of the runs table (migration V009): MySQL/MariaDB's {@code (agent_id, run_id, waiting_version)}
 *       (a virtual column, the version of a SUSPENDED run with labels, else NULL), SQLite's partial
 *       {@code (agent_id, run_id, version, status)} of SUSPENDED runs; H2 checks it on the primary key.</li>
 * </ul>
 * Not API.
 */
final class DeciderLabels {
    private final JdbcAccess db;
    private final String table;
    private final String sideTable;

    DeciderLabels(JdbcAccess db, String table) {
        this.db = db;
        this.table = table;
        this.sideTable = table + "_deciders";
    }

    /** Whether the dialect keeps labels in an array column alone (PostgreSQL), with no side table. */
    boolean inArray() {
        return db.dialect == JdbcDialect.POSTGRESQL;
    }

    /** Whether writing {@code s} must also write side-table rows: a SUSPENDED snapshot with labels, outside PostgreSQL. */
    boolean needsRows(RunSnapshot s) {
        return !inArray() && s.status() == RunStatus.SUSPENDED && !s.deciders().isEmpty();
    }

    // ---------------------------------------------------------------- the column

    /**
     * What PostgreSQL's {@code deciders} column puts before each label of a run of {@code agentId}:
     * {@code <length>:<agentId>}, the length in characters (code points) as PostgreSQL's {@code length(agent_id)}
     * counts them in migration V008. Unambiguous: the length says where the agent id ends and the label begins.
     */
    static String qualifier(String agentId) {
        return agentId.codePointCount(0, agentId.length()) + ":" + agentId;
    }

    /** Binds the {@code deciders} column of {@code s} at {@code index} (1-based). */
    void set(PreparedStatement p, int index, RunSnapshot s) throws SQLException {
        Set<String> labels = s.deciders();
        if (inArray()) {
            if (labels.isEmpty()) {
                p.setNull(index, Types.ARRAY);
            } else {
                String q = qualifier(s.agentId());
                String[] qualified = new String[labels.size()];
                int k = 0;
                for (String l : labels) qualified[k++] = q + l;
                Connection c = p.getConnection();
                p.setArray(index, c.createArrayOf("text", qualified));
            }
            return;
        }
        if (labels.isEmpty()) p.setNull(index, Types.VARCHAR);
        else p.setString(index, encode(labels));
    }

    /**
     * Reads the {@code deciders} column at {@code index} of a run of {@code agentId}; empty for NULL. On PostgreSQL
     * without the agent's qualifier; a label without it (written by a release before V008 while a newer one had
     * already migrated the table) is read as it is.
     */
    Set<String> read(ResultSet rs, int index, String agentId) throws SQLException {
        if (inArray()) {
            Array a = rs.getArray(index);
            if (a == null) return Set.of();
            try {
                Object[] values = (Object[]) a.getArray();
                String q = qualifier(agentId);
                Set<String> out = new TreeSet<>();
                for (Object v : values) {
                    String l = (String) v;
                    out.add(l.startsWith(q) ? l.substring(q.length()) : l);
                }
                return out;
            } finally {
                a.free();
            }
        }
        String text = rs.getString(index);
        return text == null || text.isEmpty() ? Set.of() : decode(text);
    }

    /** The labels as text: each {@code <length>:<label>}, in order. */
    static String encode(Collection<String> labels) {
        StringBuilder b = new StringBuilder();
        for (String l : labels) b.append(l.length()).append(':').append(l);
        return b.toString();
    }

    /** The labels of {@link #encode}'s text. */
    static Set<String> decode(String text) {
        Set<String> out = new TreeSet<>();
        int i = 0;
        while (i < text.length()) {
            int colon = text.indexOf(':', i);
            if (colon < 0) throw new IllegalArgumentException("malformed deciders column: '" + text + "'");
            int length = Integer.parseInt(text, i, colon, 10);
            out.add(text.substring(colon + 1, colon + 1 + length));
            i = colon + 1 + length;
        }
        return out;
    }

    // ---------------------------------------------------------------- the side table

    /**
     * Upserts one side-table row per label of {@code s} at its version, in one statement, on the
     * connection of the transaction that writes {@code s}.
     */
    void writeRows(Connection c, RunSnapshot s) throws SQLException {
        Set<String> labels = s.deciders();
        StringBuilder values = new StringBuilder();
        for (int k = 0; k < labels.size(); k++) values.append(k == 0 ? "" : ", ").append("(?, ?, ?, ?)");
        String sql = switch (db.dialect) {
            case MYSQL -> "INSERT INTO " + sideTable + " (run_id, label, agent_id, version) VALUES " + values
                    + " ON DUPLICATE KEY UPDATE version = VALUES(version)";
            case H2 -> "MERGE INTO " + sideTable + " (run_id, label, agent_id, version) KEY (run_id, label) VALUES " + values;
            case SQLITE -> "INSERT INTO " + sideTable + " (run_id, label, agent_id, version) VALUES " + values
                    + " ON CONFLICT (run_id, label) DO UPDATE SET version = excluded.version";
            case POSTGRESQL -> throw new IllegalStateException("PostgreSQL keeps decider labels in the runs table");
        };
        try (PreparedStatement p = db.prepare(c, sql)) {
            int i = 1;
            for (String label : labels) {
                db.setId(p, i++, s.runId());
                db.setId(p, i++, label);
                db.setId(p, i++, s.agentId());
                p.setLong(i++, s.version());
            }
            p.executeUpdate();
        }
    }

    // ---------------------------------------------------------------- the filter

    /**
     * MySQL/MariaDB: what the total of a deciders listing counts, as the text after {@code SELECT COUNT(*) FROM}: the
     * agent's label rows of the pairs' labels, one range of the label index read in order, grouped by run and version
     * and kept where some pair's granting label is there and its excluding one is not (the rule of {@link #appendFilter},
     * without a lookup per label row), then joined ({@code STRAIGHT_JOIN}, in that order) to the agent's entries of
     * {@code <table>_waiting} (migration V009) on the run and its {@code waiting_version}: a match is a SUSPENDED run
     * at the label rows' version. {@code FORCE INDEX}: the optimizer would otherwise read the runs' rows. The page keeps
     * the filter of {@link #appendFilter}, which walks the listing index in order and stops at the page's end.
     *
     * @param base       the listing's other conditions, starting with {@code " WHERE agent_id = ?"}, on the runs table's columns
     * @param baseParams their parameters
     * @param params     receives the parameters of the returned text
     */
    String countFrom(String agentId, List<RunQuery.Decider> deciders, String base, List<Object> baseParams, List<Object> params) {
        Set<String> asked = new LinkedHashSet<>();
        for (RunQuery.Decider d : deciders) {
            asked.add(d.granted());
            asked.add(d.unlessExcluded());
        }
        StringBuilder sql = new StringBuilder("(SELECT g.run_id, g.version FROM ").append(sideTable)
                .append(" g WHERE g.agent_id = ? AND g.label IN (");
        params.add(db.id(agentId));
        int k = 0;
        for (String l : asked) {
            sql.append(k++ == 0 ? "?" : ", ?");
            params.add(db.id(l));
        }
        sql.append(") GROUP BY g.run_id, g.version HAVING ");
        k = 0;
        for (RunQuery.Decider d : deciders) {
            sql.append(k++ == 0 ? "" : " OR ").append("(MAX(g.label = ?) = 1 AND MAX(g.label = ?) = 0)");
            params.add(db.id(d.granted()));
            params.add(db.id(d.unlessExcluded()));
        }
        sql.append(") d STRAIGHT_JOIN ").append(table).append(" FORCE INDEX (").append(table).append("_waiting) ON ")
                .append(table).append(".run_id = d.run_id AND ").append(table).append(".waiting_version = d.version").append(base);
        params.addAll(baseParams);
        return sql.toString();
    }

    /**
     * Appends the condition of {@code deciders} (not empty) on the runs of {@code agentId} to {@code sql},
     * starting with {@code " AND "}, and its parameters to {@code params}.
     */
    void appendFilter(String agentId, List<RunQuery.Decider> deciders, StringBuilder sql, List<Object> params) {
        // MySQL/MariaDB: waiting_version (migration V009) is the version of a SUSPENDED run with labels, else NULL,
        // so matching it says SUSPENDED too, and the index (agent_id, run_id, waiting_version) answers the total
        // without the runs' rows
        if (db.dialect != JdbcDialect.MYSQL) sql.append(" AND status = 'SUSPENDED'");
        if (inArray()) {
            // the labels as the agent's runs store them; the partial index <table>_list_waiting (V009) holds the
            // agent's SUSPENDED runs with labels, the labels included: its total is an index-only scan
            String q = qualifier(agentId);
            Set<String> granted = new LinkedHashSet<>();
            for (RunQuery.Decider d : deciders) granted.add(q + d.granted());
            sql.append(" AND deciders && ARRAY[");
            int k = 0;
            for (String g : granted) {
                sql.append(k++ == 0 ? "?" : ", ?");
                params.add(g);
            }
            sql.append("]::text[] AND (");
            k = 0;
            for (RunQuery.Decider d : deciders) {
                sql.append(k++ == 0 ? "" : " OR ").append("(? = ANY(deciders) AND NOT ? = ANY(deciders))");
                params.add(q + d.granted());
                params.add(q + d.unlessExcluded());
            }
            sql.append(')');
            return;
        }
        // H2 answers the row value IN (run_id, version) by scanning the agent's listing range (14 times slower on
        // 100,000 runs); with the version checked inside, the label index drives and the runs are primary-key lookups.
        // MySQL/MariaDB and SQLite look the (run_id, version) pairs up in the agent's entries of <table>_waiting (V009).
        // The exclusion is looked up in the label index, among the agent's own entries (SQLite would take the primary
        // key, then read the row for its version).
        boolean h2 = db.dialect == JdbcDialect.H2;
        String pair = switch (db.dialect) {
            case H2 -> " AND run_id IN (SELECT g.run_id FROM ";
            case MYSQL -> " AND (run_id, waiting_version) IN (SELECT g.run_id, g.version FROM ";
            default -> " AND (run_id, version) IN (SELECT g.run_id, g.version FROM ";
        };
        String excluded = db.dialect == JdbcDialect.SQLITE ? sideTable + " x INDEXED BY " + sideTable + "_label" : sideTable + " x";
        sql.append(pair).append(sideTable).append(" g WHERE g.agent_id = ? AND (");
        params.add(db.id(agentId));
        int k = 0;
        for (RunQuery.Decider d : deciders) {
            sql.append(k++ == 0 ? "" : " OR ").append("(g.label = ? AND NOT EXISTS (SELECT 1 FROM ").append(excluded)
                    .append(" WHERE x.agent_id = g.agent_id AND x.label = ? AND x.run_id = g.run_id AND x.version = g.version))");
            params.add(db.id(d.granted()));
            params.add(db.id(d.unlessExcluded()));
        }
        sql.append(')');
        if (h2) sql.append(" AND g.version = (SELECT v.version FROM ").append(table).append(" v WHERE v.run_id = g.run_id)");
        sql.append(')');
    }
}
