package dev.baton.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunQuery;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * What the plan tests of the "waiting for me" listing share: bob's query ({@link MariaDbPlanTest}, {@link SqlitePlanTest},
 * {@link PostgresPlanTest}) and, on the 20,000 runs the MariaDB and SQLite tests seed alike (20 agents; every fourth
 * run SUSPENDED with labels, finance's or ops' with bob excluded; every eighth claimed), the label rows and what the
 * listing must answer. The tables are dropped with {@link TestDatabases#dropTables}.
 */
final class PlanFixture {
    /** The time the plan tests list at. */
    static final Instant NOW = Instant.ofEpochMilli(1_800_000_000_000L);

    private PlanFixture() {
    }

    /**
     * Bob's "waiting for me" listing of {@code agent}'s runs: finance's label (bob is not excluded) or ops' (bob is);
     * a page of {@code limit} runs with its total, or the total alone when {@code limit} is 0.
     */
    static RunQuery bob(String agent, int limit) {
        RunQuery.Builder b = RunQuery.forAgent(agent, NOW).deciders(List.of(new RunQuery.Decider("r:finance", "x:7:finance:bob"),
                new RunQuery.Decider("r:ops", "x:3:ops:bob")));
        return (limit == 0 ? b.countOnly() : b.page(0, limit)).build();
    }

    /**
     * The label rows of the seeded runs, as the store writes them in {@code <table>_deciders} (MySQL/MariaDB, H2,
     * SQLite): one per label of each run with labels ({@code deciders} {@code 9:r:finance}, or {@code 5:r:ops} with
     * {@code x:3:ops:bob}), at version 1.
     */
    static void insertLabelRows(Handle h, String table) {
        h.execute("INSERT INTO " + table + "_deciders (run_id, label, agent_id, version)"
                + " SELECT run_id, 'r:finance', agent_id, 1 FROM " + table + " WHERE deciders = '9:r:finance'"
                + " UNION ALL SELECT run_id, 'r:ops', agent_id, 1 FROM " + table + " WHERE deciders LIKE '5:r:ops%'"
                + " UNION ALL SELECT run_id, 'x:3:ops:bob', agent_id, 1 FROM " + table + " WHERE deciders LIKE '5:r:ops%'");
    }

    /**
     * The listing counts what the rule says on the seeded runs: bob's page of agent-7 and its total (with the page and
     * alone) are agent-7's SUSPENDED runs with finance's label (ops' excludes bob), 63 of them, each read back with
     * that label.
     */
    static void assertBobsListingOfAgent7(JdbcSnapshotStore store, Jdbi raw, String table) {
        long expected = raw.withHandle(h -> h.createQuery("SELECT COUNT(*) FROM " + table + " WHERE agent_id = 'agent-7'"
                + " AND status = 'SUSPENDED' AND deciders = '9:r:finance'").mapTo(Long.class).one());
        assertThat(expected).isEqualTo(63);   // 7 + 20k, k = 7, 23, ... (k % 16 = 7), k < 1,000
        var page = store.list(bob("agent-7", 20));
        assertThat(page.total()).isEqualTo(expected);
        assertThat(page.items()).hasSize(20).allSatisfy(r -> assertThat(r.deciders()).containsExactly("r:finance"));
        assertThat(store.list(bob("agent-7", 0)).total()).isEqualTo(expected);
    }
}
