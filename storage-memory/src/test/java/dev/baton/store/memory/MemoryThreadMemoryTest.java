package dev.baton.store.memory;

import static dev.baton.tck.support.Snapshots.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.model.Role;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.StoredMessage;
import dev.baton.tck.MemoryStoreContract;
import dev.baton.tck.support.Snapshots;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryThreadMemoryTest extends MemoryStoreContract {
    private final String resource = Snapshots.uniqueId("memory-user");

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("memory:tck-memory-contract");
    }

    private MemoryThread thread(String id) {
        return MemoryThread.builder().id(id).resourceId(resource).title("Title of " + id)
                .metadataJson("{\"topic\":\"travel\"}").createdAt(T0).updatedAt(T0).build();
    }

    private static StoredMessage.New msg(String runId, int index, String text) {
        return StoredMessage.New.builder().runId(runId).runIndex(index).role(Role.USER)
                .content("{\"role\":\"user\",\"text\":" + Snapshots.json(text) + "}").build();
    }

    @Test
    void everyHandleOnANamedStoreSeesTheSameThreadsAndAPrivateStoreSeesNone() {
        try (SnapshotStore store = openStore(); SnapshotStore other = SnapshotStores.open("memory:tck-memory-contract");
             SnapshotStore privateStore = SnapshotStores.open("memory:")) {
            MemoryStore memory = store.memory().orElseThrow();
            MemoryThread t = thread(resource + "-shared");
            assertThat(memory.createThread(t)).isTrue();
            memory.append(t.id(), List.of(msg("r", 0, "hello")), t.updatedAt());
            MemoryStore otherMemory = other.memory().orElseThrow();
            assertThat(otherMemory.findThread(t.id())).contains(t.updated(t.title(), t.metadataJson(), t.updatedAt()));
            assertThat(otherMemory.lastMessages(t.id(), 5)).extracting(StoredMessage::runId).containsExactly("r");
            assertThat(privateStore.memory().orElseThrow().findThread(t.id())).isEmpty();
        }
    }

    @Test
    void changingTheMetadataOfAThreadPassedInOrReadBackChangesNothingStored() {
        try (SnapshotStore store = openStore()) {
            MemoryStore memory = store.memory().orElseThrow();
            MemoryThread t = thread(resource + "-copy");
            assertThat(memory.createThread(t)).isTrue();
            t.metadata().put("topic", "changed by the caller");
            memory.findThread(t.id()).orElseThrow().metadata().put("topic", "changed by a reader");
            memory.listThreads(resource, 0, 1).threads().get(0).metadata().put("topic", "changed by a lister");
            assertThat(memory.findThread(t.id()).orElseThrow().metadata().path("topic").asText()).isEqualTo("travel");
        }
    }
}
