package dev.baton.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.StorageException;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@link RedisLayoutMigration} moves an agent from 1 bucket to 6, from 6 to 4 and back to 1, crashing (a simulated
 * Redis failure) at random steps and stopped by {@code maxRecords} on the way, then run again: after each move the
 * new layout's store lists, finds, pages and looks up decisions exactly as the old one did before, no key of the
 * agent is left in an old bucket, and there is one hash per run and per decision record (nothing duplicated).
 */
class RedisLayoutMigrationTest {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisLayoutMigrationTest.class);
    private static final String COUNT_PREFIX = PREFIX + "-count";
    private static final String AGENT = "migrating-agent";

    @AfterAll
    static void deleteTheTestKeys() {
        synchronized (RedisLayoutMigrationTest.class) {
            if (scanConnection != null) {
                scanConnection.close();
                scanClient.shutdown();
                scanConnection = null;
            }
        }
        RedisTestServer.deleteKeys(PREFIX);
        RedisTestServer.deleteKeys(COUNT_PREFIX);   // the bucket-count test's store (the cluster test's keys are on the cluster)
    }

    @Test
    void anAgentMovesBetweenLayoutsThroughCrashesAndStopsWithNothingLostOrDuplicated() {
        BucketData data = new BucketData(31L, AGENT, 150);
        Random r = new Random(3);
        Expected before;
        try (RedisSnapshotStore one = store(1)) {
            for (int i = 0; i < data.runs.size(); i++) {
                RunSnapshot s = data.runs.get(i);
                if (i % 3 == 0) {
                    s = s.toBuilder().status(RunStatus.RESUMING).lease("w", BucketData.NOW.plusSeconds(60)).build();
                    one.insert(s);
                    assertThat(data.decide(one, s, i, "key")).isTrue();
                } else {
                    one.insert(s);
                }
            }
            before = Expected.of(one);
            assertThat(before.decisions()).hasSizeGreaterThan(50);
            assertThat(before.byKey()).isNotEmpty();
            assertThat(before.due()).isNotEmpty();
        }
        int from = 1;
        for (int to : new int[] {6, 4, 1}) {
            try (RedisSnapshotStore target = store(to)) {
                RedisLayoutMigration m = RedisLayoutMigration.of(target);
                int crashes = 0;
                int calls = 0;
                RedisLayoutMigration.Result result = null;
                while (result == null || !result.complete()) {
                    assertThat(calls++).isLessThan(500);
                    m.crashAfterSteps = calls > 1 && r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(40);
                    try {
                        result = m.migrate(AGENT, from, r.nextBoolean() ? Long.MAX_VALUE : 1 + r.nextInt(60));
                    } catch (StorageException e) {
                        assertThat(e).hasMessageContaining("simulated crash");
                        crashes++;
                    }
                }
                assertThat(crashes).isPositive();
                assertThat(m.migrate(AGENT, from)).isEqualTo(new RedisLayoutMigration.Result(0, 0, true));
                assertThat(Expected.of(target)).isEqualTo(before);
                for (RunSnapshot s : before.runs) assertThat(target.find(s.runId())).contains(s);
                for (String base : RedisBuckets.bases(new RedisKeys(PREFIX), AGENT, from)) {
                    if (!List.of(target.access().buckets.bases(AGENT)).contains(base)) assertThat(keys(base + "*")).isZero();
                }
                // one hash per run and per record, one reservation per idempotency key with buckets: none duplicated
                String agentKeys = PREFIX + ":{" + RedisKeys.hex(AGENT) + "*}:";
                assertThat(keys(agentKeys + "run:*")).as("layout %d", to).isEqualTo(before.runs.size());
                assertThat(keys(agentKeys + "dec:h:*")).as("layout %d", to).isEqualTo(before.decisions.size());
                assertThat(keys(PREFIX + ":dk:{" + RedisKeys.hex(AGENT) + "*")).isEqualTo(to > 1 ? before.byKey.size() : 0);
            }
            from = to;
        }
        // the runs work in their new place: a delete frees the run id
        try (RedisSnapshotStore one = store(1)) {
            RunSnapshot s = before.runs.get(0);
            assertThat(one.delete(s.runId(), s.version())).isTrue();
            assertThat(one.find(s.runId())).isEmpty();
            assertThat(one.insert(s)).isTrue();
        }
    }

    @Test
    void onTheClusterEveryStepTouchesOneSlot() {
        String prefix = PREFIX + "-cluster";
        BucketData data = new BucketData(41L, AGENT, 40);
        Expected before;
        try (RedisSnapshotStore one = RedisSnapshotStore.open(RedisTestCluster.url(), prefix, null, true, 1)) {
            for (int i = 0; i < data.runs.size(); i++) {
                RunSnapshot s = data.runs.get(i).toBuilder().status(RunStatus.RESUMING).lease("w", BucketData.NOW.plusSeconds(60)).build();
                one.insert(s);
                assertThat(data.decide(one, s, i, "key")).isTrue();
            }
            before = Expected.of(one);
        }
        try (RedisSnapshotStore six = RedisSnapshotStore.open(RedisTestCluster.url(), prefix, null, true, 6)) {
            RedisLayoutMigration.Result r = RedisLayoutMigration.of(six).migrate(AGENT, 1);
            assertThat(r.complete()).isTrue();
            assertThat(r.runs()).isEqualTo(40);
            assertThat(Expected.of(six)).isEqualTo(before);
            for (RunSnapshot s : before.runs) assertThat(six.find(s.runId())).contains(s);
        }
    }

    /**
     * A store opened with another bucket count than its data was written with would list only the runs of
     * its own buckets: it refuses every call, naming both counts, until a migration moved the data (and
     * recorded the new count); a store with the recorded count works.
     */
    @Test
    void aStoreOpenedWithAnotherBucketCountThanItsDataRefusesNamingBothCounts() {
        String prefix = COUNT_PREFIX;
        RunSnapshot s = new BucketData(51L, AGENT, 1).runs.get(0);
        try (RedisSnapshotStore four = RedisSnapshotStore.open(RedisTestServer.url(), prefix, null, false, 4)) {
            assertThat(four.insert(s)).isTrue();
        }
        try (RedisSnapshotStore one = RedisSnapshotStore.open(RedisTestServer.url(), prefix, null, false, 1)) {
            assertThatThrownBy(() -> one.list(RunQuery.forAgent(AGENT, BucketData.NOW).status(null).build()))
                    .as("a listing of a store opened with 1 bucket over data of 4").isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("written with 4 bucket(s)").hasMessageContaining("opened with 1")
                    .hasMessageContaining("RedisLayoutMigration");
            assertThatThrownBy(() -> one.find(s.runId())).isInstanceOf(IllegalStateException.class);
            assertThat(RedisLayoutMigration.of(one).migrate(AGENT, 4).complete()).as("the migration works all the same").isTrue();
            assertThat(one.find(s.runId())).as("after the migration").contains(s);
        }
        try (RedisSnapshotStore four = RedisSnapshotStore.open(RedisTestServer.url(), prefix, null, false, 4)) {
            assertThatThrownBy(() -> four.find(s.runId())).as("the old count after the migration recorded 1")
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("written with 1 bucket(s)");
        }
        try (RedisSnapshotStore one = RedisSnapshotStore.open(RedisTestServer.url(), prefix, null, false, 1)) {
            assertThat(one.find(s.runId())).contains(s);
        }
    }

    @Test
    void aStoreRefusesBucketCountsOutOfRange() {
        assertThatThrownBy(() -> RedisSnapshotStore.builder(RedisClient.create(RedisTestServer.url())).buckets(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("buckets");
    }

    /** Everything a store shows of the agent: its runs in listing order, the decisions, the keys found. */
    record Expected(List<RunSnapshot> runs, long total, List<DecisionRecord> decisions, List<DecisionRecord> byKey,
                    List<RunSnapshot> due) {
        static Expected of(RedisSnapshotStore s) {
            RunPage all = s.list(RunQuery.forAgent(AGENT, BucketData.NOW).status(null).build());
            List<DecisionRecord> ds = s.listDecisions(DecisionQuery.forAgent(AGENT).limit(1000).build()).items();
            List<DecisionRecord> byKey = new ArrayList<>();
            for (DecisionRecord d : ds) if (d.idempotencyKey() != null) byKey.add(s.findDecision(AGENT, d.idempotencyKey()).orElseThrow());
            return new Expected(all.items(), all.total(), ds, byKey, s.listDue(AGENT, BucketData.NOW, 1000));
        }
    }

    private static RedisSnapshotStore store(int buckets) {
        return RedisSnapshotStore.open(RedisTestServer.url(), PREFIX, null, false, buckets);
    }

    /** One connection for every key count of the class (a client per count cost more than the count). */
    private static RedisClient scanClient;
    private static StatefulRedisConnection<String, String> scanConnection;

    /**
     * How many keys match {@code pattern}: a SCAN of the whole keyspace (in CI the database every module's tests share),
     * 10,000 keys a call.
     */
    private static synchronized long keys(String pattern) {
        if (scanConnection == null) {
            scanClient = RedisClient.create(RedisTestServer.url());
            scanConnection = scanClient.connect();
        }
        ScanIterator<String> it = ScanIterator.scan(scanConnection.sync(), ScanArgs.Builder.matches(pattern).limit(10_000));
        long n = 0;
        while (it.hasNext()) {
            it.next();
            n++;
        }
        return n;
    }
}
