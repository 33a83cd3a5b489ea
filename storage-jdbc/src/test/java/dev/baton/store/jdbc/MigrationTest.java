package dev.baton.store.jdbc;

import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.SnapshotFormatException;
import dev.baton.StorageException;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Versioned migrations, schema modes and the printed DDL. */
class MigrationTest {

    static Stream<String> databases() {
        return TestDatabases.names();
    }

    private static String freshTable() {
        return "baton_mig_" + uniqueId("t").substring(2, 10).replace('-', '_').toLowerCase(Locale.ROOT);
    }

    /** Every migration's version, in order. */
    private static final List<Integer> ALL = Schema.MIGRATIONS.stream().map(Schema.Migration::version).toList();

    /** Drops {@code table} and the tables that go with it. */
    private static void drop(String url, String table) {
        TestDatabases.dropTables(Jdbi.create(url), table);
    }

    /** Runs the statements of {@code migrations} by hand, as a user who manages the schema would, recording them in the history table. */
    private static void applyByHand(String url, String table, int... migrations) {
        JdbcDialect dialect = JdbcDialect.forUrl(url).orElseThrow();
        Jdbi.create(url).useHandle(h -> {
            h.execute("CREATE TABLE IF NOT EXISTS " + table + "_schema_history (version INTEGER NOT NULL PRIMARY KEY,"
                    + " description VARCHAR(200) NOT NULL, installed_at BIGINT NOT NULL)");
            for (int v : migrations) {
                Schema.Migration m = Schema.MIGRATIONS.stream().filter(x -> x.version() == v).findFirst().orElseThrow();
                for (String stmt : Schema.statements(dialect, table, m)) h.execute(stmt);
                h.execute("INSERT INTO " + table + "_schema_history (version, description, installed_at) VALUES (?, ?, 0)",
                        m.version(), m.description());
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void eightInstancesStartingAtOnceCreateTheTableOnce(String db) throws Exception {
        String url = TestDatabases.url(db);
        String table = freshTable();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<SnapshotStore> stores = new ArrayList<>();
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<SnapshotStore>> fs = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                fs.add(pool.submit(() -> {
                    start.await();
                    return SnapshotStores.open(url, Map.of("table", table, "poolSize", "2"));
                }));
            }
            start.countDown();
            for (Future<SnapshotStore> f : fs) stores.add(f.get(60, TimeUnit.SECONDS));
            assertEveryMigrationRecorded(url, table);
            assertInsertsAndFinds(stores.get(0), stores.get(7), suspended(uniqueId("mig-agent"), uniqueId("run"), "t", "r", 0));
        } finally {
            pool.shutdownNow();
            stores.forEach(SnapshotStore::close);
            drop(url, table);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void validateFailsOnAMissingTableAndPassesOnceItExists(String db) throws Exception {
        inAFreshTable(db, (url, table) -> {
            assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("table", table, "schemaMode", "validate")))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(table)
                    .hasMessageContaining("schemaMode=validate");
            // what a Flyway user does: run the printed DDL themselves
            JdbcDialect dialect = JdbcDialect.forUrl(url).orElseThrow();
            Jdbi.create(url).useHandle(h -> {
                for (String stmt : JdbcSnapshotStore.ddl(dialect, table).split(";\n")) {
                    String sql = stmt.lines().filter(l -> !l.strip().startsWith("--")).reduce("", (a, b) -> a + b + "\n");
                    if (!sql.isBlank()) h.execute(sql);
                }
            });
            try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", table, "schemaMode", "validate"))) {
                assertInsertsAndFinds(store, store, suspended(uniqueId("mig-agent"), uniqueId("run"), null, null, 0));
            }
        });
    }

    /**
     * The migrations after the first only add (columns, indexes, tables): a table of the first
     * schema keeps its rows. The summary every run has since then is a column the first schema
     * lacks, so such a row (never written by a released Baton) is named, not guessed at.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anUpgradeFromTheFirstSchemaKeepsEveryRowAndNamesARowWithoutASummary(String db) throws Exception {
        inAFreshTable(db, (url, table) -> {
            applyByHand(url, table, 1);   // the first schema only
            RunSnapshot old = suspended(uniqueId("mig-agent"), uniqueId("run"), "t", "r", 0);
            JdbcDialect dialect = JdbcDialect.forUrl(url).orElseThrow();
            insertByHand(url, table, old, "", "");
            try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", table))) {
                assertThatThrownBy(() -> store.find(old.runId()))
                        .isInstanceOf(SnapshotFormatException.class)
                        .hasMessageContaining(old.runId()).hasMessageContaining("summary");
                String payload = Jdbi.create(url).withHandle(h -> h.createQuery("SELECT payload FROM " + table + " WHERE run_id = ?")
                        .bind(0, id(dialect, old.runId())).mapTo(String.class).one());
                assertThat(payload).as("the row as it was").isEqualTo(old.payload());
                assertInsertsAndFinds(store, store, suspended(old.agentId(), uniqueId("run"), "t", "r", 1));
                assertThat(store.memory()).isPresent();
            }
            assertEveryMigrationRecorded(url, table);
        });
    }

    /**
     * MySQL's DDL is not transactional and SQLite cannot say ADD COLUMN IF NOT EXISTS: a migration
     * that stopped after some of its statements must complete on the next start, on every database.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aMigrationThatStoppedHalfWayCompletesOnTheNextStart(String db) throws Exception {
        inAFreshTable(db, (url, table) -> {
            applyByHand(url, table, 1);
            JdbcDialect dialect = JdbcDialect.forUrl(url).orElseThrow();
            List<String> v2 = Schema.statements(dialect, table, Schema.MIGRATIONS.get(1));
            Jdbi.create(url).useHandle(h -> {
                // the columns and the first two new indexes, then the process died
                for (String stmt : v2.subList(0, dialect == JdbcDialect.MYSQL ? 5 : 4)) h.execute(stmt);
            });
            try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", table))) {
                assertInsertsAndFinds(store, store, suspended(uniqueId("mig-agent"), uniqueId("run"), "t", "r", 0));
            }
            assertEveryMigrationRecorded(url, table);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void validateNamesATableOfTheLaterMigrationsThatIsMissing(String db) throws Exception {
        inAFreshTable(db, (url, table) -> {
            applyByHand(url, table, 1);   // the first schema only
            assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("table", table, "schemaMode", "validate")))
                    .isInstanceOf(StorageException.class).hasMessageContaining("table " + table + " ")
                    .hasMessageContaining("summary");
            applyByHand(url, table, 2);
            assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("table", table, "schemaMode", "validate")))
                    .isInstanceOf(StorageException.class).hasMessageContaining("table " + table + " ")
                    .hasMessageContaining("notify_at");
            applyByHand(url, table, 4, 5);
            assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("table", table, "schemaMode", "validate")))
                    .isInstanceOf(StorageException.class).hasMessageContaining("table " + table + " ")
                    .hasMessageContaining("deciders");
            applyByHand(url, table, 7);
            if (JdbcDialect.forUrl(url).orElseThrow() == JdbcDialect.MYSQL) {
                assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("table", table, "schemaMode", "validate")))
                        .isInstanceOf(StorageException.class).hasMessageContaining("table " + table + " ")
                        .hasMessageContaining("waiting_version");
            }
            applyByHand(url, table, 8, 9);   // the later migrations of the runs table, not V006 of the memory tables
            assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("table", table, "schemaMode", "validate")))
                    .isInstanceOf(StorageException.class).hasMessageContaining(table + "_threads");
            applyByHand(url, table, 3);
            try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", table, "schemaMode", "validate"))) {
                assertThat(store.memory()).isPresent();
            }
        });
    }

    /**
     * V005 adds the notification columns and their index to a table of the third schema: its rows are
     * read with no notification due, and a notification written after the upgrade is found and moved.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anUpgradeToTheNotificationsSchemaKeepsEveryRowWithNothingDue(String db) throws Exception {
        inAFreshTable(db, (url, table) -> {
            applyByHand(url, table, 1, 2, 3);   // the schema before notifications
            RunSnapshot old = suspended(uniqueId("mig-agent"), uniqueId("run"), "t", "r", 0);
            insertByHand(url, table, old, ", expires_at, summary", ", NULL, ?", old.summary());
            try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", table))) {
                assertThat(store.find(old.runId())).contains(old);
                assertThat(old.notifyAt()).isNull();
                assertThat(store.listNotificationsDue(old.agentId(), old.createdAt().plusSeconds(86_400), 10)).isEmpty();
                RunSnapshot next = old.toBuilder().version(2).notification(old.suspendedAt(), "{\"event\":\"SUSPENDED\"}").build();
                assertThat(store.compareAndSet(1, next)).isTrue();
                assertThat(store.listNotificationsDue(old.agentId(), old.suspendedAt(), 10)).containsExactly(
                        next.toBuilder().payload("").build());
                assertThat(store.updateNotification(old.runId(), 2, old.suspendedAt(), null, null)).isTrue();
                assertThat(store.find(old.runId())).contains(next.toBuilder().notification(null, null).build());
            }
            assertEveryMigrationRecorded(url, table);
        });
    }

    /**
     * V006 widens the memory tables' keys for thread ids scoped by resource: a thread and its messages
     * stored before it under the bare thread id are kept, and core still finds them as their resource's
     * thread; the longest key (two ids of 255 characters and the separator) is stored after it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anUpgradeToThreadKeysKeepsEveryThreadAndStoresTheLongestKey(String db) throws Exception {
        inAFreshTable(db, (url, table) -> {
            applyByHand(url, table, 1, 2, 3, 4, 5);   // the schema before thread keys
            java.time.Instant at = java.time.Instant.parse("2026-05-01T08:00:00Z");
            try (SnapshotStore before = SnapshotStores.open(url, Map.of("table", table, "schemaMode", "none"))) {
                dev.baton.store.MemoryStore m = before.memory().orElseThrow();
                assertThat(m.createThread(dev.baton.store.MemoryThread.builder().id("trip").resourceId("alice").title("old")
                        .createdAt(at).updatedAt(at).build())).isTrue();
                assertThat(m.append("trip", List.of(dev.baton.store.StoredMessage.New.builder().runId("r1").runIndex(0)
                        .role(dev.baton.model.Role.USER).content("{\"role\":\"user\",\"text\":\"hi\"}").build()), at)).isTrue();
            }
            try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", table))) {
                dev.baton.memory.Memory memory = dev.baton.memory.Memory.builder().store(store).build();
                assertThat(memory.findThread("alice", "trip").orElseThrow().title()).as("the thread stored before V006").isEqualTo("old");
                assertThat(memory.listMessages("alice", "trip", 10, 0).total()).as("its messages").isEqualTo(1);
                String longest = "r".repeat(255);
                String thread = "t".repeat(255);
                assertThat(memory.createThread(thread, longest, "longest", null).id()).isEqualTo(thread);
                assertThat(store.memory().orElseThrow().findThread(longest + "\u001F" + thread)).as("the longest key").isPresent();
            }
            assertEveryMigrationRecorded(url, table);
        });
    }

    private static Object id(JdbcDialect dialect, String id) {
        return dialect == JdbcDialect.MYSQL ? id.getBytes(StandardCharsets.UTF_8) : id;
    }

    /**
     * Writes {@code old} (version 1, thread "t", resource "r", no lease) as a row of an older schema would hold
     * it: the first schema's columns, then {@code moreColumns} (", a, b") with {@code moreValues} (", NULL, ?")
     * bound to {@code moreBinds}.
     */
    private static void insertByHand(String url, String table, RunSnapshot old, String moreColumns, String moreValues,
            Object... moreBinds) {
        JdbcDialect dialect = JdbcDialect.forUrl(url).orElseThrow();
        Jdbi.create(url).useHandle(h -> {
            var u = h.createUpdate("INSERT INTO " + table + " (run_id, agent_id, status, thread_id, resource_id, created_at,"
                    + " suspended_at, version, lease_owner, lease_expires_at, payload" + moreColumns + ")"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?" + moreValues + ")");
            List<Object> values = new ArrayList<>(List.of(id(dialect, old.runId()), id(dialect, old.agentId()), "SUSPENDED",
                    id(dialect, "t"), id(dialect, "r"), old.createdAt().toEpochMilli(), old.suspendedAt().toEpochMilli(), 1L,
                    old.payload()));
            values.addAll(java.util.Arrays.asList(moreBinds));
            for (int i = 0; i < values.size(); i++) u.bind(i, values.get(i));
            u.execute();
        });
    }

    /** A test's body, given the database's url and a table of its own. */
    @FunctionalInterface
    private interface InATable {
        void run(String url, String table) throws Exception;
    }

    /** Runs {@code body} on a fresh table of database {@code db}, dropping the table (and its companions) afterwards. */
    private static void inAFreshTable(String db, InATable body) throws Exception {
        String url = TestDatabases.url(db);
        String table = freshTable();
        try {
            body.run(url, table);
        } finally {
            drop(url, table);
        }
    }

    /**
     * V007 adds the decider labels (PostgreSQL: a column and its GIN index; the others: a column and the side table
     * {@code <table>_deciders}) to a table of the sixth schema: a run stored before it reads back without labels and
     * matches no deciders filter; written again with labels, it is found by them, and deleting it takes its label
     * rows along.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anUpgradeToTheDecidersSchemaKeepsEveryRowAndFiltersOnLabelsWrittenAfterIt(String db) throws Exception {
        inAFreshTable(db, (url, table) -> {
            applyByHand(url, table, 1, 2, 3, 4, 5, 6);   // the schema before decider labels
            RunSnapshot old = suspended(uniqueId("mig-agent"), uniqueId("run"), "t", "r", 0);
            try (SnapshotStore before = SnapshotStores.open(url, Map.of("table", table, "schemaMode", "none"))) {
                // a store of the sixth schema writes no deciders column: the row as an earlier release left it
                insertByHand(url, table, old, ", expires_at, summary", ", NULL, ?", old.summary());
            }
            List<dev.baton.store.RunQuery.Decider> admins = List.of(new dev.baton.store.RunQuery.Decider("r:admin", "x:admin:bob"));
            dev.baton.store.RunQuery q = dev.baton.store.RunQuery.forAgent(old.agentId(), old.createdAt().plusSeconds(60))
                    .deciders(admins).build();
            try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", table))) {
                assertThat(store.queryFeatures()).contains(dev.baton.store.QueryFeature.DECIDERS);
                assertThat(store.find(old.runId())).contains(old);
                assertThat(old.deciders()).isEmpty();
                assertThat(store.list(q).total()).isZero();
                RunSnapshot next = old.suspended(old.suspendedAt().plusSeconds(1), old.payload(), null, old.summary(), List.of("r:admin"));
                assertThat(store.compareAndSet(1, next)).isTrue();
                assertThat(store.list(q).items()).containsExactly(next);
                assertThat(store.delete(old.runId(), 2)).isTrue();
                assertThat(store.list(q).total()).isZero();
                assertThat(store.insert(old)).as("the id is free again, label rows included").isTrue();
                assertThat(store.list(q).total()).isZero();
            }
            if (JdbcDialect.forUrl(url).orElseThrow() != JdbcDialect.POSTGRESQL) {
                int rows = Jdbi.create(url).withHandle(h -> h.createQuery("SELECT COUNT(*) FROM " + table + "_deciders")
                        .mapTo(Integer.class).one());
                assertThat(rows).as("label rows of the deleted run").isZero();
            }
            assertEveryMigrationRecorded(url, table);
        });
    }


    /**
     * V008 qualifies PostgreSQL's decider labels by the run's agent, so that the GIN index yields one agent's runs
     * (elsewhere it has no statement). A run whose labels a store of the seventh schema wrote reads back with them,
     * unqualified, and is found by them, apart from another agent's run with the same labels; on PostgreSQL the
     * column then holds {@code <length of agent_id>:<agent_id><label>}, the length in characters as the store counts
     * them (an agent id with a character beyond the BMP), and the migration run a second time changes nothing.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anUpgradeToLabelsQualifiedByTheAgentKeepsEveryRunsLabelsAndItsMatches(String db) throws Exception {
        inAFreshTable(db, (url, table) -> {
            applyByHand(url, table, 1, 2, 3, 4, 5, 6, 7);   // the schema before V008
            JdbcDialect dialect = JdbcDialect.forUrl(url).orElseThrow();
            String agent = uniqueId("mig-agent-\uD83D\uDE00");
            RunSnapshot old = suspended(agent, uniqueId("run"), "t", "r", 0).toBuilder()
                    .deciders(List.of("r:admin", "x:admin:bob")).build();
            if (dialect == JdbcDialect.POSTGRESQL) {
                // the seventh schema's store wrote the labels as they are
                insertByHand(url, table, old, ", expires_at, summary, deciders", ", NULL, ?, CAST(? AS TEXT[])", old.summary(),
                        "{r:admin,x:admin:bob}");
            } else {
                try (SnapshotStore before = SnapshotStores.open(url, Map.of("table", table, "schemaMode", "none"))) {
                    assertThat(before.insert(old)).isTrue();   // as the seventh schema's store wrote it: V008 changes nothing here
                }
            }
            dev.baton.store.RunQuery alice = dev.baton.store.RunQuery.forAgent(agent, old.createdAt().plusSeconds(60))
                    .deciders(List.of(new dev.baton.store.RunQuery.Decider("r:admin", "x:admin:alice"))).build();
            dev.baton.store.RunQuery bob = dev.baton.store.RunQuery.forAgent(agent, old.createdAt().plusSeconds(60))
                    .deciders(List.of(new dev.baton.store.RunQuery.Decider("r:admin", "x:admin:bob"))).build();
            try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", table))) {
                assertThat(store.find(old.runId())).contains(old);
                assertThat(store.list(alice).items()).containsExactly(old);
                assertThat(store.list(bob).total()).isZero();
                RunSnapshot other = suspended(uniqueId("mig-other"), uniqueId("run"), "t", "r", 1).toBuilder()
                        .deciders(old.deciders()).build();
                assertThat(store.insert(other)).isTrue();
                assertThat(store.list(alice).items()).as("not another agent's run with the same labels").containsExactly(old);
                assertThat(store.find(other.runId())).contains(other);
            }
            if (dialect == JdbcDialect.POSTGRESQL) {
                String qualifier = agent.codePointCount(0, agent.length()) + ":" + agent;
                List<String> expected = List.of(qualifier + "r:admin", qualifier + "x:admin:bob");
                assertThat(storedLabels(url, table, old.runId())).isEqualTo(expected);
                Jdbi.create(url).useHandle(h -> {
                    for (String stmt : Schema.statements(dialect, table, Schema.MIGRATIONS.get(7))) h.execute(stmt);
                });
                assertThat(storedLabels(url, table, old.runId())).as("V008 again").isEqualTo(expected);
            }
            assertEveryMigrationRecorded(url, table);
        });
    }

    /**
     * V009 adds the indexes of the "waiting for me" total (PostgreSQL: the partial index {@code <table>_list_waiting};
     * MySQL/MariaDB: the virtual column {@code waiting_version} and its index {@code <table>_waiting}; SQLite: the
     * partial index {@code <table>_waiting}; H2: nothing). A labelled run a store of the eighth schema wrote is listed
     * after it, a claim takes it out of the listing and a decision that suspends it again puts it back; the
     * migration run a second time changes nothing.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anUpgradeToTheWaitingForMeIndexesListsTheRunsWrittenBeforeIt(String db) throws Exception {
        inAFreshTable(db, (url, table) -> {
            applyByHand(url, table, 1, 2, 3, 4, 5, 6, 7, 8);   // the schema before V009
            JdbcDialect dialect = JdbcDialect.forUrl(url).orElseThrow();
            String agent = uniqueId("mig-agent");
            RunSnapshot old = suspended(agent, uniqueId("run"), "t", "r", 0).toBuilder()
                    .deciders(List.of("r:admin", "x:admin:bob")).build();
            RunSnapshot bare = suspended(agent, uniqueId("run"), "t", "r", 1);
            try (SnapshotStore before = SnapshotStores.open(url, Map.of("table", table, "schemaMode", "none"))) {
                assertThat(before.insert(old)).isTrue();   // the eighth schema's writes are this release's writes
                assertThat(before.insert(bare)).isTrue();
            }
            dev.baton.store.RunQuery alice = dev.baton.store.RunQuery.forAgent(agent, old.createdAt().plusSeconds(60))
                    .deciders(List.of(new dev.baton.store.RunQuery.Decider("r:admin", "x:admin:alice"))).page(0, 20).build();
            dev.baton.store.RunQuery bob = dev.baton.store.RunQuery.forAgent(agent, old.createdAt().plusSeconds(60))
                    .deciders(List.of(new dev.baton.store.RunQuery.Decider("r:admin", "x:admin:bob"))).page(0, 20).build();
            try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", table))) {
                assertThat(store.list(alice).items()).containsExactly(old);
                assertThat(store.list(alice).total()).isEqualTo(1);
                assertThat(store.list(bob).total()).isZero();
                RunSnapshot claimed = old.claimed("instance-1", old.createdAt().plusSeconds(3600), old.payload());
                assertThat(store.compareAndSet(1, claimed)).isTrue();
                assertThat(store.list(alice).total()).as("claimed: waits for no one").isZero();
                RunSnapshot again = claimed.suspended(old.createdAt().plusSeconds(2), old.payload(), null, old.summary(),
                        List.of("r:admin"));
                assertThat(store.compareAndSet(2, again)).isTrue();
                assertThat(store.list(alice).items()).containsExactly(again);
                assertThat(store.list(bob).items()).as("bob's exclusion was dropped").containsExactly(again);
            }
            Jdbi.create(url).useHandle(h -> {
                for (String stmt : Schema.statements(dialect, table, Schema.MIGRATIONS.get(8))) {
                    try {
                        h.execute(stmt);
                    } catch (org.jdbi.v3.core.statement.StatementException e) {
                        // MySQL's and SQLite's "already exists", as the migration runner accepts it
                        if (!(e.getCause() instanceof java.sql.SQLException se) || !dialect.isAlreadyApplied(se)) throw e;
                    }
                }
            });
            if (dialect != JdbcDialect.H2) {
                String index = dialect == JdbcDialect.POSTGRESQL ? table + "_list_waiting" : table + "_waiting";
                String sql = switch (dialect) {
                    case POSTGRESQL -> "SELECT COUNT(*) FROM pg_indexes WHERE indexname = ?";
                    case MYSQL -> "SELECT COUNT(DISTINCT index_name) FROM information_schema.statistics WHERE table_schema = DATABASE()"
                            + " AND index_name = ?";
                    default -> "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = ?";
                };
                int found = Jdbi.create(url).withHandle(h -> h.createQuery(sql).bind(0, index).mapTo(Integer.class).one());
                assertThat(found).as(index).isEqualTo(1);
            }
            try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", table))) {
                assertThat(store.list(alice).total()).as("V009 again").isEqualTo(1);
            }
            assertEveryMigrationRecorded(url, table);
        });
    }

    /** PostgreSQL: the {@code deciders} column of run {@code runId} as stored, in order. */
    private static List<String> storedLabels(String url, String table, String runId) {
        return Jdbi.create(url).withHandle(h -> h.createQuery("SELECT d FROM " + table + ", unnest(deciders) WITH ORDINALITY AS u(d, n)"
                + " WHERE run_id = ? ORDER BY n").bind(0, runId).mapTo(String.class).list());
    }

    /** Every migration is in the history table, each once. */
    private static void assertEveryMigrationRecorded(String url, String table) {
        List<Integer> versions = Jdbi.create(url).withHandle(h ->
                h.createQuery("SELECT version FROM " + table + "_schema_history ORDER BY version").mapTo(Integer.class).list());
        assertThat(versions).containsExactlyInAnyOrderElementsOf(ALL);
    }

    /** {@code s} is inserted through {@code writer} and then found, as written, through {@code reader}. */
    private static void assertInsertsAndFinds(SnapshotStore writer, SnapshotStore reader, RunSnapshot s) {
        assertThat(writer.insert(s)).isTrue();
        assertThat(reader.find(s.runId())).contains(s);
    }

    @Test
    void noneTouchesNothingAndAMissingTableFailsOnUseWithAStorageException() {
        String url = TestDatabases.h2Url();
        String table = freshTable();
        try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", table, "schemaMode", "none"))) {
            int tables = Jdbi.create(url).withHandle(h -> h.createQuery(
                    "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE UPPER(TABLE_NAME) LIKE UPPER(?)")
                    .bind(0, table + "%").mapTo(Integer.class).one());
            assertThat(tables).isZero();
            assertThatThrownBy(() -> store.insert(suspended("a", "r", null, null, 0)))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("H2").hasMessageContaining("insert of run 'r'");
        }
    }

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void theDdlNamesTheTableAndItsIndexes(JdbcDialect dialect) {
        String ddl = JdbcSnapshotStore.ddl(dialect, "my_runs");
        assertThat(ddl).contains("CREATE TABLE IF NOT EXISTS my_runs (")
                .contains("my_runs_list_agent ").contains("my_runs_list_thread ").contains("my_runs_list_resource ")
                .contains("my_runs_list_thread_resource ").contains("my_runs_due ").contains("my_runs_schema_history")
                .contains("expires_at").contains("summary")
                .contains("CREATE TABLE IF NOT EXISTS my_runs_threads (").contains("my_runs_threads_resource ")
                .contains("CREATE TABLE IF NOT EXISTS my_runs_messages (").contains("my_runs_messages_run")
                .contains("-- V001__create_runs.sql").contains("-- V002__").contains("-- V003__thread_memory.sql")
                .contains("-- V005__notifications.sql").contains("my_runs_notify ").contains("notify_at").contains("notify_state")
                .contains("-- V006__thread_keys.sql")
                .contains("-- V007__deciders.sql").contains("deciders")
                .contains("-- V008__deciders_by_agent.sql")
                .contains("-- V009__waiting_for_me_indexes.sql")
                .doesNotContain("${table}");
        if (dialect == JdbcDialect.POSTGRESQL) assertThat(ddl).contains("my_runs_list_waiting ON my_runs (agent_id, created_at DESC,"
                + " run_id DESC) INCLUDE (deciders)");
        if (dialect == JdbcDialect.MYSQL) assertThat(ddl).contains("waiting_version BIGINT AS (")
                .contains("my_runs_waiting ON my_runs (agent_id, run_id, waiting_version)");
        if (dialect == JdbcDialect.SQLITE) assertThat(ddl).contains("my_runs_waiting ON my_runs (agent_id, run_id, version, status)");
        if (dialect == JdbcDialect.POSTGRESQL) assertThat(ddl).contains("my_runs_list_deciders ON my_runs USING GIN (deciders)")
                .contains("UPDATE my_runs SET deciders = ARRAY(");
        else assertThat(ddl).contains("CREATE TABLE IF NOT EXISTS my_runs_deciders (").contains("my_runs_deciders_label ");
        if (dialect == JdbcDialect.POSTGRESQL) assertThat(ddl).contains("INCLUDE (status, lease_owner, lease_expires_at)");
        if (dialect == JdbcDialect.MYSQL) assertThat(ddl).contains("lease_state BIGINT AS (");
        if (dialect == JdbcDialect.POSTGRESQL) assertThat(ddl).contains("COLLATE \"C\"");
        if (dialect == JdbcDialect.MYSQL) assertThat(ddl).contains("VARBINARY(764)");
    }

    @Test
    void mainPrintsTheDdl() {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            JdbcSnapshotStore.main(new String[] {"postgresql", "app_runs"});
        } finally {
            System.setOut(old);
        }
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("CREATE TABLE IF NOT EXISTS app_runs (");
    }

    @Test
    void tableNamesMustBePlainIdentifiers() {
        for (String bad : new String[] {"runs; DROP TABLE x", "1runs", "a.b", "\"q\"", "", "x".repeat(41)}) {
            assertThatThrownBy(() -> SnapshotStores.open(TestDatabases.h2Url(), Map.of("table", bad)))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("table");
        }
    }
}
