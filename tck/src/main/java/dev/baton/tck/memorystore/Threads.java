package dev.baton.tck.memorystore;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.MemoryThread;
import dev.baton.store.StoredMessage;
import dev.baton.store.ThreadPage;
import dev.baton.tck.support.StoreUnderTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Threads are stored and read back with every field, created once, updated (title, metadata and
 * update time, never the owner), listed by resource newest update first with the total and paging,
 * moved to the front by an append, and deleted with their messages.
 */
public abstract class Threads extends MemoryStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Threads(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aThreadIsStoredAndReadBackWithEveryField() {
        MemoryThread t = create(uniqueId("th"), 5);
        assertThat(memory.findThread(t.id())).contains(t);
    }

    @Test
    void creatingAThreadTwiceIsRefusedAndChangesNothing() {
        MemoryThread t = create(uniqueId("th"), 5);
        MemoryThread other = MemoryThread.builder().id(t.id()).resourceId(resource + "-x").title("other")
                .createdAt(T0).updatedAt(T0).build();
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
        MemoryThread changed = t.updated("New title", "{\"n\":2}", T0.plusSeconds(60));
        assertThat(memory.updateThread(changed)).isTrue();
        MemoryThread back = memory.findThread(t.id()).orElseThrow();
        assertThat(back.title()).isEqualTo("New title");
        assertThat(back.metadataJson()).isEqualTo("{\"n\":2}");
        assertThat(back.updatedAt()).isEqualTo(T0.plusSeconds(60));
        assertThat(back.resourceId()).isEqualTo(resource);
        assertThat(back.createdAt()).isEqualTo(T0);
    }

    @Test
    void aResourcesThreadsAreListedNewestUpdateFirstWithTheTotalAndPaging() {
        for (int i = 0; i < 5; i++) create(resource + "-t" + i, i * 1000L);
        memory.createThread(MemoryThread.builder().id(uniqueId("foreign")).resourceId(resource + "-other")
                .createdAt(T0).updatedAt(T0).build());
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

    /**
     * Thread keys ({@code MemoryStore}, "Thread keys"): core keeps a resource's thread under
     * {@code resourceId + U+001F + threadId}, up to 511 UTF-8 bytes; the store keeps such a key
     * verbatim and matches it literally: created, found, appended to, read back, listed under its
     * resource and deleted, apart from the thread whose key is the bare thread id and from the key of
     * the same thread id under another resource.
     */
    @Test
    void theKeyOfAResourcesThreadIsKeptVerbatimUpToTheLongestKey() {
        String longestResource = resource + "\u00e9".repeat((255 - resource.length()) / 2);
        String longestThread = (uniqueId("t") + "t".repeat(255)).substring(0, 255);
        String key = longestResource + "\u001F" + longestThread;
        assertThat(key.getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                .as("the longest key, in UTF-8 bytes").isBetween(509, 511);
        MemoryThread t = MemoryThread.builder().id(key).resourceId(longestResource).title("longest").metadataJson(METADATA)
                .createdAt(T0).updatedAt(T0).build();
        assertThat(memory.createThread(t)).as("thread keys: the longest key created").isTrue();
        MemoryThread bare = MemoryThread.builder().id(longestThread).title("bare").createdAt(T0).updatedAt(T0).build();
        assertThat(memory.createThread(bare)).as("thread keys: the bare thread id is another thread").isTrue();
        String otherKey = resource + "-other\u001F" + longestThread;
        assertThat(memory.createThread(t.toBuilder().id(otherKey).resourceId(resource + "-other").build()))
                .as("thread keys: the same thread id under another resource is another thread").isTrue();
        assertThat(memory.findThread(key)).as("thread keys: the thread read back by its key").contains(t);
        assertThat(memory.append(key, List.of(msg("r", 0, "a"), msg("r", 1, "b")), T0.plusSeconds(1)))
                .as("thread keys: an append to the key").isTrue();
        assertThat(memory.lastMessages(key, 5)).extracting(StoredMessage::threadId)
                .as("thread keys: the key of each message read back").containsExactly(key, key);
        assertThat(memory.listMessages(key, 0, 5).total()).as("thread keys: the messages under the key").isEqualTo(2);
        assertThat(memory.listMessages(longestThread, 0, 5).total()).as("thread keys: the messages of the bare id").isZero();
        assertThat(memory.listMessages(otherKey, 0, 5).total()).as("thread keys: the messages of another resource's key")
                .isZero();
        assertThat(memory.listThreads(longestResource, 0, 5).threads()).extracting(MemoryThread::id)
                .as("thread keys: the resource's threads").containsExactly(key);
        assertThat(memory.deleteThread(key)).as("thread keys: the thread deleted by its key").isTrue();
        assertThat(memory.findThread(longestThread)).as("thread keys: the bare id after the delete").contains(bare);
        assertThat(memory.findThread(otherKey)).as("thread keys: the other resource's thread after the delete").isPresent();
        memory.deleteThread(longestThread);
        memory.deleteThread(otherKey);
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
