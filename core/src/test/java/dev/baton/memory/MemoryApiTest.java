package dev.baton.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.ThreadAlreadyExistsException;
import dev.baton.ThreadNotFoundException;
import dev.baton.agent.Agent;
import dev.baton.agent.RunOptions;
import dev.baton.model.DeterministicModel;
import dev.baton.model.Message;
import dev.baton.model.Role;
import dev.baton.store.MemoryThread;
import dev.baton.store.QueryFeature;
import dev.baton.store.StoreCapability;
import dev.baton.testing.TestStore;
import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The public memory API: typed exceptions, metadata as a copy, messages read back from their stored form. */
class MemoryApiTest {
    private final TestStore store = new TestStore(EnumSet.of(StoreCapability.THREAD_MEMORY), EnumSet.of(QueryFeature.BASELINE));
    private final Memory memory = Memory.builder().store(store).build();

    @Test
    void aMissingThreadIsNotFoundAndADuplicateIsAConflict() {
        assertThat(memory.findThread("alice", "none")).isEmpty();
        assertThatThrownBy(() -> memory.updateThread("alice", "none", "t", null)).isInstanceOf(ThreadNotFoundException.class)
                .satisfies(e -> assertThat(((ThreadNotFoundException) e).threadId()).isEqualTo("none"));
        memory.createThread("t-1", "alice", "Trip", Map.of("topic", "travel"));
        assertThatThrownBy(() -> memory.createThread("t-1", "alice", null, null)).isInstanceOf(ThreadAlreadyExistsException.class);
    }

    @Test
    void metadataIsJsonTextInTheSpiAndACopyForApplications() {
        MemoryThread t = memory.createThread("t-2", "alice", "Trip", Map.of("topic", "travel"));
        assertThat(t.metadataJson()).isEqualTo("{\"topic\":\"travel\"}");
        t.metadata().put("topic", "changed by the caller");
        assertThat(memory.findThread("alice", "t-2").orElseThrow().metadata().path("topic").asText()).isEqualTo("travel");
        MemoryThread renamed = memory.updateThread("alice", "t-2", "New", Map.of("n", 2));
        assertThat(renamed.metadata().path("n").asInt()).isEqualTo(2);
        assertThatThrownBy(() -> MemoryThread.builder().id("x").metadataJson("[1]").createdAt(java.time.Instant.EPOCH)
                .updatedAt(java.time.Instant.EPOCH).build()).hasMessageContaining("JSON object");
    }

    @Test
    void aRunSavesItsMessagesWithTheirRolesAndTheyReadBackAsMessages() {
        Agent agent = Agent.builder("a").store(store).memory(Memory.builder().build())
                .model(DeterministicModel.builder().build()).build();
        agent.generate("hello", RunOptions.builder().threadId("t-3").resourceId("bob").build());
        Memory bound = agent.memory().orElseThrow();
        MessagePage page = bound.listMessages("bob", "t-3", 10, 0);
        assertThat(page.messages()).extracting(ThreadMessage::message)
                .containsExactly(new Message.User("hello"), new Message.Assistant("You said: hello", java.util.List.of()));
        assertThat(store.memory().orElseThrow().lastMessages("bob\u001Ft-3", 10)).extracting(m -> m.role())
                .containsExactly(Role.USER, Role.ASSISTANT);
    }
}
