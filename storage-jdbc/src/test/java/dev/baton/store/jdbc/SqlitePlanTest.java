package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunQuery;
import dev.baton.store.SnapshotStores;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the SQLite store promises about the plan of the "waiting for me" listing (migration V009), on 20,000 runs of
 * 20 agents, a quarter of them with decider labels, without ANALYZE (as a store's file is): the total reads the
 * agent's label rows from the label index and checks each run's version in the partial covering index
 * {@code <table>_waiting}, never the table; the exclusion is looked up in the label index too; the page walks the
 * agent's listing index in listing order without a sort. Before V009 each labelled run was looked up in the table for
 * its version and status (one page per run). A regression of the plan fails here.
 */
class SqlitePlanTest {
    private static final String TABLE = "baton_plan_sqlite";
    private static final Instant NOW = Instant.ofEpochMilli(1_800_000_000_000L);
    private static JdbcSnapshotStore store;
    private static Jdbi raw;

    @BeforeAll
    static void seed() {
        String url = TestDatabases.sqliteUrl();
        raw = Jdbi.create(url);
        drop();
        store = (JdbcSnapshotStore) SnapshotStores.open(url, Map.of("table", TABLE));
        raw.useHandle(h -> {
            // as MariaDbPlanTest's: every fourth run SUSPENDED with labels, every eighth claimed
            h.execute("INSERT INTO " + TABLE + " (" + Schema.COLUMNS + ")"
                    + " WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 20000)"
                    + " SELECT 'run-' || g, 'agent-' || (g % 20),"
                    + "  CASE WHEN (g / 20) % 8 = 3 THEN 'RESUMING' ELSE 'SUSPENDED' END, 'thread-' || (g % 2000), NULL,"
                    + "  1700000000000 + g * 1000, 1700000000000 + g * 1000 + 5, CASE WHEN (g / 20) % 8 = 3 THEN 2 ELSE 1 END,"
                    + "  CASE WHEN (g / 20) % 8 = 3 THEN 'instance-1' END, CASE WHEN (g / 20) % 8 = 3 THEN 1900000000000 END,"
                    + "  '{\"formatVersion\":2}', NULL, '{\"calls\":[]}', NULL, NULL,"
                    + "  CASE WHEN (g / 20) % 4 <> 3 THEN NULL WHEN (g / 20) % 16 < 8 THEN '9:r:finance' ELSE '5:r:ops10:x:3:ops:bob' END"
                    + " FROM s");
            h.execute("INSERT INTO " + TABLE + "_deciders (run_id, label, agent_id, version)"
                    + " SELECT run_id, 'r:finance', agent_id, 1 FROM " + TABLE + " WHERE deciders = '9:r:finance'"
                    + " UNION ALL SELECT run_id, 'r:ops', agent_id, 1 FROM " + TABLE + " WHERE deciders LIKE '5:r:ops%'"
                    + " UNION ALL SELECT run_id, 'x:3:ops:bob', agent_id, 1 FROM " + TABLE + " WHERE deciders LIKE '5:r:ops%'");
        });
    }

    @AfterAll
    static void close() {
        if (store != null) store.close();
        drop();
    }

    private static void drop() {
        raw.useHandle(h -> {
            for (String t : new String[] {TABLE + "_deciders", TABLE, TABLE + "_schema_history", TABLE + "_threads", TABLE + "_messages",
                TABLE + "_decisions"}) {
                h.execute("DROP TABLE IF EXISTS " + t);
            }
        });
    }

    /** EXPLAIN QUERY PLAN's lines of {@code s}. */
    private static List<String> explain(JdbcRunListing.Statement s) {
        return raw.withHandle(h -> {
            var query = h.createQuery("EXPLAIN QUERY PLAN " + s.sql());
            JdbcAccess.bindAll(query, s.params());
            return query.map((rs, ctx) -> rs.getString("detail")).list();
        });
    }

    private static RunQuery bob(int limit) {
        RunQuery.Builder b = RunQuery.forAgent("agent-7", NOW).deciders(List.of(new RunQuery.Decider("r:finance", "x:7:finance:bob"),
                new RunQuery.Decider("r:ops", "x:3:ops:bob")));
        return (limit == 0 ? b.countOnly() : b.page(0, limit)).build();
    }

    @Test
    void aWaitingForMeTotalReadsIndexesOnlyAndItsPageWalksTheListingIndex() {
        for (int limit : new int[] {20, 0}) {
            List<String> plan = explain(store.listing().listStatement(bob(limit)));
            String text = String.join("\n", plan);
            assertThat(plan).as(text).noneMatch(l -> l.startsWith("SCAN " + TABLE))
                    .contains("SEARCH " + TABLE + " USING COVERING INDEX " + TABLE + "_waiting (agent_id=? AND run_id=? AND version=? AND status=?)")
                    .anyMatch(l -> l.startsWith("SEARCH g USING COVERING INDEX " + TABLE + "_deciders_label (agent_id=?"))
                    .contains("SEARCH x USING COVERING INDEX " + TABLE + "_deciders_label (agent_id=? AND label=? AND run_id=? AND version=?)")
                    .noneMatch(l -> l.contains("USING INDEX sqlite_autoindex_" + TABLE + "_deciders"));
            if (limit == 20) {
                assertThat(plan).as(text).contains("SEARCH " + TABLE + " USING INDEX " + TABLE + "_list_agent (agent_id=?)")
                        .noneMatch(l -> l.contains("TEMP B-TREE FOR ORDER BY"));
            }
        }
        long expected = raw.withHandle(h -> h.createQuery("SELECT COUNT(*) FROM " + TABLE + " WHERE agent_id = 'agent-7'"
                + " AND status = 'SUSPENDED' AND deciders = '9:r:finance'").mapTo(Long.class).one());
        assertThat(expected).isEqualTo(63);   // 7 + 20k, k = 7, 23, ... (k % 16 = 7), k < 1,000
        var page = store.list(bob(20));
        assertThat(page.total()).isEqualTo(expected);
        assertThat(page.items()).hasSize(20).allSatisfy(r -> assertThat(r.deciders()).containsExactly("r:finance"));
        assertThat(store.list(bob(0)).total()).isEqualTo(expected);
    }
}
