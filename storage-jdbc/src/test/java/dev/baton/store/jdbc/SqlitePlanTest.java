package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.SnapshotStores;
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
@DatabaseLane("SQLite")
class SqlitePlanTest {
    private static final String TABLE = "baton_plan_sqlite";
    private static JdbcSnapshotStore store;
    private static Jdbi raw;

    @BeforeAll
    static void seed() {
        String url = TestDatabases.sqliteUrl();
        raw = Jdbi.create(url);
        TestDatabases.dropTables(raw, TABLE);
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
            PlanFixture.insertLabelRows(h, TABLE);
        });
    }

    @AfterAll
    static void close() {
        if (store != null) store.close();
        TestDatabases.dropTables(raw, TABLE);
    }

    /** EXPLAIN QUERY PLAN's lines of {@code s}. */
    private static List<String> explain(JdbcRunListing.Statement s) {
        return raw.withHandle(h -> {
            var query = h.createQuery("EXPLAIN QUERY PLAN " + s.sql());
            JdbcAccess.bindAll(query, s.params());
            return query.map((rs, ctx) -> rs.getString("detail")).list();
        });
    }

    @Test
    void aWaitingForMeTotalReadsIndexesOnlyAndItsPageWalksTheListingIndex() {
        for (int limit : new int[] {20, 0}) {
            List<String> plan = explain(store.listing().listStatement(PlanFixture.bob("agent-7", limit)));
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
        PlanFixture.assertBobsListingOfAgent7(store, raw, TABLE);
    }
}
