package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.SnapshotStores;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the MySQL/MariaDB store promises about the plan of the "waiting for me" listing (migration V009), on 20,000
 * runs of 20 agents, a quarter of them with decider labels: the total is driven by the label index (the agent's
 * label rows of the asked labels, one range) and checks each run's version in the runs table's waiting index alone
 * ("Using index": no clustered row read, the rows are 2.6 KB in the benchmark); the page walks the agent's listing
 * index in listing order, without sorting. Before V009 the total read the clustered row of each of the agent's runs
 * for its version and status (2.5 s at 1,000,000 runs). A regression of the plan fails here.
 */
@DatabaseLane("MariaDB")
class MariaDbPlanTest {
    private static final String TABLE = "baton_plan_maria";
    private static JdbcSnapshotStore store;
    private static Jdbi raw;

    @BeforeAll
    static void seed() {
        String url = TestDatabases.mariadbUrl();
        raw = Jdbi.create(url);
        TestDatabases.dropTables(raw, TABLE);
        store = (JdbcSnapshotStore) SnapshotStores.open(url, Map.of("table", TABLE));
        raw.useHandle(h -> {
            // 20 agents x 1,000 runs; every fourth run of each agent with labels (finance's, or ops' with bob excluded),
            // every eighth claimed (RESUMING, its labels kept in the column, its label rows at the older version)
            h.execute("INSERT INTO " + TABLE + " (" + Schema.COLUMNS + ")"
                    + " WITH RECURSIVE d(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n < 199),"   // recursion stops at 1,000
                    + " s(g) AS (SELECT a.n * 100 + b.n + 1 FROM d a, d b WHERE b.n < 100)"
                    + " SELECT CONCAT('run-', g), CONCAT('agent-', g % 20),"
                    + "  CASE WHEN (g DIV 20) % 8 = 3 THEN 'RESUMING' ELSE 'SUSPENDED' END, CONCAT('thread-', g % 2000), NULL,"
                    + "  1700000000000 + g * 1000, 1700000000000 + g * 1000 + 5, CASE WHEN (g DIV 20) % 8 = 3 THEN 2 ELSE 1 END,"
                    + "  CASE WHEN (g DIV 20) % 8 = 3 THEN 'instance-1' END, CASE WHEN (g DIV 20) % 8 = 3 THEN 1900000000000 END,"
                    + "  '{\"formatVersion\":2}', NULL, '{\"calls\":[]}', NULL, NULL,"
                    + "  CASE WHEN (g DIV 20) % 4 <> 3 THEN NULL WHEN (g DIV 20) % 16 < 8 THEN '9:r:finance' ELSE '5:r:ops10:x:3:ops:bob' END"
                    + " FROM s");
            PlanFixture.insertLabelRows(h, TABLE);
            h.execute("ANALYZE TABLE " + TABLE + ", " + TABLE + "_deciders");
        });
    }

    @AfterAll
    static void close() {
        if (store != null) store.close();
        TestDatabases.dropTables(raw, TABLE);
    }

    /** EXPLAIN's rows of {@code s}: table, select_type, type, key, Extra. */
    private static List<Map<String, Object>> explain(JdbcRunListing.Statement s) {
        return raw.withHandle(h -> {
            var query = h.createQuery("EXPLAIN " + s.sql());
            JdbcAccess.bindAll(query, s.params());
            return query.mapToMap().list();
        });
    }

    private static String text(List<Map<String, Object>> plan) {
        return plan.stream().map(r -> r.get("select_type") + " " + r.get("table") + " " + r.get("type") + " key=" + r.get("key")
                + " " + r.get("extra")).collect(Collectors.joining("\n", "EXPLAIN:\n", ""));
    }

    @Test
    void aWaitingForMeTotalIsDrivenByTheLabelIndexAndReadsNoRunRowAndItsPageReadsOnlyTheAgentsEntries() {
        for (Integer limit : new Integer[] {20, 0}) {
            var plan = explain(store.listing().listStatement(PlanFixture.bob("agent-7", limit)));
            String text = text(plan);
            assertThat(plan).as(text).noneMatch(r -> "ALL".equals(r.get("type")) && !String.valueOf(r.get("table")).startsWith("<derived"));
            assertThat(plan).as(text).anySatisfy(r -> {
                assertThat(r.get("table")).isEqualTo("g");
                assertThat(r.get("key")).isEqualTo(TABLE + "_deciders_label");
                assertThat(String.valueOf(r.get("extra"))).contains("Using index");
            });
            // the count's rows of the runs table: the waiting index alone, entered on (agent_id, run_id, waiting_version)
            var counted = plan.stream().filter(r -> TABLE.equals(r.get("table")) && !"PRIMARY".equals(r.get("select_type"))
                    || limit == 0 && TABLE.equals(r.get("table"))).toList();
            assertThat(counted).as(text).isNotEmpty().allSatisfy(r -> {
                assertThat(r.get("key")).isEqualTo(TABLE + "_waiting");
                assertThat(String.valueOf(r.get("extra"))).contains("Using index");
                assertThat(String.valueOf(r.get("ref"))).contains("const").contains("run_id").contains("version");
            });
            if (limit == 20) {
                // MariaDB 10.11 walks the agent's listing index in order and stops when the page is full; 11.x's cost model
                // (the embedded server of a machine without a URL) drives the page from the agent's label entries, a range
                // as bounded as the total's, then reads each matching run by its primary key and sorts those: either way
                // only the agent's entries are read, never a scan
                var page = plan.stream().filter(r -> TABLE.equals(r.get("table")) && "PRIMARY".equals(r.get("select_type"))).toList();
                assertThat(page).as(text).singleElement().satisfies(r -> {
                    if ((TABLE + "_list_agent").equals(r.get("key"))) {
                        assertThat(String.valueOf(r.get("extra"))).doesNotContain("filesort").doesNotContain("temporary");
                    } else {
                        assertThat(r.get("key")).isEqualTo("PRIMARY");
                        assertThat(r.get("type")).isEqualTo("eq_ref");
                        assertThat(plan).anySatisfy(g -> {
                            assertThat(g.get("select_type")).isEqualTo("PRIMARY");
                            assertThat(g.get("table")).isEqualTo("g");
                            assertThat(g.get("type")).isEqualTo("range");
                            assertThat(g.get("key")).isEqualTo(TABLE + "_deciders_label");
                        });
                    }
                });
            }
        }
        // and it counts what the rule says
        PlanFixture.assertBobsListingOfAgent7(store, raw, TABLE);
    }
}
