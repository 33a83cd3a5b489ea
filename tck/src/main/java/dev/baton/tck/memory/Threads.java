package dev.baton.tck.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.ThreadAlreadyExistsException;
import dev.baton.ThreadOwnershipException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.memory.Memory;
import dev.baton.memory.ThreadMessage;
import dev.baton.model.Message;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Threads belong to a resource, and thread ids are scoped by it: a run naming a thread its resource
 * does not have creates it for its resource, whatever threads of that id other resources have; two
 * resources naming one thread id have two threads, and neither sees, finds or blocks the other's;
 * threads are managed through the agent's memory; a deleted thread stays deleted when a run
 * suspended on it goes on.
 */
public abstract class Threads extends MemoryRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Threads(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aRunNamingANewThreadCreatesItForItsResource() {
        Agent agent = agent();
        agent.generate("hello", inThread());
        MemoryThread t = agent.memory().orElseThrow().findThread(user, thread).orElseThrow();
        assertThat(t.resourceId()).as("rule M6: the owner of a thread a run created").isEqualTo(user);
        assertThat(t.id()).as("rule M6: the thread's id as the memory API shows it").isEqualTo(thread);
        assertThat(agent.memory().orElseThrow().listThreads(user, 10, 0).threads()).extracting(MemoryThread::id)
                .as("rule M6: the resource's threads").containsExactly(thread);
    }

    /**
     * Rule M6: thread ids are scoped by resource. Alice's run on thread {@code t}, then carol's run on
     * the same thread id: two threads, each run sees only its own resource's history, neither is
     * refused, and neither resource finds, lists or reads the other's thread; a run without a resource
     * is one more scope. Nothing tells a resource whether another uses a thread id.
     */
    @Test
    void twoResourcesNamingOneThreadIdHaveTwoThreadsAndNeitherSeesNorBlocksTheOther() {
        Agent agent = agent();
        Memory memory = agent.memory().orElseThrow();
        String carol = user + "-carol";
        agent.generate("hello from alice", inThread());
        modelInputs.clear();
        AgentResult carols = agent.generate("Book me a flight", RunOptions.builder().threadId(thread).resourceId(carol).build());
        assertThat(carols.outcome()).as("rule M6: carol's run on a thread id alice uses").isEqualTo(RunOutcome.SUSPENDED);
        assertThat(modelInputs.get(0)).as("rule M6: what carol's run sees of the thread (her own message only)")
                .containsExactly(new Message.User("Book me a flight"));
        assertThat(memory.findThread(carol, thread).orElseThrow().resourceId()).as("rule M6: carol's thread").isEqualTo(carol);
        assertThat(memory.listThreads(carol, 10, 0).threads()).extracting(MemoryThread::id)
                .as("rule M6: carol's threads").containsExactly(thread);
        assertThat(roles(messages(memory, carol))).as("rule M6: carol's thread holds her messages only").containsExactly("user");
        assertThat(roles(messages(memory, user))).as("rule M6: alice's thread is untouched by carol's run")
                .containsExactly("user", "assistant");
        assertThat(memory.findThread(null, thread)).as("rule M6: the thread without a resource of that id").isEmpty();
        assertThat(memory.listMessages(null, thread, 10, 0).total()).as("rule M6: messages without a resource").isZero();

        agent.approveToolCall(carols.runId(), carols.waitingCalls().get(0).toolCallId()).result();
        agent.generate("hello again from alice", inThread());
        assertThat(roles(messages(memory, user))).as("rule M6: alice's thread after carol's run ended")
                .containsExactly("user", "assistant", "user", "assistant");
        assertThat(roles(messages(memory, carol))).as("rule M6: carol's thread after her run ended")
                .containsExactly("user", "assistant-calls", "tool", "assistant");
        assertThat(memory.deleteThread(carol, thread)).as("rule M6: carol deletes her thread").isTrue();
        assertThat(memory.findThread(user, thread)).as("rule M6: alice's thread after carol deleted hers").isPresent();
        assertThat(bookings).as("rule M6: bookings").hasValue(1);
    }

    /**
     * Rule M6 and stored data: a thread that a build before thread scoping stored for a resource
     * under its bare thread id is still that resource's thread (its runs read and save it, the memory
     * API finds, lists and deletes it), and still nothing to another resource; a run without a
     * resource naming it gets {@link ThreadOwnershipException} and nothing is stored.
     */
    @Test
    void aThreadStoredUnderItsBareIdBeforeThreadScopingStaysItsResourcesThread() {
        Agent agent = agent();
        Memory memory = agent.memory().orElseThrow();
        MemoryStore raw = store.memory().orElseThrow();
        MemoryThread legacy = MemoryThread.builder().id(thread).resourceId(user).title("old").createdAt(clock.instant())
                .updatedAt(clock.instant()).build();
        assertThat(raw.createThread(legacy)).isTrue();
        agent.generate("hello", inThread());
        assertThat(raw.listMessages(thread, 0, 10).total()).as("rule M6: messages saved to the thread under its bare id")
                .isEqualTo(2);
        assertThat(memory.findThread(user, thread).orElseThrow().title()).as("rule M6: the old thread found").isEqualTo("old");
        assertThat(memory.listThreads(user, 10, 0).threads()).extracting(MemoryThread::id)
                .as("rule M6: the resource's threads, the old one once").containsExactly(thread);
        String carol = user + "-carol";
        assertThat(memory.findThread(carol, thread)).as("rule M6: another resource finds no thread").isEmpty();
        assertThat(agent.generate("hi", RunOptions.builder().threadId(thread).resourceId(carol).build()).outcome())
                .as("rule M6: another resource's run on that thread id").isEqualTo(RunOutcome.COMPLETED);
        assertThat(raw.listMessages(thread, 0, 10).total()).as("rule M6: the old thread after another resource's run")
                .isEqualTo(2);
        assertThatThrownBy(() -> agent.generate("Book me a flight", RunOptions.builder().threadId(thread).build()))
                .as("rule M6: a run without a resource on the old thread").isInstanceOf(ThreadOwnershipException.class)
                .hasMessageContaining(thread);
        assertThat(agent.listSuspendedRuns().total()).as("rule M6: runs stored by the refused run").isZero();
        assertThat(memory.deleteThread(user, thread)).as("rule M6: the old thread deleted").isTrue();
        assertThat(raw.findThread(thread)).as("rule M6: the old thread after its delete").isEmpty();
        assertThat(bookings).as("rule M6: bookings").hasValue(0);
    }

    @Test
    void threadsAreManagedThroughTheAgentsMemory() {
        Memory memory = agent().memory().orElseThrow();
        MemoryThread t = memory.createThread(user, "Trip to SF", Map.of("topic", "travel"));
        assertThat(memory.findThread(user, t.id())).as("rule M6: a created thread found by its resource and id").contains(t);
        clock.advance(Duration.ofMinutes(1));
        MemoryThread renamed = memory.updateThread(user, t.id(), "Trip to LA", null);
        assertThat(renamed.title()).as("rule M6: the new title").isEqualTo("Trip to LA");
        assertThat(renamed.metadata().path("topic").asText()).as("rule M6: metadata kept by a null").isEqualTo("travel");
        clock.advance(Duration.ofMinutes(1));
        MemoryThread other = memory.createThread(user, "Other", null);
        assertThat(memory.listThreads(user, 10, 0).threads()).as("rule M6: newest update first").extracting(MemoryThread::id)
                .containsExactly(other.id(), renamed.id());
        assertThat(memory.listThreads(user, 1, 1).total()).as("rule M6: the total of a page").isEqualTo(2);
        assertThatThrownBy(() -> memory.createThread(t.id(), user, "again", null)).as("rule M6: the same thread again")
                .isInstanceOf(ThreadAlreadyExistsException.class);
        assertThat(memory.createThread(t.id(), user + "-carol", "carol's", null).resourceId())
                .as("rule M6: another resource creates a thread of the same id").isEqualTo(user + "-carol");
        assertThat(memory.deleteThread(user + "-other", t.id())).as("rule M6: another resource deletes nothing").isFalse();
        assertThat(memory.deleteThread(user, t.id())).as("rule M6: the thread deleted").isTrue();
        assertThat(memory.findThread(user, t.id())).as("rule M6: the deleted thread").isEmpty();
        assertThat(memory.findThread(user + "-carol", t.id())).as("rule M6: the other resource's thread of that id").isPresent();
    }

    @Test
    void aDeletedThreadStaysDeletedWhenARunSuspendedOnItGoesOn() {
        Agent agent = agent();
        AgentResult r = agent.generate("Book me a flight", inThread());
        assertThat(agent.memory().orElseThrow().deleteThread(user, thread)).as("rule M7: the thread deleted").isTrue();
        AgentResult done = agent.approveToolCall(r.runId(), r.waitingCalls().get(0).toolCallId()).result();
        assertThat(done.outcome()).as("rule M7: the run suspended on the deleted thread").isEqualTo(RunOutcome.COMPLETED);
        assertThat(agent.memory().orElseThrow().findThread(user, thread)).as("rule M7: the deleted thread").isEmpty();
    }

    private List<Message> messages(Memory memory, String resource) {
        return memory.listMessages(resource, thread, 100, 0).messages().stream().map(ThreadMessage::message).toList();
    }
}
