package dev.baton.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.model.Role;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.StoredMessage;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Thread memory on Redis after writes that stopped half-way (the key states a crash between two
 * round trips leaves, written here by hand), with racing creations, and with one store's cached
 * thread places gone stale because another store deleted and re-created the thread.
 */
class RedisMemoryHalfDoneWritesTest {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisMemoryHalfDoneWritesTest.class);
    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
    private static final RawRedis REDIS = new RawRedis(PREFIX);

    private final RedisKeys keys = new RedisKeys(PREFIX);
    private RedisSnapshotStore store;
    private MemoryStore memory;
    private String resource;

    @AfterAll
    static void disconnect() {
        REDIS.close();
    }

    @BeforeEach
    void open() {
        store = RedisSnapshotStore.builder(REDIS.client()).keyPrefix(PREFIX).build();
        memory = store.memory().orElseThrow();
        resource = "user-" + UUID.randomUUID();
    }

    @AfterEach
    void close() {
        store.close();
    }

    private MemoryThread thread(String id, String owner) {
        return MemoryThread.builder().id(id).resourceId(owner).title("title").metadataJson("{\"k\":1}")
                .createdAt(T0).updatedAt(T0).build();
    }

    private static StoredMessage.New msg(String run, int index) {
        return StoredMessage.New.builder().runId(run).runIndex(index).role(Role.USER)
                .content("{\"text\":\"" + run + index + "\"}").build();
    }

    private RedisCommands<String, String> redis() {
        return REDIS.sync();
    }

    @Test
    void anIdReservedByACreationThatDiedBeforeWritingTheThreadIsTakenOverByTheNextCreation() {
        String id = "t-" + UUID.randomUUID();
        // the first round trip of a creation for another resource, and nothing after it
        redis().set(keys.threadLookup(id), "0123456789abcdefp" + RedisKeys.owner("someone-else", id));
        assertThat(memory.findThread(id)).isEmpty();
        assertThat(memory.append(id, List.of(msg("r", 0)), T0)).isFalse();
        assertThat(memory.deleteThread(id)).isFalse();
        assertThat(memory.createThread(thread(id, resource))).isTrue();
        assertThat(memory.findThread(id)).map(MemoryThread::resourceId).contains(resource);
        assertThat(memory.listThreads(resource, 0, 10).total()).isEqualTo(1);
    }

    @Test
    void aDeletionThatDiedAfterRemovingTheThreadLeavesAnIdThatCanBeCreatedAgain() {
        String id = "t-" + UUID.randomUUID();
        assertThat(memory.createThread(thread(id, resource))).isTrue();
        memory.append(id, List.of(msg("r", 0), msg("r", 1)), T0);
        String place = redis().get(keys.threadLookup(id));
        // the deletion's first step (the script in the resource's slot) without the second (the lookup key)
        String base = keys.memoryBase(RedisKeys.owner(resource, id));
        redis().del(base + "th:" + RedisKeys.hex(id), base + "msg:" + RedisKeys.hex(id), base + "ids:" + RedisKeys.hex(id));
        redis().zrem(base + "threads", id);
        assertThat(redis().get(keys.threadLookup(id))).isEqualTo(place);
        assertThat(memory.findThread(id)).isEmpty();
        assertThat(memory.createThread(thread(id, resource + "-other"))).isTrue();
        assertThat(memory.findThread(id)).map(MemoryThread::resourceId).contains(resource + "-other");
        assertThat(memory.listMessages(id, 0, 10).total()).isZero();
    }

    @Test
    void aThreadLeftInAResourcesSlotByALostRaceIsReplacedByTheNextCreationThere() {
        String id = "t-" + UUID.randomUUID();
        String base = keys.memoryBase(RedisKeys.owner(resource, id));
        // what a creation that lost the id to another and died before clearing its write leaves: a thread
        // whose nonce no lookup names, in the listing of its resource
        redis().hset(base + "th:" + RedisKeys.hex(id), java.util.Map.of("rsv", "fedcba9876543210", "seq", "3", "id", id,
                "resourceId", resource, "metadata", "{}", "createdAt", "0", "updatedAt", "0"));
        redis().zadd(base + "threads", 0, id);
        assertThat(memory.findThread(id)).as("unreachable by id").isEmpty();
        assertThat(memory.createThread(thread(id, resource))).isTrue();
        MemoryThread back = memory.findThread(id).orElseThrow();
        assertThat(back.title()).isEqualTo("title");
        assertThat(memory.listMessages(id, 0, 10).total()).isZero();
        assertThat(memory.listThreads(resource, 0, 10).total()).isEqualTo(1);
    }

    @Test
    void ofManyRacingCreationsOfOneIdForDifferentResourcesExactlyOneWinsAndOnlyItsThreadRemains() throws Exception {
        for (int r = 0; r < 20; r++) {
            int round = r;
            String id = "race-" + round + "-" + UUID.randomUUID();
            int racers = 4;
            ExecutorService pool = Executors.newFixedThreadPool(racers);
            List<RedisSnapshotStore> stores = new ArrayList<>();
            try {
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Boolean>> results = new ArrayList<>();
                for (int i = 0; i < racers; i++) {
                    RedisSnapshotStore s = RedisSnapshotStore.builder(REDIS.client()).keyPrefix(PREFIX).build();
                    stores.add(s);
                    MemoryThread t = thread(id, resource + "-" + round + "-" + i);
                    results.add(pool.submit(() -> {
                        start.await();
                        return s.memory().orElseThrow().createThread(t);
                    }));
                }
                start.countDown();
                int wins = 0;
                String winner = null;
                for (int i = 0; i < racers; i++) {
                    if (results.get(i).get(30, TimeUnit.SECONDS)) {
                        wins++;
                        winner = resource + "-" + round + "-" + i;
                    }
                }
                assertThat(wins).as("round %d", round).isEqualTo(1);
                assertThat(memory.findThread(id)).map(MemoryThread::resourceId).contains(winner);
                for (int i = 0; i < racers; i++) {
                    String owner = resource + "-" + round + "-" + i;
                    assertThat(memory.listThreads(owner, 0, 10).total()).as("threads of %s", owner)
                            .isEqualTo(owner.equals(winner) ? 1 : 0);
                }
            } finally {
                pool.shutdownNow();
                stores.forEach(RedisSnapshotStore::close);
            }
        }
    }

    @Test
    void aStoreWhoseCachedPlaceOfAThreadWentStaleReadsAndWritesTheThreadThatIsThereNow() {
        String id = "t-" + UUID.randomUUID();
        assertThat(memory.createThread(thread(id, resource))).isTrue();
        memory.append(id, List.of(msg("old", 0)), T0);
        assertThat(memory.lastMessages(id, 5)).hasSize(1);   // this store now knows where the thread is
        try (RedisSnapshotStore other = RedisSnapshotStore.builder(REDIS.client()).keyPrefix(PREFIX).build()) {
            MemoryStore otherMemory = other.memory().orElseThrow();
            assertThat(otherMemory.deleteThread(id)).isTrue();
            assertThat(memory.findThread(id)).isEmpty();
            assertThat(memory.append(id, List.of(msg("lost", 0)), T0)).isFalse();
            // created again, for the same resource (same slot, new incarnation), then for another one
            assertThat(otherMemory.createThread(thread(id, resource))).isTrue();
            assertThat(memory.lastMessages(id, 5)).isEmpty();
            assertThat(memory.append(id, List.of(msg("new", 0)), T0)).isTrue();
            assertThat(otherMemory.lastMessages(id, 5)).extracting(StoredMessage::runId).containsExactly("new");
            assertThat(otherMemory.deleteThread(id)).isTrue();
            assertThat(otherMemory.createThread(thread(id, resource + "-2"))).isTrue();
            assertThat(memory.findThread(id)).map(MemoryThread::resourceId).contains(resource + "-2");
            assertThat(memory.updateThread(thread(id, resource + "-2").updated("renamed", "{}",
                    T0.plusSeconds(1)))).isTrue();
            assertThat(otherMemory.findThread(id).orElseThrow().title()).isEqualTo("renamed");
        }
    }

    @Test
    void aMessageIsKeptByItsSeqInTheThreadsHashWithEveryPartRecoverable() {
        String id = "t-" + UUID.randomUUID();
        memory.createThread(thread(id, resource));
        StoredMessage.New odd = StoredMessage.New.builder().runId("run:1:2 {x}").runIndex(7).role(Role.TOOL)
                .content("12:ab:{\"x\":\"4:y\"}").build();
        memory.append(id, List.of(odd), T0.plusMillis(5));
        StoredMessage back = memory.lastMessages(id, 1).get(0);
        assertThat(back).isEqualTo(StoredMessage.builder().threadId(id).seq(1).runId(odd.runId()).runIndex(7).role(odd.role())
                .content(odd.content()).createdAt(T0.plusMillis(5)).build());
        String base = keys.memoryBase(RedisKeys.owner(resource, id));
        assertThat(redis().hget(base + "msg:" + RedisKeys.hex(id), "1")).isNotNull();
        assertThat(redis().hget(base + "ids:" + RedisKeys.hex(id), "7:" + odd.runId())).isEqualTo("1");
    }
}
