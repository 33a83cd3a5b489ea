package dev.baton.tck;

import static dev.baton.tck.Snapshots.T0;
import static dev.baton.tck.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.memory.MemoryStore;
import dev.baton.memory.MemoryThread;
import dev.baton.memory.StoredMessage;
import dev.baton.memory.StoredMessagePage;
import dev.baton.memory.ThreadPage;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The thread-memory half of the TCK: the {@link MemoryStore} a store offers through
 * {@link SnapshotStore#memory()} when it declares {@link StoreCapability#THREAD_MEMORY}. Threads,
 * their listing by resource, appends (ordered, idempotent per run message, whole under concurrency),
 * the last messages, paging, deletion, and odd input. Extend it and implement {@link #openStore()}.
 */
@Execution(ExecutionMode.SAME_THREAD)
@ProvesCapability(StoreCapability.THREAD_MEMORY)
public abstract class MemoryStoreContract {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Opens a store on the database under test; the same database on every call. */
    protected abstract SnapshotStore openStore() throws Exception;

    protected SnapshotStore store;
    protected MemoryStore memory;
    protected String resource;

    /**
     * Not a test, and JUnit 5 never calls it: a guard for runners that cannot run JUnit 5 (see
     * {@link SnapshotStoreContract#testRunnerRunsTheJUnitPlatform()}).
     */
    public void testRunnerRunsTheJUnitPlatform() {
        throw new AssertionError(Certification.WRONG_RUNNER);
    }

    @BeforeEach
    void openTheStore() throws Exception {
        store = openStore();
        Certification.record(getClass(), store);
        assumeTrue(store.capabilities().contains(StoreCapability.THREAD_MEMORY), "the store has no thread memory");
        memory = store.memory().orElseThrow(() -> new AssertionError("THREAD_MEMORY is declared but memory() is empty"));
        resource = uniqueId("tck-user");
    }

    @AfterEach
    void closeTheStore() {
        if (store != null) store.close();
    }

    protected MemoryThread thread(String id, long updatedOffsetMillis) {
        ObjectNode meta = JSON.createObjectNode().put("topic", "travel");
        return new MemoryThread(id, resource, "Title of " + id, meta, T0, T0.plusMillis(updatedOffsetMillis));
    }

    protected MemoryThread create(String id, long updatedOffsetMillis) {
        MemoryThread t = thread(id, updatedOffsetMillis);
        assertThat(memory.createThread(t)).isTrue();
        return t;
    }

    protected static StoredMessage.New msg(String runId, int index, String text) {
        return new StoredMessage.New(runId, index, "user", "{\"role\":\"user\",\"text\":" + Snapshots.json(text) + "}");
    }

    protected static List<String> contents(List<StoredMessage> messages) {
        return messages.stream().map(m -> m.runId() + "#" + m.runIndex()).toList();
    }

    @Nested
    class Threads {

        @Test
        void aThreadIsStoredAndReadBackWithEveryField() {
            MemoryThread t = create(uniqueId("th"), 5);
            assertThat(memory.findThread(t.id())).contains(t);
        }

        @Test
        void creatingAThreadTwiceIsRefusedAndChangesNothing() {
            MemoryThread t = create(uniqueId("th"), 5);
            MemoryThread other = new MemoryThread(t.id(), resource + "-x", "other", JSON.createObjectNode(), T0, T0);
            assertThat(memory.createThread(other)).isFalse();
            assertThat(memory.findThread(t.id())).contains(t);
        }

        @Test
        void anUnknownThreadIsEmpty() {
            assertThat(memory.findThread(uniqueId("nope"))).isEmpty();
            assertThat(memory.updateThread(thread(uniqueId("nope"), 0))).isFalse();
            assertThat(memory.deleteThread(uniqueId("nope"))).isFalse();
            assertThat(memory.lastMessages(uniqueId("nope"), 5)).isEmpty();
            assertThat(memory.listMessages(uniqueId("nope"), 0, 5).total()).isZero();
        }

        @Test
        void updatingAThreadReplacesTitleMetadataAndUpdateTimeButNotTheOwner() {
            MemoryThread t = create(uniqueId("th"), 5);
            MemoryThread changed = t.updated("New title", JSON.createObjectNode().put("n", 2), T0.plusSeconds(60));
            assertThat(memory.updateThread(changed)).isTrue();
            MemoryThread back = memory.findThread(t.id()).orElseThrow();
            assertThat(back.title()).isEqualTo("New title");
            assertThat(back.metadata().path("n").asInt()).isEqualTo(2);
            assertThat(back.updatedAt()).isEqualTo(T0.plusSeconds(60));
            assertThat(back.resourceId()).isEqualTo(resource);
            assertThat(back.createdAt()).isEqualTo(T0);
        }

        @Test
        void aResourcesThreadsAreListedNewestUpdateFirstWithTheTotalAndPaging() {
            for (int i = 0; i < 5; i++) create(resource + "-t" + i, i * 1000L);
            memory.createThread(new MemoryThread(uniqueId("foreign"), resource + "-other", null, null, T0, T0));
            ThreadPage all = memory.listThreads(resource, 0, 10);
            assertThat(all.total()).isEqualTo(5);
            assertThat(all.threads()).extracting(MemoryThread::id)
                    .containsExactly(resource + "-t4", resource + "-t3", resource + "-t2", resource + "-t1", resource + "-t0");
            ThreadPage second = memory.listThreads(resource, 2, 2);
            assertThat(second.threads()).extracting(MemoryThread::id).containsExactly(resource + "-t2", resource + "-t1");
            assertThat(second.total()).isEqualTo(5);
            assertThat(memory.listThreads(resource, 0, 0).threads()).isEmpty();
            assertThat(memory.listThreads(resource, 0, 0).total()).isEqualTo(5);
            assertThat(memory.listThreads(resource, 10, 5).threads()).isEmpty();
        }

        @Test
        void anAppendMovesTheThreadToTheFrontOfItsResourcesListing() {
            MemoryThread old = create(resource + "-old", 0);
            create(resource + "-new", 1000);
            assertThat(memory.append(old.id(), List.of(msg("r", 0, "hi")), T0.plusSeconds(5))).isTrue();
            assertThat(memory.listThreads(resource, 0, 10).threads()).extracting(MemoryThread::id)
                    .startsWith(old.id());
            assertThat(memory.findThread(old.id()).orElseThrow().updatedAt()).isEqualTo(T0.plusSeconds(5));
        }

        @Test
        void deletingAThreadDeletesItsMessages() {
            MemoryThread t = create(uniqueId("th"), 0);
            memory.append(t.id(), List.of(msg("r", 0, "a"), msg("r", 1, "b")), T0);
            assertThat(memory.deleteThread(t.id())).isTrue();
            assertThat(memory.findThread(t.id())).isEmpty();
            assertThat(memory.lastMessages(t.id(), 10)).isEmpty();
            assertThat(memory.listThreads(resource, 0, 10).total()).isZero();
            // a thread of the same id starts empty
            create(t.id(), 0);
            assertThat(memory.listMessages(t.id(), 0, 10).total()).isZero();
        }
    }

    @Nested
    class Messages {

        @Test
        void messagesAreAppendedInOrderWithIncreasingSeqAndReadBackVerbatim() {
            MemoryThread t = create(uniqueId("th"), 0);
            assertThat(memory.append(t.id(), List.of(msg("r1", 0, "one"), msg("r1", 1, "two \u4e16\u754c \"q\"")), T0)).isTrue();
            assertThat(memory.append(t.id(), List.of(msg("r2", 0, "three")), T0.plusSeconds(1))).isTrue();
            StoredMessagePage page = memory.listMessages(t.id(), 0, 10);
            assertThat(page.total()).isEqualTo(3);
            assertThat(contents(page.messages())).containsExactly("r1#0", "r1#1", "r2#0");
            List<StoredMessage> m = page.messages();
            assertThat(m.get(0).seq()).isLessThan(m.get(1).seq());
            assertThat(m.get(1).seq()).isLessThan(m.get(2).seq());
            assertThat(m.get(1).content()).isEqualTo(msg("r1", 1, "two \u4e16\u754c \"q\"").content());
            assertThat(m.get(2).createdAt()).isEqualTo(T0.plusSeconds(1));
            assertThat(m.get(0).threadId()).isEqualTo(t.id());
            assertThat(m.get(0).role()).isEqualTo("user");
        }

        @Test
        void appendingARunsMessageAgainIsSkippedSoARetryAfterACrashDuplicatesNothing() {
            MemoryThread t = create(uniqueId("th"), 0);
            memory.append(t.id(), List.of(msg("r1", 0, "one"), msg("r1", 1, "two")), T0);
            memory.append(t.id(), List.of(msg("r1", 1, "two"), msg("r1", 2, "three")), T0);
            assertThat(contents(memory.listMessages(t.id(), 0, 10).messages())).containsExactly("r1#0", "r1#1", "r1#2");
        }

        @Test
        void anAppendToAThreadThatDoesNotExistStoresNothing() {
            String id = uniqueId("missing");
            assertThat(memory.append(id, List.of(msg("r", 0, "x")), T0)).isFalse();
            assertThat(memory.findThread(id)).isEmpty();
            assertThat(memory.listMessages(id, 0, 10).total()).isZero();
        }

        @Test
        void theLastMessagesAreTheNewestOldestFirst() {
            MemoryThread t = create(uniqueId("th"), 0);
            for (int i = 0; i < 30; i++) memory.append(t.id(), List.of(msg("r" + i, 0, "m" + i)), T0.plusMillis(i));
            assertThat(contents(memory.lastMessages(t.id(), 3))).containsExactly("r27#0", "r28#0", "r29#0");
            assertThat(memory.lastMessages(t.id(), 100)).hasSize(30);
            assertThat(memory.lastMessages(t.id(), 0)).isEmpty();
        }

        @Test
        void messagesArePagedOldestFirstWithTheTotal() {
            MemoryThread t = create(uniqueId("th"), 0);
            List<StoredMessage.New> batch = new ArrayList<>();
            for (int i = 0; i < 7; i++) batch.add(msg("r", i, "m" + i));
            memory.append(t.id(), batch, T0);
            StoredMessagePage page = memory.listMessages(t.id(), 2, 3);
            assertThat(contents(page.messages())).containsExactly("r#2", "r#3", "r#4");
            assertThat(page.total()).isEqualTo(7);
            assertThat(memory.listMessages(t.id(), 7, 3).messages()).isEmpty();
            assertThat(memory.listMessages(t.id(), 0, 0).total()).isEqualTo(7);
        }

        @Test
        void aLargeMessageIsStoredVerbatim() {
            MemoryThread t = create(uniqueId("th"), 0);
            String big = "x".repeat(1_000_000);
            memory.append(t.id(), List.of(msg("r", 0, big)), T0);
            assertThat(memory.lastMessages(t.id(), 1).get(0).content()).isEqualTo(msg("r", 0, big).content());
        }

        @Test
        void oddIdsAreMatchedLiterally() {
            for (String id : List.of("it's \"quoted\"", "100%_*", "{$ne: 1}", "a:b:c", "\u00e9t\u00e9 \ud83d\ude00")) {
                String threadId = resource + id;
                create(threadId, 0);
                memory.append(threadId, List.of(msg(id, 0, id)), T0);
                assertThat(memory.findThread(threadId).orElseThrow().id()).isEqualTo(threadId);
                assertThat(memory.lastMessages(threadId, 5)).singleElement().extracting(StoredMessage::runId).isEqualTo(id);
            }
            assertThat(memory.findThread(resource + "100%")).isEmpty();
            assertThat(memory.listThreads(resource, 0, 10).total()).isEqualTo(5);
        }
    }

    @Nested
    class Concurrency {

        @Test
        void twoRunsAppendingToOneThreadAtTheSameTimeLoseNothingAndInterleaveWhole() throws Exception {
            MemoryThread t = create(uniqueId("th"), 0);
            int writers = 4;
            int batches = 25;
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            CountDownLatch start = new CountDownLatch(1);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    String run = "w" + w;
                    done.add(pool.submit(() -> {
                        start.await();
                        for (int b = 0; b < batches; b++) {
                            memory.append(t.id(), List.of(msg(run, 2 * b, "a"), msg(run, 2 * b + 1, "b")), Instant.now());
                        }
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> f : done) f.get(60, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            List<StoredMessage> all = memory.listMessages(t.id(), 0, 1000).messages();
            assertThat(all).hasSize(writers * batches * 2);
            for (int i = 0; i < all.size(); i += 2) {
                // each append's two messages are next to each other, in order
                assertThat(all.get(i).runId()).isEqualTo(all.get(i + 1).runId());
                assertThat(all.get(i + 1).runIndex()).isEqualTo(all.get(i).runIndex() + 1);
            }
            for (int i = 1; i < all.size(); i++) assertThat(all.get(i).seq()).isGreaterThan(all.get(i - 1).seq());
        }
    }
}
