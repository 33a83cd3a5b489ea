package dev.baton.tck;

import static dev.baton.tck.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.ThreadOwnershipException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.memory.Memory;
import dev.baton.memory.MemoryThread;
import dev.baton.memory.ThreadMessage;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The agent half of thread memory: what a run sees of its thread and what it saves there, and when;
 * ownership of threads; suspend, decline, cancel, deletion and subagents; a crash at every write
 * (snapshot and memory) followed by recovery leaves the thread without duplicates or gaps.
 * For stores that declare {@link StoreCapability#THREAD_MEMORY}.
 */
@Execution(ExecutionMode.SAME_THREAD)
@ProvesCapability(StoreCapability.THREAD_MEMORY)
public abstract class MemoryContract {

    /** Opens a store on the database under test; the same database on every call. */
    protected abstract SnapshotStore openStore() throws Exception;

    protected SnapshotStore store;
    protected MutableClock clock;
    protected String agentId;
    protected String thread;
    protected String user;
    protected final AtomicInteger bookings = new AtomicInteger();
    protected final List<List<Message>> modelInputs = new CopyOnWriteArrayList<>();

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
        clock = new MutableClock(Instant.parse("2026-05-01T08:00:00Z"));
        agentId = uniqueId("tck-memory");
        thread = uniqueId("thread");
        user = uniqueId("user");
    }

    @AfterEach
    void closeTheStore() {
        if (store != null) store.close();
    }

    protected Tool bookFlight() {
        return Tool.builder("bookFlight").requireApproval(true).execute((input, ctx) -> {
            bookings.incrementAndGet();
            return Map.of("booked", input.path("to").asText());
        }).build();
    }

    protected LanguageModel model() {
        LanguageModel rules = DeterministicModel.builder()
                .whenUserAsks("what did i book", c -> "You booked: " + DeterministicModel.lastToolResult(c))
                .whenUserSays("flight", "bookFlight", Map.of("to", "SFO")).build();
        return request -> {
            modelInputs.add(request.messages());
            return rules.stream(request);
        };
    }

    protected Agent.Builder agentBuilder(SnapshotStore s, int lastMessages) {
        return Agent.builder(agentId).model(model()).tools(bookFlight()).store(s).clock(clock)
                .memory(Memory.builder().lastMessages(lastMessages).build()).instanceId("tck-" + agentId)
                .pickupTimeout(Duration.ofMinutes(30));
    }

    protected Agent agent() {
        return agentBuilder(store, 20).build();
    }

    protected RunOptions inThread() {
        return RunOptions.builder().threadId(thread).resourceId(user).build();
    }

    protected List<Message> threadMessages(Agent agent) {
        return agent.memory().orElseThrow().listMessages(thread, 1000, 0).messages().stream().map(ThreadMessage::message).toList();
    }

    protected static List<String> roles(List<Message> messages) {
        return messages.stream().map(m -> m instanceof Message.User ? "user" : m instanceof Message.Assistant a
                ? (a.toolCalls().isEmpty() ? "assistant" : "assistant-calls") : "tool").toList();
    }

    @Nested
    class WhatARunSeesAndSaves {

        @Test
        void aFollowUpInTheSameThreadSeesTheEarlierTurnAndOnlyMemoryCanAnswerIt() {
            Agent agent = agent();
            AgentResult first = agent.generate("Book me a flight", inThread());
            agent.approveToolCall(first.runId(), first.waitingCalls().get(0).toolCallId()).result();
            AgentResult followUp = agent.generate("What did I book?", inThread());
            assertThat(followUp.text()).contains("You booked: bookFlight").contains("SFO");
            AgentResult elsewhere = agent.generate("What did I book?", RunOptions.builder().threadId(thread + "-other")
                    .resourceId(user).build());
            assertThat(elsewhere.text()).isEqualTo("You booked: null");
        }

        @Test
        void theModelSeesTheLastNMessagesOfTheThreadThenTheRunsOwn() {
            Agent agent = agentBuilder(store, 2).build();
            agent.generate("hello one", inThread());
            agent.generate("hello two", inThread());
            modelInputs.clear();
            agent.generate("hello three", inThread());
            List<Message> seen = modelInputs.get(0);
            assertThat(seen).hasSize(3);
            assertThat(seen.get(0)).isEqualTo(new Message.User("hello two"));
            assertThat(seen.get(2)).isEqualTo(new Message.User("hello three"));
        }

        @Test
        void theUsersMessageIsSavedAtStartAndEachStepOnlyWhenItsToolCallsHaveTheirResults() {
            Agent agent = agent();
            AgentResult r = agent.generate("Book me a flight", inThread());
            assertThat(r.outcome()).isEqualTo(RunOutcome.SUSPENDED);
            assertThat(roles(threadMessages(agent))).as("while suspended: no tool call without its result")
                    .containsExactly("user");
            agent.approveToolCall(r.runId(), r.waitingCalls().get(0).toolCallId()).result();
            assertThat(roles(threadMessages(agent))).containsExactly("user", "assistant-calls", "tool", "assistant");
        }

        @Test
        void aSecondRunWhileTheFirstIsSuspendedSeesItsQuestionButNotItsPendingCall() {
            Agent agent = agent();
            agent.generate("Book me a flight", inThread());
            modelInputs.clear();
            agent.generate("hello", inThread());
            assertThat(modelInputs.get(0)).containsExactly(new Message.User("Book me a flight"), new Message.User("hello"));
        }

        @Test
        void aDeclineIsSavedAsTheCallsResult() {
            Agent agent = agent();
            AgentResult r = agent.generate("Book me a flight", inThread());
            agent.declineToolCall(r.runId(), r.waitingCalls().get(0).toolCallId(), "too expensive").result();
            List<Message> saved = threadMessages(agent);
            assertThat(roles(saved)).containsExactly("user", "assistant-calls", "tool", "assistant");
            assertThat(((Message.ToolResult) saved.get(2)).result().asText()).isEqualTo("too expensive");
            assertThat(bookings).hasValue(0);
        }

        @Test
        void aCancelledRunLeavesOnlyWhatWasComplete() {
            Agent agent = agent();
            AgentResult r = agent.generate("Book me a flight", inThread());
            agent.cancelRun(r.runId(), "no");
            assertThat(roles(threadMessages(agent))).containsExactly("user");
        }

        @Test
        void aSubagentsInnerRunNeitherReadsNorWritesMemory() {
            Agent booker = Agent.builder(agentId + "-booker").model(model()).tools(bookFlight()).store(store).clock(clock)
                    .memory(Memory.builder().build()).build();
            Agent supervisor = Agent.builder(agentId + "-supervisor").store(store).clock(clock)
                    .model(DeterministicModel.builder().whenUserSays("flight", "agent-" + booker.id(),
                            text -> Map.of("prompt", text)).build())
                    .subagents(booker).memory(Memory.builder().build()).build();
            AgentResult outer = supervisor.generate("Book me a flight", inThread());
            supervisor.approveToolCall(outer.runId(), outer.waitingCalls().get(0).toolCallId()).result();
            List<Message> saved = supervisor.memory().orElseThrow().listMessages(thread, 100, 0).messages().stream()
                    .map(ThreadMessage::message).toList();
            assertThat(roles(saved)).containsExactly("user", "assistant-calls", "tool", "assistant");
            assertThat(((Message.ToolResult) saved.get(2)).toolName()).isEqualTo("agent-" + booker.id());
        }
    }

    @Nested
    class Threads {

        @Test
        void aRunNamingANewThreadCreatesItForItsResource() {
            Agent agent = agent();
            agent.generate("hello", inThread());
            MemoryThread t = agent.memory().orElseThrow().getThreadById(thread).orElseThrow();
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
            assertThat(memory.getThreadById(t.id())).contains(t);
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
            assertThat(memory.getThreadById(t.id())).isEmpty();
        }

        @Test
        void aDeletedThreadStaysDeletedWhenARunSuspendedOnItGoesOn() {
            Agent agent = agent();
            AgentResult r = agent.generate("Book me a flight", inThread());
            assertThat(agent.memory().orElseThrow().deleteThread(thread)).isTrue();
            AgentResult done = agent.approveToolCall(r.runId(), r.waitingCalls().get(0).toolCallId()).result();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(agent.memory().orElseThrow().getThreadById(thread)).isEmpty();
        }
    }

    @Nested
    class Concurrency {

        @Test
        void runsSavingToOneThreadAtTheSameTimeLoseNothing() throws Exception {
            Agent agent = agent();
            agent.generate("hello", inThread());
            ExecutorService pool = Executors.newFixedThreadPool(4);
            CountDownLatch start = new CountDownLatch(1);
            try {
                List<Future<?>> runs = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    int n = i;
                    runs.add(pool.submit(() -> {
                        start.await();
                        for (int k = 0; k < 5; k++) agent.generate("hi " + n + "-" + k, inThread());
                        return null;
                    }));
                }
                start.countDown();
                for (Future<?> f : runs) f.get(60, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            List<Message> saved = threadMessages(agent);
            assertThat(saved).hasSize(2 + 4 * 5 * 2);
            for (int n = 0; n < 4; n++) {
                for (int k = 0; k < 5; k++) assertThat(saved).contains(new Message.User("hi " + n + "-" + k));
            }
        }
    }

    @Nested
    class Crashes {

        /** The run the crash tests replay in a thread: approve a booking, then answer. */
        private String drive(Agent agent) {
            AgentResult r = agent.generate("Book me a flight", inThread());
            agent.approveToolCall(r.runId(), r.waitingCalls().get(0).toolCallId()).result();
            return r.runId();
        }

        @TestFactory
        Stream<DynamicTest> aCrashAtAnyWriteFollowedByRecoveryLeavesTheThreadWithoutDuplicatesOrGaps() {
            FaultyStore counting = new FaultyStore(store);
            drive(agentBuilder(counting, 20).build());
            List<FaultyStore.Write> writes = counting.log();
            List<DynamicTest> tests = new ArrayList<>();
            for (FaultyStore.Write w : writes) {
                for (boolean after : new boolean[] {false, true}) {
                    tests.add(DynamicTest.dynamicTest("crash " + (after ? "after" : "before") + " write " + w.number() + " of "
                            + writes.size() + " (" + w.operation() + ")", () -> crashAndRecover(w.number(), after)));
                }
            }
            return tests.stream();
        }

        private void crashAndRecover(int n, boolean after) {
            thread = uniqueId("thread");
            bookings.set(0);
            FaultyStore dying = new FaultyStore(store).crashAt(n, after);
            assertThatThrownBy(() -> drive(agentBuilder(dying, 20).instanceId("doomed").build()))
                    .isInstanceOf(SimulatedCrash.class);
            clock.advance(Duration.ofMinutes(5));
            Agent recovered = agentBuilder(store, 20).instanceId("recovered").build();
            for (int round = 0; round < 5; round++) {
                List<AgentRun> runs = recovered.listSuspendedRuns(dev.baton.agent.AgentListSuspendedRunsOptions.builder()
                        .threadId(thread).build()).runs();
                if (runs.isEmpty()) break;
                AgentRun run = runs.get(0);
                AgentResult r = run.toolCalls().isEmpty() ? recovered.continueRun(run.runId()).result()
                        : recovered.approveToolCall(run.runId(), run.toolCalls().get(0).toolCallId()).result();
                assertThat(r.outcome()).as("%s", r.error()).isIn(RunOutcome.COMPLETED, RunOutcome.SUSPENDED);
            }
            List<Message> saved = recovered.memory().orElseThrow().getThreadById(thread).isPresent()
                    ? threadMessages(recovered) : List.of();
            List<String> roles = roles(saved);
            if (bookings.get() == 0 && recovered.listSuspendedRuns().total() == 0 && saved.size() <= 1) {
                return;   // it died before the run was first stored: at most the question was saved
            }
            assertThat(roles).as("the thread after a crash at write %d (%s)", n, after ? "after" : "before")
                    .containsExactly("user", "assistant-calls", "tool", "assistant");
        }
    }
}
