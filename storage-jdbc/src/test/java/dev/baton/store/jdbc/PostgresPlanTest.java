package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunQuery;
import dev.baton.store.SnapshotStores;
import java.time.Instant;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * With 100,000 runs in the table, fresh statistics and a vacuumed heap, PostgreSQL answers the
 * statements the store really sends from its indexes: every listing page in listing order (no
 * sequential scan, no sort), every count from the index alone (an index-only scan that visits no
 * heap page), cursor pages and due runs as index ranges.
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
        drop();
        store = (JdbcSnapshotStore) SnapshotStores.open(url, Map.of("table", TABLE));
        // 100 agents x 1,000 runs; 200 threads and 50 resources per agent; a quarter claimed;
        // a tenth with a deadline; summaries on all but the oldest thousand (written by Baton 0.1)
        raw.useHandle(h -> h.execute("INSERT INTO " + TABLE + " (" + Schema.COLUMNS + ")"
                + " SELECT 'run-' || g, 'agent-' || (g % 100),"
                + "  CASE WHEN g % 4 = 0 THEN 'RESUMING' ELSE 'SUSPENDED' END,"
                + "  'thread-' || (g % 20000), 'user-' || (g % 5000),"
                + "  1700000000000 + g * 1000, 1700000000000 + g * 1000 + 5, 1,"
                + "  CASE WHEN g % 4 = 0 THEN 'instance-1' END,"
                + "  CASE WHEN g % 4 = 0 THEN 1900000000000 END,"
                + "  '{\"formatVersion\":1}',"
                + "  CASE WHEN g % 10 = 0 THEN 1700000000000 + g * 1000 + 3600000 END,"
                + "  CASE WHEN g > 1000 THEN '{\"calls\":[]}' END"
                + " FROM generate_series(1, 100000) AS g"));
        // thread memory: 50 resources x 2,000 threads; the first 1,000 threads have 100 messages each
        raw.useHandle(h -> h.execute("INSERT INTO " + TABLE + "_threads (id, resource_id, title, metadata, created_at,"
                + " updated_at, next_seq) SELECT 'thread-' || g, 'user-' || (g % 50), NULL, '{}', 1700000000000,"
                + " 1700000000000 + g * 1000, 100 FROM generate_series(1, 100000) AS g"));
        raw.useHandle(h -> h.execute("INSERT INTO " + TABLE + "_messages (thread_id, seq, run_id, run_index, role, content,"
                + " created_at) SELECT 'thread-' || (g / 100 + 1), g % 100 + 1, 'run-' || g, 0, 'user', '{\"text\":\"hi\"}',"
                + " 1700000000000 + g FROM generate_series(0, 99999) AS g"));
        // VACUUM marks the pages all-visible (what autovacuum does on a live table), so that an
        // index-only scan needs no heap page; it cannot run in a transaction block
        for (String t : new String[] {TABLE, TABLE + "_threads", TABLE + "_messages"}) {
            raw.useHandle(h -> h.execute("VACUUM ANALYZE " + t));
        }
    }

    @AfterAll
    static void dropTable() {
        if (store != null) store.close();
        if (raw != null) drop();
    }

    private static void drop() {
        raw.useHandle(h -> {
            for (String t : new String[] {TABLE, TABLE + "_schema_history", TABLE + "_threads", TABLE + "_messages"}) {
                h.execute("DROP TABLE IF EXISTS " + t);
            }
        });
    }

    /** The plan of {@code s}; with {@code analyze}, run, with the heap pages it fetched. */
    private static String plan(JdbcRunListing.Statement s, boolean analyze) {
        String explain = (analyze ? "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " : "EXPLAIN ") + s.sql();
        return raw.withHandle((Handle h) -> {
            var query = h.createQuery(explain);
            for (int i = 0; i < s.params().size(); i++) query.bind(i, s.params().get(i));
            return String.join("\n", query.mapTo(String.class).list());
        });
    }

    private static String plan(String sql, Object param) {
        return raw.withHandle((Handle h) -> String.join("\n", h.createQuery("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + sql)
                .bind(0, param).bind(1, param).mapTo(String.class).list()));
    }

    private static void assertInOrderFrom(String plan, String index) {
        assertThat(plan).as(plan).contains(TABLE + index + " ").doesNotContain("Seq Scan").doesNotContainIgnoringCase("Sort");
    }

    private static RunQuery.Builder agent7() {
        return RunQuery.forAgent("agent-7", NOW);
    }

    @Nested
    class Pages {

        @Test
        void theThreadFilteredPageAndItsTotalAreOneStatementOnTheThreadIndex() {
            RunQuery q = agent7().threadId("thread-107").page(0, 20).build();
            String plan = plan(store.listing().listStatement(q), false);
            assertInOrderFrom(plan, "_list_thread");
            assertThat(plan).contains("Nested Loop Left Join");
            assertThat(store.list(q).total()).isEqualTo(5);   // g = 107 + 20000k, k = 0..4, none claimed (g % 4 == 3)
        }

        @Test
        void everyFilterCombinationUsesItsIndex() {
            assertInOrderFrom(plan(store.listing().listStatement(agent7().page(40, 20).build()), false), "_list_agent");
            assertInOrderFrom(plan(store.listing().listStatement(agent7().resourceId("user-7").page(0, 20).build()), false),
                    "_list_resource");
            assertInOrderFrom(plan(store.listing().listStatement(agent7().threadId("thread-7").resourceId("user-7").page(0, 20).build()),
                    false), "_list_thread_resource");
            assertInOrderFrom(plan(store.listing().listStatement(agent7().threadId("thread-7")
                    .createdFrom(Instant.ofEpochMilli(1_700_000_000_000L)).createdTo(NOW).page(0, 20).build()), false),
                    "_list_thread");
            assertInOrderFrom(plan(store.listing().listStatement(agent7().status(null).page(0, 20).build()), false), "_list_agent");
        }

        @Test
        void aPageWithoutPayloadsIsPlannedLikeOneWithThem() {
            String plan = plan(store.listing().listStatement(agent7().threadId("thread-107").page(0, 20).withPayload(false).build()), false);
            assertInOrderFrom(plan, "_list_thread");
        }
    }

    @Nested
    class Counts {

        @Test
        void everyCountIsAnIndexOnlyScanThatVisitsNoHeapPage() {
            for (RunQuery q : new RunQuery[] {
                agent7().countOnly().build(),
                agent7().threadId("thread-107").countOnly().build(),
                agent7().resourceId("user-7").countOnly().build(),
                agent7().threadId("thread-7").resourceId("user-7").countOnly().build(),
                agent7().status(dev.baton.agent.RunStatus.RESUMING).countOnly().build()}) {
                String plan = plan(store.listing().countOnly(q), true);
                assertThat(plan).as(plan).contains("Index Only Scan using " + TABLE + "_list_").contains("Heap Fetches: 0")
                        .doesNotContain("Seq Scan").doesNotContain("Bitmap Heap Scan");
            }
        }

        @Test
        void theCountInsideAPageStatementIsIndexOnlyToo() {
            String plan = plan(store.listing().listStatement(agent7().page(0, 20).build()), true);
            // any listing index that leads with agent_id will do: they all cover the count
            assertThat(plan).as(plan).containsPattern("Aggregate.*\\n.*Index Only Scan using " + TABLE + "_list_")
                    .contains("Heap Fetches: 0");
        }
    }

    @Nested
    class Ranges {

        @Test
        void aCursorPageIsAnIndexRangeInListingOrder() {
            RunQuery q = agent7().threadId("thread-107")
                    .after(new RunQuery.After(Instant.ofEpochMilli(1_700_000_000_000L + 40_107 * 1000L), "run-40107"), 20).build();
            String plan = plan(store.listing().listStatement(q), false);
            assertInOrderFrom(plan, "_list_thread");
            assertThat(plan).containsPattern("Index Cond: .*created_at <= ");
            assertThat(store.list(q).items()).extracting(r -> r.runId()).containsExactly("run-20107", "run-107");
            String unfiltered = plan(store.listing().listStatement(agent7()
                    .after(new RunQuery.After(Instant.ofEpochMilli(1_700_000_000_000L + 50_007 * 1000L), "run-50007"), 20)
                    .build()), false);
            assertInOrderFrom(unfiltered, "_list_agent");
            assertThat(unfiltered).containsPattern("Index Cond: .*created_at <= ");
        }

        @Test
        void dueRunsAreAnIndexRangeOnTheDeadlineIndexSoonestFirst() {
            var due = store.listing().due("agent-10", Instant.ofEpochMilli(1_700_000_000_000L + 30_000 * 1000L), 50);
            String plan = plan(due, true);
            // an index range on the deadline; the planner may fetch it as a bitmap and pick the
            // soonest with a top-N sort of the due rows when it judges that cheaper than the order of the index
            assertThat(plan).as(plan).contains(TABLE + "_due ").containsPattern("Index Cond: .*expires_at <= ")
                    .doesNotContain("Seq Scan");
            // agent-10: g = 10, 110, ...; due if g % 10 == 0 and created + 1 h <= now, suspended unless g % 4 == 0
            var runs = store.listDue("agent-10", Instant.ofEpochMilli(1_700_000_000_000L + 30_000 * 1000L), 50);
            assertThat(runs).extracting(r -> r.runId()).startsWith("run-10", "run-110", "run-210", "run-310");
            assertThat(runs).hasSize(50).allSatisfy(r -> assertThat(r.payload())
                    .isEqualTo(r.summary() == null ? "{\"formatVersion\":1}" : ""));   // runs up to 1000 have no summary
        }
    }

    @Nested
    class Memory {

        private JdbcMemoryStore memory() {
            return (JdbcMemoryStore) store.memory().orElseThrow();
        }

        @Test
        void theLastMessagesOfAThreadAreAnIndexRangeReadBackwards() {
            String plan = raw.withHandle((Handle h) -> String.join("\n", h.createQuery("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) "
                    + memory().lastMessages(20)).bind(0, "thread-500").mapTo(String.class).list()));
            assertThat(plan).as(plan).contains("Index Scan Backward using " + TABLE + "_messages_pkey")
                    .contains("actual rows=20 ").doesNotContain("Seq Scan").doesNotContainIgnoringCase("Sort");
            assertThat(memory().lastMessages("thread-500", 20)).hasSize(20);
        }

        @Test
        void aPageOfMessagesWithItsTotalIsAnIndexRangeAndAnIndexOnlyCount() {
            String plan = plan(memory().messagesPage(40, 20), "thread-500");
            assertThat(plan).as(plan).contains("Index Scan using " + TABLE + "_messages_pkey")
                    // the count may use either index that leads with thread_id
                    .containsPattern("Index Only Scan using " + TABLE + "_messages_(pkey|run)").contains("Heap Fetches: 0")
                    .doesNotContain("Seq Scan").doesNotContainIgnoringCase("Sort");
            assertThat(memory().listMessages("thread-500", 40, 20).total()).isEqualTo(100);
        }

        @Test
        void aResourcesThreadsNewestFirstWithTheirTotalAreAnIndexRange() {
            String plan = plan(memory().threadsPage(0, 10), "user-7");
            assertThat(plan).as(plan).contains(TABLE + "_threads_resource").contains("Index Only Scan using " + TABLE
                    + "_threads_resource").doesNotContain("Seq Scan").doesNotContainIgnoringCase("Sort");
            assertThat(memory().listThreads("user-7", 0, 10).total()).isEqualTo(2000);
        }
    }
}
