package dev.baton.store.jdbc;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.model.Role;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStores;
import dev.baton.store.StoredMessage;
import dev.baton.tck.support.Snapshots;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * How many round trips each store call costs, counted on the wire ({@link WireCounter}) between
 * the store's pool and the server: one statement per call core makes on the write path, one
 * statement per listing, no transaction and no isolation statements around either. Extended per
 * server database; the pool has one connection, warmed before anything is counted.
 */
abstract class RoundTripContract {
    private static final Pattern TRANSACTION_OR_SESSION =
            // MariaDB Connector/J sends the query timeout inside the statement: SET STATEMENT ... FOR <sql>
            Pattern.compile("(?i)^\\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SET (?!STATEMENT max_statement_time=\\d+ FOR )|SHOW "
                    + "|SELECT @@).*");

    /** The protocol of the database under test. */
    abstract WireCounter.Protocol protocol();

    /** The JDBC URL of the database under test. */
    abstract String url();

    /** Query-string parameters that keep the wire readable (no TLS). */
    abstract String plainWire();

    /** Round trips of a listing whose page is past the end: 1 where the dialect can carry the total without a row. */
    abstract int pastTheEndTrips();

    /**
     * Round trips of a write of a SUSPENDED run with decider labels: 1 where the labels are a column of the row
     * (PostgreSQL), else the transaction of the row and its label rows.
     */
    abstract int labelWriteTrips();

    WireCounter wire;
    JdbcSnapshotStore store;
    String agent;

    @BeforeEach
    void open() throws Exception {
        URI target = URI.create(url().substring("jdbc:".length()));
        wire = new WireCounter(protocol(), target.getHost(), target.getPort());
        String proxied = "jdbc:" + target.getScheme() + "://127.0.0.1:" + wire.port() + target.getRawPath() + "?"
                + (target.getRawQuery() != null ? target.getRawQuery() + "&" : "") + plainWire();
        store = (JdbcSnapshotStore) SnapshotStores.open(proxied, Map.of("table", "baton_trips", "poolSize", "1"));
        agent = uniqueId("trips");
        for (int i = 0; i < 30; i++) assertThat(store.insert(run("r" + i, i))).isTrue();
        store.list(query().page(0, 20).build());   // the connection is open and the driver warm
    }

    @AfterEach
    void close() throws Exception {
        if (store != null) store.close();
        if (wire != null) wire.close();
    }

    RunSnapshot run(String name, long offset) {
        Instant created = T0.plusMillis(offset * 1000);
        String id = agent + "/" + name;
        return Snapshots.suspendedAt(agent, id, created).threadId("t").resourceId("u")
                .expiresAt(created.plusSeconds(60)).build();
    }

    RunQuery.Builder query() {
        return RunQuery.forAgent(agent, T0.plusSeconds(3600)).threadId("t").withPayload(false);
    }

    /** The round trips that carried SQL while {@code call} ran; none of them a transaction or session statement. */
    List<WireCounter.RoundTrip> trips(Runnable call) {
        wire.reset();
        call.run();
        for (WireCounter.RoundTrip t : wire.trips()) {
            assertThat(t.statements()).as("every statement on the wire").noneMatch(s -> TRANSACTION_OR_SESSION.matcher(s).matches());
        }
        return wire.statementTrips();
    }

    @Nested
    class Listings {

        @Test
        void aPageWithItsTotalIsOneRoundTrip() {
            assertThat(trips(() -> assertThat(store.list(query().page(0, 20).build()).total()).isEqualTo(30))).hasSize(1);
            assertThat(trips(() -> store.list(query().page(20, 20).build()))).hasSize(1);
            assertThat(trips(() -> store.list(query().page(0, 20).withPayload(true).build()))).hasSize(1);
        }

        @Test
        void anUnfilteredPageAndACountAreOneRoundTripEach() {
            assertThat(trips(() -> store.list(RunQuery.forAgent(agent, T0.plusSeconds(3600)).page(0, 20).build()))).hasSize(1);
            assertThat(trips(() -> assertThat(store.list(query().countOnly().build()).total()).isEqualTo(30))).hasSize(1);
            assertThat(trips(() -> store.list(query().build()))).hasSize(1);
        }

        @Test
        void aCursorPageIsOneRoundTrip() {
            RunSnapshot tenth = run("r10", 10);
            assertThat(trips(() -> assertThat(store.list(query().after(new RunQuery.After(tenth.createdAt(), tenth.runId()), 5)
                    .build()).items()).hasSize(5))).hasSize(1);
        }

        @Test
        void aPagePastTheEndCostsWhatTheDialectNeedsForItsTotal() {
            assertThat(trips(() -> assertThat(store.list(query().page(100, 20).build()).total()).isEqualTo(30)))
                    .hasSize(pastTheEndTrips());
        }

        @Test
        void dueRunsAreOneRoundTrip() {
            assertThat(trips(() -> assertThat(store.listDue(agent, T0.plusSeconds(3600), 10)).hasSize(10))).hasSize(1);
        }
    }

    @Nested
    class Writes {

        /** What core sends from a suspension to the end of a resumed run: insert, find, claim, renewal, progress, delete. */
        @Test
        void everyCallOfTheWritePathIsOneStatement() {
            RunSnapshot s = run("w", 100);
            assertThat(trips(() -> assertThat(store.insert(s)).isTrue())).hasSize(1);
            assertThat(trips(() -> assertThat(store.find(s.runId())).isPresent())).hasSize(1);
            RunSnapshot claimed = s.claimed("me", T0.plusSeconds(30), s.payload());
            assertThat(trips(() -> assertThat(store.compareAndSet(1, claimed)).isTrue())).hasSize(1);
            assertThat(trips(() -> assertThat(store.renewLease(s.runId(), 2, "me", T0.plusSeconds(60))).isTrue())).hasSize(1);
            RunSnapshot progressed = store.find(s.runId()).orElseThrow();
            RunSnapshot next = progressed.toBuilder().version(4).payload(s.payload() + " ").expiresAt(null)
                    .summary("{\"calls\":[1]}").build();
            assertThat(trips(() -> assertThat(store.compareAndSet(3, next)).isTrue())).hasSize(1);
            assertThat(trips(() -> assertThat(store.delete(s.runId(), 4)).isTrue())).hasSize(1);
        }

        /**
         * Decider labels cost a statement only where they are written: a claim keeps them (no label write), a
         * suspension without labels, a delete (label rows cascade) and a deciders listing are one statement.
         */
        @Test
        void decidersCostAStatementOnlyWhereTheyAreWritten() {
            RunSnapshot s = run("d", 100).toBuilder().deciders(List.of("*", "r:admin")).build();
            wire.reset();
            assertThat(store.insert(s)).isTrue();
            assertThat(wire.statementTrips()).as("a suspension with labels").hasSize(labelWriteTrips());
            RunSnapshot claimed = s.claimed("me", T0.plusSeconds(30), s.payload());
            assertThat(trips(() -> assertThat(store.compareAndSet(1, claimed)).isTrue())).as("a claim").hasSize(1);
            RunSnapshot again = claimed.suspended(T0.plusSeconds(40), s.payload(), null, s.summary(), List.of("r:admin"));
            wire.reset();
            assertThat(store.compareAndSet(2, again)).isTrue();
            assertThat(wire.statementTrips()).as("a suspension with other labels").hasSize(labelWriteTrips());
            RunQuery.Builder admins = query().deciders(List.of(new RunQuery.Decider("r:admin", "x:admin:bob")));
            assertThat(trips(() -> assertThat(store.list(admins.page(0, 20).build()).total()).isEqualTo(1))).hasSize(1);
            RunSnapshot none = again.suspended(T0.plusSeconds(50), s.payload(), null, s.summary(), null);
            assertThat(trips(() -> assertThat(store.compareAndSet(3, none)).isTrue())).as("a suspension without labels").hasSize(1);
            assertThat(trips(() -> assertThat(store.delete(s.runId(), 4)).isTrue())).as("a delete").hasSize(1);
            assertThat(trips(() -> assertThat(store.list(admins.page(0, 20).build()).total()).isZero())).hasSize(1);
        }

        @Test
        void aLostRaceIsOneStatementToo() {
            RunSnapshot s = run("lost", 100);
            store.insert(s);
            assertThat(trips(() -> assertThat(store.compareAndSet(7, s.claimed("me", T0, s.payload()))).isFalse())).hasSize(1);
            assertThat(trips(() -> assertThat(store.delete(s.runId(), 7)).isFalse())).hasSize(1);
            assertThat(trips(() -> assertThat(store.insert(s)).isFalse())).hasSize(1);
        }
    }

    @Nested
    class Memory {

        /**
         * An append is one short transaction whose round trips do not depend on the thread's length
         * (the thread's counter, no MAX(seq)); the reads are one statement each.
         */
        @Test
        void anAppendCostsTheSameRoundTripsWhateverTheThreadLengthAndReadsOneEach() {
            MemoryStore memory = store.memory().orElseThrow();
            String thread = uniqueId("trips-thread");
            memory.createThread(MemoryThread.builder().id(thread).resourceId(agent).createdAt(T0).updatedAt(T0).build());
            wire.reset();
            memory.append(thread, List.of(msg("r0", 0)), T0);
            int first = wire.trips().size();
            List<StoredMessage.New> many = new ArrayList<>();
            for (int i = 0; i < 200; i++) many.add(msg("bulk", i));
            memory.append(thread, many, T0);
            wire.reset();
            memory.append(thread, List.of(msg("r1", 0)), T0);
            assertThat(wire.trips()).as("an append to a thread of 201 messages, against one of none").hasSize(first);
            System.out.printf("%s: an append is %d round trips: %s%n", protocol(), first, wire.trips());
            assertThat(trips(() -> assertThat(memory.lastMessages(thread, 20)).hasSize(20))).hasSize(1);
            assertThat(trips(() -> assertThat(memory.listMessages(thread, 0, 20).total()).isEqualTo(202))).hasSize(1);
            assertThat(trips(() -> assertThat(memory.listThreads(agent, 0, 20).total()).isEqualTo(1))).hasSize(1);
        }

        private StoredMessage.New msg(String run, int index) {
            return StoredMessage.New.builder().runId(run).runIndex(index).role(Role.USER).content("{\"text\":\"hi\"}").build();
        }
    }
}
