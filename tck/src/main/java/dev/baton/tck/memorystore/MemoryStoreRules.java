package dev.baton.tck.memorystore;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.model.Role;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.StoreCapability;
import dev.baton.store.StoredMessage;
import dev.baton.tck.support.Snapshots;
import dev.baton.tck.support.StoreRules;
import dev.baton.tck.support.StoreUnderTest;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every rule group of {@code MemoryStoreContract} works with: the store of the running test,
 * opened before it and closed after it (the test is skipped if the store has no thread memory),
 * its {@link MemoryStore}, and a resource id of its own.
 */
abstract class MemoryStoreRules extends StoreRules {
    /**
     * The metadata every test thread starts with: JSON text a parse-and-write would change (spaces,
     * {@code 1.50}, key order), so that a store that does not keep it verbatim fails.
     */
    static final String METADATA = "{\"topic\": \"travel\", \"price\":1.50,\"a\" :[ ]}";

    /** Its thread memory. */
    MemoryStore memory;
    /** A resource id owned by the running test. */
    final String resource = uniqueId("tck-user");

    MemoryStoreRules(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @BeforeEach
    void needsThreadMemory() {
        assumeTrue(store.capabilities().contains(StoreCapability.THREAD_MEMORY), "the store has no thread memory");
        memory = store.memory().orElseThrow(() -> new AssertionError("THREAD_MEMORY is declared but memory() is empty"));
    }

    MemoryThread thread(String id, long updatedOffsetMillis) {
        return MemoryThread.builder().id(id).resourceId(resource).title("Title of " + id).metadataJson(METADATA)
                .createdAt(T0).updatedAt(T0.plusMillis(updatedOffsetMillis)).build();
    }

    MemoryThread create(String id, long updatedOffsetMillis) {
        MemoryThread t = thread(id, updatedOffsetMillis);
        assertThat(memory.createThread(t)).isTrue();
        return t;
    }

    static StoredMessage.New msg(String runId, int index, String text) {
        return StoredMessage.New.builder().runId(runId).runIndex(index).role(Role.USER)
                .content("{\"role\":\"user\",\"text\":" + Snapshots.json(text) + "}").build();
    }

    static List<String> contents(List<StoredMessage> messages) {
        return messages.stream().map(m -> m.runId() + "#" + m.runIndex()).toList();
    }
}
