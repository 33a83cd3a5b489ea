package dev.baton.bench;

import dev.baton.agent.Agent;
import dev.baton.model.DeterministicModel;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The audit trail on PostgreSQL and MariaDB: {@code Agent.listDecisions} (first page of 50, newest first) by
 * run, thread, resource and actor, against the hand-written query on the same table, at {@code n}
 * seeded records (default 1,000,000) of one agent (and a tenth as many of another, so scoping is real).
 * Before measuring, Baton's pages and the raw query's are compared on every target.
 *
 * <pre>
 * java -cp benchmarks/target/baton-benchmarks.jar dev.baton.bench.DecisionBenchmark [n] [iterations] [postgres|mariadb]
 * </pre>
 * The database comes from {@code BATON_TEST_POSTGRES_URL} or {@code BATON_TEST_MARIADB_URL}; the table {@code bench_dec_<n>_decisions}
 * is seeded once (COPY-free multi-row inserts) and kept for the next run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DecisionBenchmark extends TrailBenchmark {
    static final String AGENT = DecisionTargets.AGENT;
    static final int PAGE = DecisionTargets.PAGE;
    static final int RUNS_PER_THREAD = DecisionTargets.RUNS_PER_THREAD;
    static final int DECISIONS_PER_RUN = DecisionTargets.DECISIONS_PER_RUN;
    /** The columns of a record, in the store's order ({@code decided_at}, the 11th, is a number). */
    static final String COLUMNS = "decision_id, agent_id, run_id, thread_id, resource_id, tool_call_id, tool_name, kind,"
            + " actor, instance_id, decided_at, reason, digest_before, digest_after, idempotency_key";

    @Param("1000000")
    public int n;

    /** {@code postgres} or {@code mariadb}. */
    @Param("postgres")
    public String db;

    dev.baton.store.SnapshotStore store;
    Connection raw;
    String table;

    static String url(String db) {
        return switch (db) {
            case "postgres" -> Backend.env("BATON_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
            case "mariadb" -> Backend.env("BATON_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test?user=root&sslMode=disable");
            default -> throw new IllegalArgumentException("db must be postgres or mariadb, not " + db);
        };
    }

    @Setup(Level.Trial)
    public void setup() throws Exception {
        String runsTable = "bench_dec_" + n;
        table = runsTable + "_decisions";
        // pooled, as an application opens it (the raw query keeps one connection: no pool cost either)
        store = dev.baton.store.SnapshotStores.open(url(db), java.util.Map.of("table", runsTable, "poolSize", "4"));
        agent = Agent.builder(AGENT).model(DeterministicModel.builder().build()).store(store).build();
        raw = DriverManager.getConnection(url(db));
        seed(raw, table, n);
        checkTargets(n);
    }

    @Override
    String rawName(DecisionTargets.Filter f) {
        return switch (f) { case RUN -> "run_id"; case THREAD -> "thread_id"; case RESOURCE -> "resource_id"; case ACTOR -> "actor"; };
    }

    /** n records of AGENT: 4 per run, 5 runs per thread, 997 resources, 200 actors; and n/10 of another agent. */
    static void seed(Connection c, String table, int n) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table + " WHERE agent_id = '" + AGENT + "'")) {
            rs.next();
            if (rs.getLong(1) >= n) return;
            s.execute("DELETE FROM " + table);
        }
        c.setAutoCommit(false);
        String sql = "INSERT INTO " + table + " (decision_id, agent_id, run_id, thread_id, resource_id, tool_call_id, tool_name, kind,"
                + " actor, instance_id, decided_at, reason, digest_before, digest_after, idempotency_key) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
        try (PreparedStatement p = c.prepareStatement(sql)) {
            DecisionTargets.seed(n, d -> {
                p.setString(1, d.decisionId());
                p.setString(2, d.agentId());
                p.setString(3, d.runId());
                p.setString(4, d.threadId());
                p.setString(5, d.resourceId());
                p.setString(6, d.toolCallId());
                p.setString(7, "charge");
                p.setString(8, "approve");
                p.setString(9, d.actor());
                p.setString(10, "bench");
                p.setLong(11, d.decidedAt());
                p.setString(12, "ok");
                p.setString(13, "a".repeat(64));
                p.setString(14, "a".repeat(64));
                p.setString(15, null);
                p.addBatch();
                if (d.k() % 5000 == 4999) {
                    p.executeBatch();
                    c.commit();
                }
            });
            p.executeBatch();
            c.commit();
        } catch (SQLException e) {
            throw e;
        } catch (Exception e) {
            throw new SQLException(e);
        } finally {
            c.setAutoCommit(true);
        }
        try (Statement s = c.createStatement()) {
            s.execute((c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT).contains("postgres")
                    ? "ANALYZE " : "ANALYZE TABLE ") + table);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws SQLException {
        raw.close();
        store.close();
    }

    /**
     * The hand-written query, like for like: the columns a record has, one row more than the page
     * (to know whether there is a next page), every column read; the store's JDBC statement costs the
     * same plus Jdbi and the decoding into records.
     */
    @Override
    List<String> rawQuery(String column, String value) throws SQLException {
        try (PreparedStatement p = raw.prepareStatement("SELECT " + COLUMNS + " FROM " + table + " WHERE agent_id = ? AND " + column
                + " = ? ORDER BY decided_at DESC, decision_id DESC LIMIT " + (PAGE + 1))) {
            p.setString(1, AGENT);
            p.setString(2, value);
            List<String> out = new ArrayList<>(PAGE);
            try (ResultSet rs = p.executeQuery()) {
                int columns = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    for (int c = 2; c <= columns; c++) {
                        if (c == 11) rs.getLong(c); else rs.getString(c);
                    }
                    if (out.size() < PAGE) out.add(rs.getString(1));
                }
            }
            return out;
        }
    }

    /**
     * Runs this benchmark alone.
     *
     * @param args {@code [n] [iterations] [postgres|mariadb]}
     * @throws Exception if JMH fails
     */
    public static void main(String[] args) throws Exception {
        TrailBenchmark.main(DecisionBenchmark.class, args, "1000000", "512m", args.length > 2 ? args[2] : "postgres");
    }
}
