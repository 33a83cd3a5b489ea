package dev.baton.store.mongo;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.ConnectionString;
import com.mongodb.WriteConcern;
import com.mongodb.client.MongoClient;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import dev.baton.InvalidOptionException;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStores;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the store sends: every write with the write concern asked for (majority by default), a
 * lease renewal without the payload, and a page with a total from the same matches.
 */
class MongoWritesTest {

    /** The commands a client sent, as the driver saw them. */
    private final List<BsonDocument> sent = Collections.synchronizedList(new ArrayList<>());
    private MongoClient client;

    @BeforeEach
    void connect() {
        CommandListener recorder = new CommandListener() {
            @Override
            public void commandStarted(CommandStartedEvent event) {
                sent.add(event.getCommand().clone());
            }
        };
        client = MongoTestServer.client(recorder);
    }

    @AfterEach
    void disconnect() {
        client.close();
    }

    /** The commands named {@code command} (a command's name is its first key). */
    private List<BsonDocument> sent(String command) {
        synchronized (sent) {
            return sent.stream().filter(c -> c.getFirstKey().equals(command)).toList();
        }
    }

    private MongoSnapshotStore store(WriteConcernLevel level) {
        return MongoSnapshotStore.builder(client, "baton_writes").collection(uniqueId("runs")).writeConcern(level).build();
    }

    @Nested
    class WriteConcerns {

        @ParameterizedTest(name = "{0} on a client with {1}")
        @CsvSource(delimiter = '|', value = {
                // level      | client's w concern (URL options) | effective
                "MAJORITY     |                                    | w=majority",
                "MAJORITY     | w=0                                | w=majority",
                "MAJORITY     | w=1                                | w=majority",
                "MAJORITY     | w=1&journal=true&wtimeoutMS=2500   | w=majority&journal=true&wtimeoutMS=2500",
                "MAJORITY     | w=majority&journal=true            | w=majority&journal=true",
                "MAJORITY     | w=3                                | w=3",
                "MAJORITY     | w=dc-east                          | w=dc-east",
                "ACKNOWLEDGED |                                    | ",
                "ACKNOWLEDGED | w=0                                | ",
                "ACKNOWLEDGED | w=1                                | w=1",
                "W1           |                                    | w=1",
                "W1           | w=0                                | w=1",
                "W1           | w=majority                         | w=majority",
                "W1           | w=2&journal=true                   | w=2&journal=true",
        })
        void theClientsWriteConcernIsKeptOnlyWhereItAsksForAtLeastAsMuch(WriteConcernLevel level, String client,
                                                                         String effective) {
            WriteConcern c = concern(client);
            assertThat(level.applyTo(c)).isEqualTo(effective == null ? WriteConcern.ACKNOWLEDGED : concern(effective));
        }

        private WriteConcern concern(String options) {
            if (options == null) return WriteConcern.ACKNOWLEDGED;
            WriteConcern c = new ConnectionString("mongodb://h/db?" + options).getWriteConcern();
            return c == null ? WriteConcern.ACKNOWLEDGED : c;
        }

        @Test
        void theUrlPropertyNamesTheLevelAndTheDefaultIsMajority() {
            try (MongoSnapshotStore store = (MongoSnapshotStore) SnapshotStores.open(MongoTestServer.url())) {
                assertThat(store.writeConcern()).isEqualTo(WriteConcern.MAJORITY);
            }
            try (MongoSnapshotStore store = (MongoSnapshotStore) SnapshotStores.open(MongoTestServer.url(),
                    Map.of("writeConcern", "W1"))) {
                assertThat(store.writeConcern()).isEqualTo(WriteConcern.W1);
            }
            try (MongoSnapshotStore store = (MongoSnapshotStore) SnapshotStores.open(MongoTestServer.url(),
                    Map.of("writeConcern", "acknowledged"))) {
                assertThat(store.writeConcern().isAcknowledged()).isTrue();
            }
            String url = MongoTestServer.url();
            String majorityJournaled = url + (url.contains("?") ? "&" : "?") + "w=majority&journal=true";
            try (MongoSnapshotStore store = (MongoSnapshotStore) SnapshotStores.open(majorityJournaled,
                    Map.of("writeConcern", "w1"))) {
                assertThat(store.writeConcern()).as("the URL's stronger concern").isEqualTo(WriteConcern.MAJORITY.withJournal(true));
            }
        }

        @Test
        void anUnknownLevelIsRefusedBeforeConnecting() {
            assertThatThrownBy(() -> SnapshotStores.open("mongodb://127.0.0.1:1/x", Map.of("writeConcern", "all")))
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("writeConcern")
                    .hasMessageContaining("majority, acknowledged or w1");
        }

        @Test
        void everyWriteAndClaimIsSentWithMajorityWriteConcern() {
            try (MongoSnapshotStore store = store(WriteConcernLevel.MAJORITY)) {
                RunSnapshot s = suspended(uniqueId("agent"), uniqueId("run"), "t", "r", 0);
                assertThat(store.insert(s)).isTrue();
                RunSnapshot c = s.claimed("me", T0.plusSeconds(30), "{\"claimed\":true}");
                assertThat(store.compareAndSet(1, c)).isTrue();
                assertThat(store.renewLease(s.runId(), 2, "me", T0.plusSeconds(60))).isTrue();
                assertThat(store.delete(s.runId(), 3)).isTrue();
            }
            List<BsonDocument> writes = new ArrayList<>();
            writes.addAll(sent("insert"));
            writes.addAll(sent("findAndModify"));
            writes.addAll(sent("update"));
            writes.addAll(sent("delete"));
            assertThat(writes).hasSize(4).allSatisfy(w ->
                    assertThat(w.getDocument("writeConcern").getString("w").getValue()).as("%s", w.toJson()).isEqualTo("majority"));
        }

        @Test
        void withLevelW1EveryWriteIsSentWithW1() {
            try (MongoSnapshotStore store = store(WriteConcernLevel.W1)) {
                RunSnapshot s = suspended(uniqueId("agent"), uniqueId("run"), "t", "r", 0);
                assertThat(store.insert(s)).isTrue();
                assertThat(store.compareAndSet(1, s.claimed("me", T0.plusSeconds(30), "{}"))).isTrue();
                assertThat(store.renewLease(s.runId(), 2, "me", T0.plusSeconds(60))).isTrue();
            }
            assertThat(sent("update")).singleElement().satisfies(u ->
                    assertThat(u.getDocument("writeConcern").getInt32("w").getValue()).isEqualTo(1));
            assertThat(sent("insert")).singleElement().satisfies(u ->
                    assertThat(u.getDocument("writeConcern").getInt32("w").getValue()).isEqualTo(1));
        }
    }

    @Nested
    class Renewal {

        @Test
        void aRenewalIsOneUpdateThatNeitherReadsNorSendsThePayload() {
            String payload = "{\"blob\":\"" + "x".repeat(100_000) + "\"}";
            try (MongoSnapshotStore store = store(WriteConcernLevel.MAJORITY)) {
                RunSnapshot s = RunSnapshot.builder().runId(uniqueId("run")).agentId(uniqueId("agent"))
                        .status(RunStatus.SUSPENDED).threadId("t").resourceId("r").createdAt(T0).suspendedAt(T0)
                        .payload(payload).summary("{\"calls\":[]}").build();
                assertThat(store.insert(s)).isTrue();
                RunSnapshot c = s.claimed("me", T0.plusSeconds(30), payload);
                assertThat(store.compareAndSet(1, c)).isTrue();
                sent.clear();
                assertThat(store.renewLease(s.runId(), 2, "me", T0.plusSeconds(60))).isTrue();
                assertThat(sent).singleElement().satisfies(cmd -> {
                    assertThat(cmd.getFirstKey()).as(cmd.toJson()).isEqualTo("update");
                    assertThat(cmd.toJson()).doesNotContain("payload").doesNotContain("xxxx");
                });
                assertThat(store.find(s.runId())).contains(c.renewed(T0.plusSeconds(60)));
            }
        }

        @Test
        void theServerClockIsReadWithOneCommand() {
            try (MongoSnapshotStore store = store(WriteConcernLevel.MAJORITY)) {
                store.now();
                sent.clear();
                store.now();
                assertThat(sent).hasSize(1);
                assertThat(sent.get(0).getFirstKey()).as(sent.get(0).toJson()).isIn("hello", "isMaster");
            }
        }
    }

    @Nested
    class Listing {

        private MongoSnapshotStore store;
        private String agent;
        private final List<RunSnapshot> all = new ArrayList<>();

        @BeforeEach
        void seed() {
            store = store(WriteConcernLevel.MAJORITY);
            agent = uniqueId("agent");
            for (int i = 0; i < 5; i++) all.add(insertRun(i * 10L));
        }

        @AfterEach
        void close() {
            store.close();
        }

        private RunSnapshot insertRun(long createdOffset) {
            RunSnapshot s = suspended(agent, uniqueId("run"), "t", "r", createdOffset);
            assertThat(store.insert(s)).isTrue();
            return s;
        }

        private List<RunSnapshot> ordered() {
            return all.stream().sorted(RunQuery.ORDER).toList();
        }

        @Test
        void aFullPageAndItsTotalComeFromOneFindAndOneFacetPass() {
            sent.clear();
            RunPage page = store.list(RunQuery.forAgent(agent, T0.plusSeconds(3600)).page(1, 2).build());
            assertThat(page.items()).containsExactlyElementsOf(ordered().subList(1, 3));
            assertThat(page.total()).isEqualTo(5);
            assertThat(sent("find")).hasSize(1);
            assertThat(sent("aggregate")).singleElement().satisfies(a -> assertThat(a.toJson()).contains("$facet"));
            assertThat(sent("count")).isEmpty();
        }

        @Test
        void aShortPageNeedsNoCount() {
            sent.clear();
            RunPage page = store.list(RunQuery.forAgent(agent, T0.plusSeconds(3600)).page(3, 10).build());
            assertThat(page.items()).containsExactlyElementsOf(ordered().subList(3, 5));
            assertThat(page.total()).isEqualTo(5);
            assertThat(sent("find")).hasSize(1);
            assertThat(sent("aggregate")).isEmpty();
        }

        @Test
        void aWriteBetweenThePageAndTheCountIsNeverMixedIntoOneAnswer() {
            AtomicInteger writes = new AtomicInteger();
            store.listing().betweenPageAndCount = () -> {
                if (writes.getAndIncrement() == 0) all.add(insertRun(1000));   // a new run at the top of the listing
            };
            RunPage page = store.list(RunQuery.forAgent(agent, T0.plusSeconds(3600)).page(0, 2).build());
            // without the check this would be the first two of the five runs with a total of six
            assertThat(page.items()).containsExactlyElementsOf(ordered().subList(0, 2));
            assertThat(page.total()).isEqualTo(6);
            assertThat(writes.get()).as("reads of the page").isEqualTo(2);
        }

        @Test
        void aClaimBetweenThePageAndTheCountIsNeverMixedIntoOneAnswer() {
            AtomicInteger writes = new AtomicInteger();
            List<RunSnapshot> order = ordered();
            store.listing().betweenPageAndCount = () -> {
                if (writes.getAndIncrement() == 0) {
                    RunSnapshot first = order.get(0);
                    assertThat(store.compareAndSet(1, first.claimed("other", T0.plusSeconds(7200), "{}"))).isTrue();
                }
            };
            RunPage page = store.list(RunQuery.forAgent(agent, T0.plusSeconds(3600)).page(0, 2).build());
            assertThat(page.items()).containsExactlyElementsOf(order.subList(1, 3));
            assertThat(page.total()).isEqualTo(4);
        }

        @Test
        void underConstantWritesTheLastPageIsReturnedAfterAFewAttempts() {
            AtomicInteger writes = new AtomicInteger();
            store.listing().betweenPageAndCount = () -> {
                writes.incrementAndGet();
                all.add(insertRun(1000 + writes.get()));
            };
            RunPage page = store.list(RunQuery.forAgent(agent, T0.plusSeconds(3600)).page(0, 2).build());
            assertThat(writes.get()).isEqualTo(MongoRunListing.LIST_ATTEMPTS);
            assertThat(page.items()).hasSize(2);
            assertThat(page.total()).isEqualTo(all.size());
        }
    }
}
