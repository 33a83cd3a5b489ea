package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunQuery;
import dev.baton.store.SnapshotStores;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With 100,000 runs in the table and fresh statistics, PostgreSQL answers every listing from an
 * index in listing order: no sequential scan of the table, no sort.
 */
class PostgresPlanTest {
    private static final String TABLE = "baton_plan";
    private static final Instant NOW = Instant.ofEpochMilli(1_800_000_000_000L);
    private static JdbcSnapshotStore store;
    private static Jdbi raw;

    @BeforeAll
    static void seed() {
        String url = TestDatabases.postgresUrl();
        raw = Jdbi.create(url);
        raw.useHandle(h -> {
            h.execute("DROP TABLE IF EXISTS " + TABLE);
            h.execute("DROP TABLE IF EXISTS " + TABLE + "_schema_history");
        });
        store = (JdbcSnapshotStore) SnapshotStores.open(url, Map.of("table", TABLE));
        // 100 agents x 1,000 runs; 200 threads and 50 resources per agent; a quarter claimed
        raw.useHandle(h -> h.execute("INSERT INTO " + TABLE + " (" + Schema.COLUMNS + ")"
                + " SELECT 'run-' || g, 'agent-' || (g % 100),"
                + "  CASE WHEN g % 4 = 0 THEN 'RESUMING' ELSE 'SUSPENDED' END,"
                + "  'thread-' || (g % 20000), 'user-' || (g % 5000),"
                + "  1700000000000 + g * 1000, 1700000000000 + g * 1000 + 5, 1,"
                + "  CASE WHEN g % 4 = 0 THEN 'instance-1' END,"
                + "  CASE WHEN g % 4 = 0 THEN 1900000000000 END,"
                + "  '{\"formatVersion\":1}'"
                + " FROM generate_series(1, 100000) AS g"));
        raw.useHandle(h -> h.execute("ANALYZE " + TABLE));
    }

    @AfterAll
    static void dropTable() {
        if (store != null) store.close();
        if (raw != null) {
            raw.useHandle(h -> {
                h.execute("DROP TABLE IF EXISTS " + TABLE);
                h.execute("DROP TABLE IF EXISTS " + TABLE + "_schema_history");
            });
        }
    }

    private static String plan(RunQuery q, boolean count) {
        String sql = store.listSql(q);
        if (count) sql = "SELECT COUNT(*) FROM " + TABLE + sql.substring(sql.indexOf(" WHERE "), sql.indexOf(" ORDER BY "));
        String explain = "EXPLAIN " + sql;
        List<Object> params = store.listParameters(q);
        return raw.withHandle((Handle h) -> {
            var query = h.createQuery(explain);
            for (int i = 0; i < params.size(); i++) query.bind(i, params.get(i));
            return String.join("\n", query.mapTo(String.class).list());
        });
    }

    private static void assertIndexOnly(String plan, String index) {
        System.out.println(plan);
        assertThat(plan).as(plan).contains(index).doesNotContain("Seq Scan").doesNotContainIgnoringCase("Sort ");
    }

    @Test
    void theThreadFilteredPageUsesTheAgentThreadIndex() {
        RunQuery q = RunQuery.forAgent("agent-7", NOW).threadId("thread-107").page(0, 20).build();
        assertIndexOnly(plan(q, false), TABLE + "_agent_thread ");
        assertThat(store.list(q).total()).isEqualTo(5);   // g = 107 + 20000k, k = 0..4, none claimed (g % 4 == 3)
        assertThat(plan(q, true)).doesNotContain("Seq Scan");
    }

    @Test
    void everyFilterCombinationUsesItsIndex() {
        assertIndexOnly(plan(RunQuery.forAgent("agent-7", NOW).page(40, 20).build(), false), TABLE + "_agent ");
        assertIndexOnly(plan(RunQuery.forAgent("agent-7", NOW).resourceId("user-7").page(0, 20).build(), false),
                TABLE + "_agent_resource ");
        assertIndexOnly(plan(RunQuery.forAgent("agent-7", NOW).threadId("thread-7").resourceId("user-7")
                .page(0, 20).build(), false), TABLE + "_agent_thread_resource ");
        assertIndexOnly(plan(RunQuery.forAgent("agent-7", NOW).threadId("thread-7")
                .createdFrom(Instant.ofEpochMilli(1_700_000_000_000L)).createdTo(NOW).page(0, 20).build(), false),
                TABLE + "_agent_thread ");
        assertThat(plan(RunQuery.forAgent("agent-7", NOW).countOnly().build(), true)).doesNotContain("Seq Scan");
    }
}
