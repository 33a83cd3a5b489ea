package dev.baton.bench;

import dev.baton.StorageException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.internal.RunState;
import dev.baton.internal.SnapshotCodec;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.jdbc.JdbcDialect;
import dev.baton.store.memory.MemorySnapshotStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The data of {@link ScaleBenchmark}: {@code n} suspended runs of the two busy agents a real
 * deployment has ({@code scale-agent-0}, {@code scale-agent-1}), not the hundred quiet ones of
 * {@link DataSet}. Run {@code g} (0-based) is in thread {@code g / 10} and resource {@code g / 100}
 * (10 and 100 runs each, at every size: a deployment with more runs has more threads, not longer
 * ones), of agent {@code (g / 100) % 2}; created {@code g} steps into the 30 days from
 * {@link DataSet#START}; one run in 1,000 waits with a deadline ({@link #DUE}). The payload is what
 * core writes for a run waiting for the approval of {@code bookFlight} (about 0.5 KB, no padding),
 * with the run's own ids.
 *
 * <p>Seeded on the server itself, in SQL ({@code generate_series} on PostgreSQL, the
 * {@code seq_0_to_N} sequence engine on MariaDB), into a table the store created with its own
 * migrations; the primary key and the store's listing indexes are dropped before the load and
 * built after it in one sorted pass each. A marker row ({@code baton_scale_seed}) says the table
 * is complete, so a table of ten million runs is seeded once and kept between runs.
 */
final class ScaleData implements ScaleSeed {
    static final int VERSION = 1;
    static final String MARKER = "baton_scale_seed";
    static final Instant START = DataSet.START;
    /** The deadline of the runs that have one: listDue finds them from then on. */
    static final Instant DUE = START.plus(Duration.ofDays(10));
    /** "Now" for the listings: after every run was created, before nothing. */
    static final Instant NOW = START.plus(Duration.ofDays(40));
    static final int AGENTS = 2;
    static final int PER_THREAD = 10;
    static final int PER_RESOURCE = 100;
    static final int DUE_EVERY = 1000;
    private static final String RUN = "@@RUN@@", AGENT = "@@AGENT@@", THREAD = "@@THREAD@@", RES = "@@RES@@";

    final String backend;
    final String url;
    final JdbcDialect dialect;
    final int n;

    ScaleData(String backend, String url, int n) {
        this.backend = backend;
        this.url = url;
        this.n = n;
        this.dialect = JdbcDialect.forUrl(url).orElseThrow(() -> new IllegalArgumentException("not a JDBC URL: " + url));
        if (dialect != JdbcDialect.POSTGRESQL && dialect != JdbcDialect.MYSQL) {
            throw new IllegalArgumentException("the scale benchmark seeds PostgreSQL and MariaDB/MySQL only, not " + dialect);
        }
    }

    @Override
    public String backend() {
        return backend;
    }

    @Override
    public int n() {
        return n;
    }

    String table() {
        return "baton_scale_" + DataSet.human(n);
    }

    static String agentId(int a) {
        return "scale-agent-" + a;
    }

    static String threadId(long thread) {
        return String.format(Locale.ROOT, "thread-%08d", thread);
    }

    static String resourceId(long resource) {
        return String.format(Locale.ROOT, "user-%07d", resource);
    }

    /** The agent of thread {@code t}. */
    static int agentOfThread(long t) {
        return (int) ((t * PER_THREAD / PER_RESOURCE) % AGENTS);
    }

    long stepMillis() {
        return Math.max(1, Duration.ofDays(30).toMillis() / n);
    }

    @Override
    public SnapshotStore openStore() {
        return SnapshotStores.open(url, Map.of("table", table(), "poolSize", "8"));
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    @Override
    public boolean isSeeded() {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS " + MARKER + " (name VARCHAR(64) NOT NULL PRIMARY KEY, n BIGINT NOT NULL,"
                    + " data_version INTEGER NOT NULL, seeded_at BIGINT NOT NULL, seed_seconds DOUBLE PRECISION NOT NULL)");
            try (ResultSet rs = s.executeQuery("SELECT n, data_version FROM " + MARKER + " WHERE name = '" + table() + "'")) {
                return rs.next() && rs.getLong(1) == n && rs.getInt(2) == VERSION;
            }
        } catch (SQLException e) {
            throw new StorageException(backend + ": checking the scale seed marker failed: " + e.getMessage(), e);
        }
    }

    /** Seeds the table (dropping what was there); returns the seconds it took. */
    @Override
    public double seed() {
        long t0 = System.nanoTime();
        String t = table();
        String[] payload = templates();
        try (Connection c = connect()) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("DELETE FROM " + MARKER + " WHERE name = '" + t + "'");
                for (String suffix : new String[] {"_deciders", "", "_schema_history", "_threads", "_messages"}) s.execute("DROP TABLE IF EXISTS " + t + suffix);
            }
            try (SnapshotStore store = openStore()) {
                store.describe();   // the store creates its table and indexes with its own migrations
            }
            SqlBackend sql = new SqlBackend(backend, url);
            List<String[]> indexes = sql.secondaryIndexes(t);
            try (Statement s = c.createStatement()) {
                for (String[] ix : indexes) {
                    s.execute(dialect == JdbcDialect.MYSQL ? "ALTER TABLE " + t + " DROP INDEX " + ix[0] : "DROP INDEX " + ix[0]);
                }
                s.execute(dialect == JdbcDialect.MYSQL ? "ALTER TABLE " + t + " DROP PRIMARY KEY"
                        : "ALTER TABLE " + t + " DROP CONSTRAINT " + t + "_pkey");
                if (dialect == JdbcDialect.POSTGRESQL) s.execute("SET synchronous_commit = off");
            }
            int batch = 1_000_000;
            for (long lo = 0; lo < n; lo += batch) {
                long hi = Math.min(n, lo + batch) - 1;
                try (PreparedStatement p = c.prepareStatement(insert(t, lo, hi))) {
                    p.setString(1, payload[1]);
                    p.setString(2, payload[0]);
                    p.setLong(3, DUE.toEpochMilli());
                    p.setString(4, payload[3]);
                    p.setString(5, payload[2]);
                    p.executeUpdate();
                }
                System.err.printf(Locale.ROOT, "[scale] %s %s: %,d of %,d rows (%.0f s)%n", backend, t, hi + 1, n,
                        (System.nanoTime() - t0) / 1e9);
            }
            try (Statement s = c.createStatement()) {
                System.err.printf(Locale.ROOT, "[scale] %s %s: building the key and %d indexes (%.0f s)%n", backend, t, indexes.size(),
                        (System.nanoTime() - t0) / 1e9);
                if (dialect == JdbcDialect.MYSQL) {
                    StringBuilder alter = new StringBuilder("ALTER TABLE " + t + " ADD PRIMARY KEY (run_id)");
                    for (String[] ix : indexes) alter.append(", ").append(ix[1].substring(("ALTER TABLE " + t + " ").length()));
                    s.execute(alter.toString());
                    s.execute("ANALYZE TABLE " + t);
                } else {
                    s.execute("SET maintenance_work_mem = '512MB'");
                    s.execute("ALTER TABLE " + t + " ADD CONSTRAINT " + t + "_pkey PRIMARY KEY (run_id)");
                    for (String[] ix : indexes) s.execute(ix[1]);
                    s.execute("VACUUM ANALYZE " + t);   // the visibility map: index-only scans for the totals
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            try (PreparedStatement p = c.prepareStatement("INSERT INTO " + MARKER
                    + " (name, n, data_version, seeded_at, seed_seconds) VALUES (?, ?, ?, ?, ?)")) {
                p.setString(1, t);
                p.setLong(2, n);
                p.setInt(3, VERSION);
                p.setLong(4, System.currentTimeMillis());
                p.setDouble(5, seconds);
                p.executeUpdate();
            }
            return seconds;
        } catch (SQLException e) {
            throw new StorageException(backend + ": seeding " + t + " failed: " + e.getMessage(), e);
        }
    }

    /** Seconds the stored seed took (from the marker). */
    @Override
    public double seededSeconds() {
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT seed_seconds FROM " + MARKER + " WHERE name = '" + table() + "'")) {
            return rs.next() ? rs.getDouble(1) : Double.NaN;
        } catch (SQLException e) {
            return Double.NaN;
        }
    }

    /** One INSERT ... SELECT of rows {@code lo..hi}, generated by the server. Parameters: payload, due payload, due, summary, due summary. */
    private String insert(String t, long lo, long hi) {
        boolean pg = dialect == JdbcDialect.POSTGRESQL;
        String txt = pg ? "%s::text" : "CAST(%s AS CHAR)";
        String div = pg ? "(%s / %d)" : "(%s DIV %d)";
        String g = "g";
        String id = "md5(concat('scale-', " + String.format(txt, g) + "))";
        String agent = "concat('scale-agent-', " + String.format(txt, "(" + String.format(div, g, PER_RESOURCE) + " % " + AGENTS + ")") + ")";
        String thread = "concat('thread-', lpad(" + String.format(txt, String.format(div, g, PER_THREAD)) + ", 8, '0'))";
        String res = "concat('user-', lpad(" + String.format(txt, String.format(div, g, PER_RESOURCE)) + ", 7, '0'))";
        String due = "(" + g + " % " + DUE_EVERY + " = 0)";
        String source = pg ? "generate_series(CAST(" + lo + " AS BIGINT), " + hi + ") AS s(g)"
                : "(SELECT seq + " + lo + " AS g FROM seq_0_to_" + (hi - lo) + ") s";
        return "INSERT INTO " + t + " (" + SqlBackend.COLUMNS + ") SELECT id, ag, 'SUSPENDED', th, rs, ca, ca + 1000, 1, NULL, NULL,"
                + " replace(replace(replace(replace(CASE WHEN due THEN ? ELSE ? END, '" + RUN + "', id), '" + AGENT + "', ag), '"
                + THREAD + "', th), '" + RES + "', rs), CASE WHEN due THEN ? ELSE NULL END, CASE WHEN due THEN ? ELSE ? END"
                + " FROM (SELECT " + id + " AS id, " + agent + " AS ag, " + thread + " AS th, " + res + " AS rs, "
                + (START.toEpochMilli()) + " + " + g + " * " + stepMillis() + " AS ca, " + due + " AS due FROM " + source + ") x";
    }

    /** Bytes per run on disk, from the server's own accounting. */
    @Override
    public Map<String, Object> footprint() throws SQLException {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        try (Connection c = connect(); Statement s = c.createStatement()) {
            String sql = dialect == JdbcDialect.POSTGRESQL
                    // with TOAST and the free-space and visibility maps
                    ? "SELECT pg_relation_size('" + table() + "'), pg_indexes_size('" + table() + "'), pg_total_relation_size('" + table() + "')"
                    // InnoDB's estimates, refreshed by ANALYZE TABLE
                    : "SELECT data_length, index_length, data_length + index_length FROM information_schema.tables"
                            + " WHERE table_schema = DATABASE() AND table_name = '" + table() + "'";
            try (ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                m.put("tableBytes", rs.getLong(1));
                m.put("indexBytes", rs.getLong(2));
                m.put("totalBytes", rs.getLong(3));
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table())) {
                rs.next();
                m.put("rows", rs.getLong(1));
            }
        }
        m.put("bytesPerRun", ((Number) m.get("totalBytes")).doubleValue() / ((Number) m.get("rows")).doubleValue());
        return m;
    }

    /** A template of {@link #templates()} with the run's ids in place of its placeholders. */
    static String fill(String template, String runId, String agentId, String threadId, String resourceId) {
        return template.replace(RUN, runId).replace(AGENT, agentId).replace(THREAD, threadId).replace(RES, resourceId);
    }

    /**
     * What core writes for a run waiting for the approval of {@code bookFlight}, with placeholders
     * for the ids: [payload, payload with the deadline {@link #DUE}, summary, summary with it].
     */
    static String[] templates() {
        String[] out = new String[4];
        for (int k = 0; k < 2; k++) {
            Duration wait = Duration.ofDays(7);
            Clock clock = Clock.fixed(DUE.minus(wait), ZoneOffset.UTC);
            try (SnapshotStore store = MemorySnapshotStore.create()) {
                Agent a = Agent.builder("template").instructions("You book flights.").model(DataSet.model()).tools(DataSet.bookFlight())
                        .store(store).clock(clock).build();
                RunOptions.Builder o = RunOptions.builder().threadId("t").resourceId("r");
                if (k == 1) o.waitTimeout(wait);
                AgentResult r = a.generate(DataSet.PROMPT, o.build());
                if (r.outcome() != RunOutcome.SUSPENDED) throw new IllegalStateException("template run did not suspend: " + r);
                RunState s = SnapshotCodec.decode(store.find(r.runId()).orElseThrow());
                s.runId = RUN;
                s.agentId = AGENT;
                s.threadId = THREAD;
                s.resourceId = RES;
                SnapshotCodec.Encoded e = SnapshotCodec.encodeAll(s);
                if (k == 1 && !DUE.equals(e.expiresAt())) throw new IllegalStateException("template deadline " + e.expiresAt());
                out[k] = e.payload();
                out[2 + k] = e.summary();
            }
        }
        return out;
    }
}
