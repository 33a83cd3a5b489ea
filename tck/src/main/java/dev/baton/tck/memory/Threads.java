package dev.baton.tck.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.ThreadOwnershipException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.memory.Memory;
import dev.baton.store.MemoryThread;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ownership of threads: a run naming a new thread creates it for its resource, a run naming another
 * resource's thread is refused and stores nothing; threads are managed through the agent's memory; a
 * deleted thread stays deleted when a run suspended on it goes on.
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
        MemoryThread t = agent.memory().orElseThrow().findThread(thread).orElseThrow();
        assertThat(t.resourceId()).isEqualTo(user);
        assertThat(agent.memory().orElseThrow().listThreads(user, 10, 0).threads()).extracting(MemoryThread::id)
                .containsExactly(thread);
    }

    @Test
    void aRunNamingAnotherResourcesThreadIsRefusedAndNothingIsStored() {
        Agent agent = agent();
        agent.generate("hello", inThread());
        long before = agent.memory().orElseThrow().listMessages(thread, 10, 0).total();
        assertThatThrownBy(() -> agent.generate("Book me a flight", RunOptions.builder().threadId(thread)
                .resourceId(user + "-intruder").build())).isInstanceOf(ThreadOwnershipException.class)
                .hasMessageContaining(thread);
        assertThat(agent.memory().orElseThrow().listMessages(thread, 10, 0).total()).isEqualTo(before);
        assertThat(agent.listSuspendedRuns().total()).isZero();
        assertThat(bookings).hasValue(0);
    }

    @Test
    void threadsAreManagedThroughTheAgentsMemory() {
        Memory memory = agent().memory().orElseThrow();
        MemoryThread t = memory.createThread(user, "Trip to SF", Map.of("topic", "travel"));
        assertThat(memory.findThread(t.id())).contains(t);
        clock.advance(Duration.ofMinutes(1));
        MemoryThread renamed = memory.updateThread(t.id(), "Trip to LA", null);
        assertThat(renamed.title()).isEqualTo("Trip to LA");
        assertThat(renamed.metadata().path("topic").asText()).isEqualTo("travel");
        clock.advance(Duration.ofMinutes(1));
        MemoryThread other = memory.createThread(user, "Other", null);
        assertThat(memory.listThreads(user, 10, 0).threads()).as("newest update first").extracting(MemoryThread::id)
                .containsExactly(other.id(), renamed.id());
        assertThat(memory.listThreads(user, 1, 1).total()).isEqualTo(2);
        assertThat(memory.deleteThread(t.id())).isTrue();
        assertThat(memory.findThread(t.id())).isEmpty();
    }

    @Test
    void aDeletedThreadStaysDeletedWhenARunSuspendedOnItGoesOn() {
        Agent agent = agent();
        AgentResult r = agent.generate("Book me a flight", inThread());
        assertThat(agent.memory().orElseThrow().deleteThread(thread)).isTrue();
        AgentResult done = agent.approveToolCall(r.runId(), r.waitingCalls().get(0).toolCallId()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(agent.memory().orElseThrow().findThread(thread)).isEmpty();
    }
}
