package dev.baton.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.memory.MemoryStore;
import dev.baton.memory.MemoryThread;
import dev.baton.memory.StoredMessage;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.MemoryStoreContract;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryThreadMemoryTest extends MemoryStoreContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("memory:tck-memory-contract");
    }

    @Test
    void everyHandleOnANamedStoreSeesTheSameThreadsAndAPrivateStoreSeesNone() {
        MemoryThread t = create(resource + "-shared", 0);
        memory.append(t.id(), List.of(msg("r", 0, "hello")), t.updatedAt());
        try (SnapshotStore other = SnapshotStores.open("memory:tck-memory-contract");
             SnapshotStore privateStore = SnapshotStores.open("memory:")) {
            MemoryStore otherMemory = other.memory().orElseThrow();
            assertThat(otherMemory.findThread(t.id())).contains(t.updated(t.title(), t.metadata(), t.updatedAt()));
            assertThat(otherMemory.lastMessages(t.id(), 5)).extracting(StoredMessage::runId).containsExactly("r");
            assertThat(privateStore.memory().orElseThrow().findThread(t.id())).isEmpty();
        }
    }

    @Test
    void changingTheMetadataOfAThreadPassedInOrReadBackChangesNothingStored() {
        MemoryThread t = thread(resource + "-copy", 0);
        assertThat(memory.createThread(t)).isTrue();
        t.metadata().put("topic", "changed by the caller");
        memory.findThread(t.id()).orElseThrow().metadata().put("topic", "changed by a reader");
        memory.listThreads(resource, 0, 1).threads().get(0).metadata().put("topic", "changed by a lister");
        assertThat(memory.findThread(t.id()).orElseThrow().metadata().path("topic").asText()).isEqualTo("travel");
    }
}
