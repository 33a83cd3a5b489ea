package dev.baton.store.jdbc;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.SnapshotFormatException;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rows that no longer describe a valid snapshot (changed by hand, by a bad migration, by another
 * program): find() names the run precisely with a SnapshotFormatException, the row stays as it
 * is, and listing the agent's suspended runs still works, without it.
 */
class CorruptRowTest {
    private static final String TABLE = "baton_corrupt";

    static java.util.stream.Stream<String> databases() {
        return TestDatabases.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aCorruptRowIsNamedByFindAndLeftOutOfTheSuspendedListing(String db) {
        String url = TestDatabases.url(db);
        String agent = uniqueId("corrupt-agent");
        try (SnapshotStore store = SnapshotStores.open(url, Map.of("table", TABLE))) {
            RunSnapshot good = suspended(agent, uniqueId("good"), "t", "r", 1);
            RunSnapshot badStatus = suspended(agent, uniqueId("bad-status"), "t", "r", 2);
            RunSnapshot noOwner = suspended(agent, uniqueId("no-owner"), "t", "r", 3);
            RunSnapshot leased = suspended(agent, uniqueId("leased"), "t", "r", 4);
            for (RunSnapshot s : new RunSnapshot[] {good, badStatus, noOwner, leased}) assertThat(store.insert(s)).isTrue();

            Jdbi raw = Jdbi.create(url);
            boolean binary = db.equals("MariaDB");
            raw.useHandle(h -> {
                h.createUpdate("UPDATE " + TABLE + " SET status = 'PAUSED' WHERE run_id = ?")
                        .bind(0, id(badStatus.runId(), binary)).execute();
                // a RESUMING row whose lease owner is gone, with an expired lease: would match "suspended"
                h.createUpdate("UPDATE " + TABLE + " SET status = 'RESUMING', lease_expires_at = ? WHERE run_id = ?")
                        .bind(0, T0.toEpochMilli()).bind(1, id(noOwner.runId(), binary)).execute();
                // a SUSPENDED row that carries a lease
                h.createUpdate("UPDATE " + TABLE + " SET lease_owner = 'ghost', lease_expires_at = 1 WHERE run_id = ?")
                        .bind(0, id(leased.runId(), binary)).execute();
            });

            assertThatThrownBy(() -> store.find(badStatus.runId()))
                    .isInstanceOf(SnapshotFormatException.class)
                    .hasMessageContaining(badStatus.runId()).hasMessageContaining("PAUSED")
                    .satisfies(e -> assertThat(((SnapshotFormatException) e).runId()).isEqualTo(badStatus.runId()));
            assertThatThrownBy(() -> store.find(noOwner.runId()))
                    .isInstanceOf(SnapshotFormatException.class).hasMessageContaining(noOwner.runId());
            assertThatThrownBy(() -> store.find(leased.runId()))
                    .isInstanceOf(SnapshotFormatException.class).hasMessageContaining(leased.runId());

            RunQuery suspendedNow = RunQuery.forAgent(agent, T0.plusSeconds(3600)).build();
            var page = store.list(suspendedNow);
            assertThat(page.items()).containsExactly(good);
            assertThat(page.total()).isEqualTo(1);
            assertThat(store.list(RunQuery.forAgent(agent, T0.plusSeconds(3600)).threadId("t").page(0, 10).build())
                    .items()).containsExactly(good);
            assertThat(store.find(good.runId())).contains(good);

            // a listing of every status cannot leave the row out silently: it names it
            assertThatThrownBy(() -> store.list(RunQuery.forAgent(agent, T0.plusSeconds(3600)).status(null).build()))
                    .isInstanceOf(SnapshotFormatException.class)
                    .hasMessageMatching("(?s).*(" + badStatus.runId() + "|" + noOwner.runId() + "|" + leased.runId() + ").*");

            // the corrupt rows were left as they were
            assertThatThrownBy(() -> store.find(badStatus.runId())).isInstanceOf(SnapshotFormatException.class);
            assertThat(store.delete(badStatus.runId(), 1)).isTrue();
        }
    }

    private static Object id(String id, boolean binary) {
        return binary ? id.getBytes(StandardCharsets.UTF_8) : id;
    }
}
