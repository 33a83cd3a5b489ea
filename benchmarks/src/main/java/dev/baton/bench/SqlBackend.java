package dev.baton.bench;

import dev.baton.StorageException;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.jdbc.JdbcDialect;
import dev.baton.store.jdbc.JdbcSnapshotStore;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * PostgreSQL, MariaDB/MySQL, H2 and SQLite: one table per data set ({@code baton_bench_10k_2k}, ...)
 * created by the store itself (its migrations, its indexes), filled with COPY on PostgreSQL and
 * multi-row INSERTs elsewhere, and a marker row in {@code baton_bench_seed}.
 */
final class SqlBackend extends Backend {
    /** The store's columns, in its own order (JdbcSnapshotStore / Schema.COLUMNS). */
    static final String COLUMNS = "run_id, agent_id, status, thread_id, resource_id, created_at, suspended_at,"
            + " version, lease_owner, lease_expires_at, payload, expires_at, summary";
    /** The seed's columns: the store's, and the decider labels (migration V007). */
    static final String SEED_COLUMNS = COLUMNS + ", deciders";
    static final String MARKER = NAMESPACE + "_seed";
    /**
     * PostgreSQL's label layout, recorded beside {@link DataSet#VERSION} ({@link #seedVersion}): 8 since the labels are
     * stored qualified by the run's agent, as the store writes them from its migration V008 on.
     */
    static final int PG_LABELS = 8;

    private final String url;
    private final JdbcDialect dialect;

    SqlBackend(String name, String url) {
        super(name);
        this.url = url;
        this.dialect = JdbcDialect.forUrl(url).orElseThrow(() -> new IllegalArgumentException("not a JDBC URL: " + url));
    }

    String table(DataSet d) {
        return NAMESPACE + "_" + d.tag();
    }

    Connection connect() throws SQLException {
        if (dialect == JdbcDialect.H2 || dialect == JdbcDialect.SQLITE) {
            Path file = Path.of(url.substring(url.indexOf(':', 5) + 1).replaceFirst("^file:", ""));
            try {
                Files.createDirectories(file.getParent());
            } catch (java.io.IOException e) {
                throw new SQLException("cannot create " + file.getParent(), e);
            }
        }
        Connection c = DriverManager.getConnection(url);
        if (dialect == JdbcDialect.SQLITE) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA busy_timeout = 10000");
            }
        }
        return c;
    }

    @Override
    public String describe() {
        try (Connection c = connect()) {
            DatabaseMetaData m = c.getMetaData();
            return m.getDatabaseProductName() + " " + m.getDatabaseProductVersion() + " (" + SnapshotStores.redact(url) + ")";
        } catch (SQLException e) {
            throw new StorageException(name + ": cannot connect to " + SnapshotStores.redact(url) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public SnapshotStore openStore(DataSet data) {
        return SnapshotStores.open(url, Map.of("table", table(data), "poolSize", "10"));
    }

    @Override
    @Nullable RawCycle rawCycle(DataSet data, CycleTemplate template) {
        try {
            return new SqlRawCycle(connect(), table(data), dialect, template);
        } catch (SQLException e) {
            throw new StorageException(name + ": opening the raw cycle failed: " + e.getMessage(), e);
        }
    }

    @Override
    void purgeRaw(DataSet data) {
        try (Connection c = connect()) {
            SqlRawCycle.purge(c, table(data), dialect);
        } catch (SQLException e) {
            throw new StorageException(name + ": purging the raw cycle's rows failed: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean isSeeded(DataSet data) {
        try (Connection c = connect()) {
            createMarker(c);
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT n, size_bytes, data_version FROM " + MARKER + " WHERE name = ?")) {
                p.setString(1, table(data));
                try (ResultSet rs = p.executeQuery()) {
                    if (!rs.next() || rs.getLong(1) != data.n || rs.getInt(2) != data.size
                            || rs.getInt(3) != seedVersion()) return false;
                }
            }
            try (Statement s = c.createStatement()) {
                s.executeQuery("SELECT 1 FROM " + table(data) + " WHERE 1 = 0").close();
                return true;
            } catch (SQLException missing) {
                return false;
            }
        } catch (SQLException e) {
            throw new StorageException(name + ": checking the seed marker failed: " + e.getMessage(), e);
        }
    }

    /**
     * The data version the marker records: {@link DataSet#VERSION}; on PostgreSQL with the layout of its labels
     * ({@code VERSION * 100 + PG_LABELS}), so that a seed whose labels are not qualified by the agent (made before
     * the store's migration V008) is seeded again, not reused. The other databases store the labels as before.
     */
    int seedVersion() {
        return dialect == JdbcDialect.POSTGRESQL ? DataSet.VERSION * 100 + PG_LABELS : DataSet.VERSION;
    }

    private void createMarker(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + MARKER + " (name VARCHAR(64) NOT NULL PRIMARY KEY, n BIGINT NOT NULL,"
                    + " size_bytes INTEGER NOT NULL, data_version INTEGER NOT NULL, seeded_at BIGINT NOT NULL)");
        }
    }

    @Override
    public void seed(DataSet data) {
        String t = table(data);
        try (Connection c = connect()) {
            createMarker(c);
            try (Statement s = c.createStatement()) {
                s.executeUpdate("DELETE FROM " + MARKER + " WHERE name = '" + t + "'");
                for (String suffix : new String[] {"_deciders", "", "_schema_history", "_threads", "_messages"}) {
                    s.execute("DROP TABLE IF EXISTS " + t + suffix);   // the runs, history and memory tables
                }
            }
            // the store creates its own table and indexes, exactly as in production
            try (SnapshotStore store = openStore(data)) {
                store.describe();
            }
            // load without the secondary indexes, in primary-key order, then build the store's own
            // indexes from its DDL in one sorted pass each: much faster than a million index inserts
            List<String[]> indexes = secondaryIndexes(t);
            try (Statement s = c.createStatement()) {
                for (String[] ix : indexes) {
                    s.execute(dialect == JdbcDialect.MYSQL ? "ALTER TABLE " + t + " DROP INDEX " + ix[0] : "DROP INDEX " + ix[0]);
                }
            }
            long start = System.nanoTime();
            int[] order = data.inRunIdOrder();
            if (dialect == JdbcDialect.POSTGRESQL) copy(c, t, data, order, start);
            else insert(c, t, data, order, start);
            try (Statement s = c.createStatement()) {
                if (dialect == JdbcDialect.POSTGRESQL) s.execute("SET maintenance_work_mem = '256MB'");
                System.err.printf("[seed] %s %s: rows loaded, building %d indexes (%.1f s)%n", name, t, indexes.size(),
                        (System.nanoTime() - start) / 1e9);
                if (dialect == JdbcDialect.MYSQL) {
                    // one ALTER TABLE: InnoDB reads the clustered index once for all four
                    StringBuilder alter = new StringBuilder("ALTER TABLE " + t);
                    for (int k = 0; k < indexes.size(); k++) {
                        alter.append(k == 0 ? " " : ", ").append(indexes.get(k)[1].substring(("ALTER TABLE " + t + " ").length()));
                    }
                    s.execute(alter.toString());
                } else {
                    for (String[] ix : indexes) s.execute(ix[1]);
                }
            }
            try (Statement s = c.createStatement()) {
                switch (dialect) {
                    case POSTGRESQL -> s.execute("VACUUM ANALYZE " + t);
                    case MYSQL -> s.execute("ANALYZE TABLE " + t);
                    case H2 -> s.execute("ANALYZE TABLE " + t);
                    case SQLITE -> s.execute("ANALYZE");
                }
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO " + MARKER
                    + " (name, n, size_bytes, data_version, seeded_at) VALUES (?, ?, ?, ?, ?)")) {
                p.setString(1, t);
                p.setLong(2, data.n);
                p.setInt(3, data.size);
                p.setInt(4, seedVersion());
                p.setLong(5, System.currentTimeMillis());
                p.executeUpdate();
            }
        } catch (SQLException e) {
            throw new StorageException(name + ": seeding " + t + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * The secondary indexes of the runs table as the store's migrations leave them, read from its
     * own DDL ({@link JdbcSnapshotStore#ddl}, every migration in order): name and the statement that
     * creates it ({@code CREATE INDEX}, or {@code ALTER TABLE ... ADD INDEX} on MySQL), without
     * the indexes a later migration drops and without those of the thread-memory tables.
     */
    List<String[]> secondaryIndexes(String t) {
        Map<String, String[]> out = new java.util.LinkedHashMap<>();
        for (String raw : JdbcSnapshotStore.ddl(dialect, t).split(";\n")) {
            String st = raw.lines().filter(l -> !l.strip().startsWith("--")).map(String::strip)
                    .reduce("", (a, b) -> a.isEmpty() ? b : a + " " + b);
            java.util.regex.Matcher m = CREATE_INDEX.matcher(st);
            if (m.matches() && m.group(2).equals(t)) {
                String create = dialect == JdbcDialect.MYSQL
                        ? "ALTER TABLE " + t + " ADD INDEX " + m.group(1) + " " + m.group(3) : st;
                out.put(m.group(1), new String[] {m.group(1), create});
                continue;
            }
            m = DROP_INDEX.matcher(st);
            if (m.matches()) {
                out.remove(m.group(1));
                continue;
            }
            if (st.startsWith("CREATE TABLE IF NOT EXISTS " + t + " (")) {   // MySQL's inline indexes of the runs table
                for (String line : raw.split("\n")) {
                    String l = line.strip();
                    if (l.endsWith(",")) l = l.substring(0, l.length() - 1);
                    m = INLINE_INDEX.matcher(l);
                    if (m.matches()) out.put(m.group(1), new String[] {m.group(1), "ALTER TABLE " + t + " ADD " + l});
                }
            }
        }
        if (out.size() < 4) throw new IllegalStateException(name + ": expected the store's listing indexes in its DDL, found " + out.keySet());
        return new ArrayList<>(out.values());
    }

    private static final java.util.regex.Pattern CREATE_INDEX =
            java.util.regex.Pattern.compile("CREATE INDEX (?:IF NOT EXISTS )?(\\w+) ON (\\w+) ((?:USING \\w+ )?\\(.*)");   // PostgreSQL: the labels GIN index too
    private static final java.util.regex.Pattern DROP_INDEX =
            java.util.regex.Pattern.compile("DROP INDEX (?:IF EXISTS )?(\\w+)(?: ON \\w+)?");
    private static final java.util.regex.Pattern INLINE_INDEX = java.util.regex.Pattern.compile("INDEX (\\w+) \\(.*\\)");

    /** PostgreSQL: COPY ... FROM STDIN in text format, 1 MB at a time. */
    private void copy(Connection c, String t, DataSet data, int[] order, long start) throws SQLException {
        CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + t + " (" + SEED_COLUMNS + ") FROM STDIN");
        try {
            ByteArrayOutputStream buf = new ByteArrayOutputStream(1 << 21);
            StringBuilder line = new StringBuilder(data.size + 256);
            for (int i = 0; i < data.n; i++) {
                RunSnapshot s = data.run(order[i]);
                line.setLength(0);
                copyField(line, s.runId()).append('\t');
                copyField(line, s.agentId()).append('\t');
                copyField(line, s.status().name()).append('\t');
                copyField(line, s.threadId()).append('\t');
                copyField(line, s.resourceId()).append('\t');
                line.append(s.createdAt().toEpochMilli()).append('\t');
                line.append(s.suspendedAt().toEpochMilli()).append('\t');
                line.append(s.version()).append('\t');
                line.append("\\N\t\\N\t");
                copyField(line, s.payload()).append('\t');
                line.append(s.expiresAt() == null ? "\\N" : Long.toString(s.expiresAt().toEpochMilli())).append('\t');
                copyField(line, s.summary()).append('\t');
                copyField(line, pgArray(s.agentId(), s.deciders())).append('\n');
                byte[] b = line.toString().getBytes(StandardCharsets.UTF_8);
                buf.write(b, 0, b.length);
                if (buf.size() > (1 << 20)) {
                    in.writeToCopy(buf.toByteArray(), 0, buf.size());
                    buf.reset();
                }
                progress(name + " " + t, i + 1, data.n, start);
            }
            if (buf.size() > 0) in.writeToCopy(buf.toByteArray(), 0, buf.size());
            in.endCopy();
        } finally {
            if (in.isActive()) in.cancelCopy();
        }
    }

    /**
     * PostgreSQL's text form of a {@code TEXT[]} (the store's {@code deciders} column) of a run of {@code agentId},
     * each label qualified by the agent as the store writes it ({@link #pgQualifier}), or null for no labels.
     */
    static @Nullable String pgArray(String agentId, java.util.Set<String> labels) {
        if (labels.isEmpty()) return null;
        String q = pgQualifier(agentId);
        StringBuilder b = new StringBuilder("{");
        for (String l : labels) {
            if (b.length() > 1) b.append(',');
            b.append('"').append((q + l).replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        }
        return b.append('}').toString();
    }

    /**
     * What PostgreSQL's {@code deciders} column puts before each label of a run of {@code agentId} (the store's
     * migration V008): {@code <length of agent_id in characters>:<agent_id>}, so that its GIN index keeps each
     * agent's labels apart.
     */
    static String pgQualifier(String agentId) {
        return agentId.codePointCount(0, agentId.length()) + ":" + agentId;
    }

    /** The {@code deciders} column outside PostgreSQL, as the store writes it: each label as {@code <length>:<label>}, in order. */
    static @Nullable String labelsText(java.util.Set<String> labels) {
        if (labels.isEmpty()) return null;
        StringBuilder b = new StringBuilder();
        for (String l : labels) b.append(l.length()).append(':').append(l);
        return b.toString();
    }

    private static StringBuilder copyField(StringBuilder b, @Nullable String v) {
        if (v == null) return b.append("\\N");
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            switch (ch) {
                case '\\' -> b.append("\\\\");
                case '\t' -> b.append("\\t");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                default -> b.append(ch);
            }
        }
        return b;
    }

    /** MariaDB, H2, SQLite: multi-row INSERTs of 100 rows, committed every 10,000 (SQLite: once). */
    private void insert(Connection c, String t, DataSet data, int[] order, long start) throws SQLException {
        int perStatement = 100;
        StringBuilder sql = new StringBuilder("INSERT INTO " + t + " (" + SEED_COLUMNS + ") VALUES ");
        for (int r = 0; r < perStatement; r++) sql.append(r == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?)");
        // the labels' side table (run_id, label, agent_id, version), one row per label, as the store writes them
        PreparedStatement labels = c.prepareStatement("INSERT INTO " + t + "_deciders (run_id, label, agent_id, version) VALUES (?, ?, ?, ?)");
        int pendingLabels = 0;
        boolean binary = dialect == JdbcDialect.MYSQL;
        c.setAutoCommit(false);
        try (PreparedStatement full = c.prepareStatement(sql.toString())) {
            int i = 0;
            while (i < data.n) {
                int rows = Math.min(perStatement, data.n - i);
                PreparedStatement p = full;
                PreparedStatement partial = null;
                if (rows < perStatement) {
                    StringBuilder tail = new StringBuilder("INSERT INTO " + t + " (" + SEED_COLUMNS + ") VALUES ");
                    for (int r = 0; r < rows; r++) tail.append(r == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?)");
                    partial = c.prepareStatement(tail.toString());
                    p = partial;
                }
                int k = 1;
                for (int r = 0; r < rows; r++, i++) {
                    RunSnapshot s = data.run(order[i]);
                    k = bindId(p, k, s.runId(), binary);
                    k = bindId(p, k, s.agentId(), binary);
                    p.setString(k++, s.status().name());
                    k = bindId(p, k, s.threadId(), binary);
                    k = bindId(p, k, s.resourceId(), binary);
                    p.setLong(k++, s.createdAt().toEpochMilli());
                    p.setLong(k++, s.suspendedAt().toEpochMilli());
                    p.setLong(k++, s.version());
                    p.setString(k++, s.payload());
                    if (s.expiresAt() == null) p.setNull(k++, java.sql.Types.BIGINT);
                    else p.setLong(k++, s.expiresAt().toEpochMilli());
                    p.setString(k++, s.summary());
                    String text = labelsText(s.deciders());
                    if (text == null) p.setNull(k++, java.sql.Types.VARCHAR);
                    else p.setString(k++, text);
                    for (String label : s.deciders()) {
                        bindId(labels, 1, s.runId(), binary);
                        bindId(labels, 2, label, binary);
                        bindId(labels, 3, s.agentId(), binary);
                        labels.setLong(4, s.version());
                        labels.addBatch();
                        pendingLabels++;
                    }
                    progress(name + " " + t, i + 1, data.n, start);
                }
                p.executeUpdate();
                if (pendingLabels > 0) {   // after their runs: the side table's foreign key
                    labels.executeBatch();
                    pendingLabels = 0;
                }
                if (partial != null) partial.close();
                if (dialect != JdbcDialect.SQLITE && i % 10_000 == 0) c.commit();
            }
            c.commit();
        } finally {
            labels.close();
            c.setAutoCommit(true);
        }
    }

    static int bindId(PreparedStatement p, int k, String v, boolean binary) throws SQLException {
        if (binary) p.setBytes(k, v.getBytes(StandardCharsets.UTF_8));
        else p.setString(k, v);
        return k + 1;
    }

    @Override
    public void purge(SnapshotStore store, DataSet data, String agentId) {
        try (Connection c = connect(); PreparedStatement p = c.prepareStatement("DELETE FROM " + table(data) + " WHERE agent_id = ?")) {
            bindId(p, 1, agentId, dialect == JdbcDialect.MYSQL);
            p.executeUpdate();
        } catch (SQLException e) {
            throw new StorageException(name + ": purging " + agentId + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public SnapshotStore openMemoryStore(MemoryData data) {
        return SnapshotStores.open(url, Map.of("table", NAMESPACE + "_" + data.tag(), "poolSize", "10"));
    }

    @Override
    public RawMemory rawMemory(MemoryData data) {
        try {
            return new SqlRawMemory(connect(), NAMESPACE + "_" + data.tag(), dialect == JdbcDialect.MYSQL);
        } catch (SQLException e) {
            throw new StorageException(name + ": cannot connect: " + e.getMessage(), e);
        }
    }

    @Override
    public int seedParallelism() {
        return dialect == JdbcDialect.POSTGRESQL || dialect == JdbcDialect.MYSQL ? 4 : 1;
    }

    @Override
    public RawQueries raw(DataSet data) {
        try {
            return new SqlRawQueries(connect(), table(data), dialect);   // MySQL: binary ids, lease_state
        } catch (SQLException e) {
            throw new StorageException(name + ": cannot connect: " + e.getMessage(), e);
        }
    }
}
