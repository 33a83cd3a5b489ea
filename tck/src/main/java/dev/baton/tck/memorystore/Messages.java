package dev.baton.tck.memorystore;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.model.Role;
import dev.baton.store.MemoryThread;
import dev.baton.store.StoredMessage;
import dev.baton.store.StoredMessagePage;
import dev.baton.tck.support.StoreUnderTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Messages are appended in order with a rising {@code seq} and read back verbatim (1 MB too); a run's
 * message appended again is skipped, so a retry after a crash duplicates nothing; nothing is stored
 * for a missing thread; the last {@code n} and pages, oldest first; odd ids matched literally.
 */
public abstract class Messages extends MemoryStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Messages(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

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
        assertThat(m.get(0).role()).isEqualTo(Role.USER);
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
