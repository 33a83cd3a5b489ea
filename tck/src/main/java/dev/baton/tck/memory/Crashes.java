package dev.baton.tck.memory;

import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOutcome;
import dev.baton.model.Message;
import dev.baton.tck.support.FaultyStore;
import dev.baton.tck.support.SimulatedCrash;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * A crash at any write, snapshot or memory, followed by recovery leaves the thread without
 * duplicates or gaps.
 */
public abstract class Crashes extends MemoryRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Crashes(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    /** The run the crash tests replay in a thread: approve a booking, then answer. */
    private String drive(Agent agent) {
        AgentResult r = agent.generate("Book me a flight", inThread());
        agent.approveToolCall(r.runId(), r.waitingCalls().get(0).toolCallId()).result();
        return r.runId();
    }

    @TestFactory
    Stream<DynamicTest> aCrashAtAnyWriteFollowedByRecoveryLeavesTheThreadWithoutDuplicatesOrGaps() {
        return atEveryWrite(counting -> agentBuilder(counting, 20).build(), this::crashAndRecover);
    }

    /**
     * What a recovering instance does: up to five rounds of continuing (or approving the waiting call of) the
     * thread's suspended run, each ending completed or suspended again.
     */
    private void finishTheThreadsRuns(Agent recovered) {
        for (int round = 0; round < 5; round++) {
            List<AgentRun> runs = recovered.listSuspendedRuns(dev.baton.agent.AgentListSuspendedRunsOptions.builder()
                    .threadId(thread).build()).runs();
            if (runs.isEmpty()) break;
            AgentRun run = runs.get(0);
            AgentResult r = run.toolCalls().isEmpty() ? recovered.continueRun(run.runId()).result()
                    : recovered.approveToolCall(run.runId(), run.toolCalls().get(0).toolCallId()).result();
            assertThat(r.outcome()).as("%s", r.error()).isIn(RunOutcome.COMPLETED, RunOutcome.SUSPENDED);
        }
    }

    /** A test of a crash before or after write {@code n}. */
    @FunctionalInterface
    private interface CrashAt {
        void test(int n, boolean after);
    }

    /**
     * Drives one run of the agent {@code agent} builds on a counting store, then makes two tests of each write it
     * made: {@code test} with a crash before that write, and with a crash after it.
     */
    private Stream<DynamicTest> atEveryWrite(java.util.function.Function<FaultyStore, Agent> agent, CrashAt test) {
        FaultyStore counting = new FaultyStore(store);
        drive(agent.apply(counting));
        List<FaultyStore.Write> writes = counting.log();
        List<DynamicTest> tests = new ArrayList<>();
        for (FaultyStore.Write w : writes) {
            for (boolean after : new boolean[] {false, true}) {
                tests.add(DynamicTest.dynamicTest("crash " + (after ? "after" : "before") + " write " + w.number() + " of "
                        + writes.size() + " (" + w.operation() + ")", () -> test.test(w.number(), after)));
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
        finishTheThreadsRuns(recovered);
        List<Message> saved = recovered.memory().orElseThrow().findThread(user, thread).isPresent()
                ? threadMessages(recovered) : List.of();
        List<String> roles = roles(saved);
        if (bookings.get() == 0 && recovered.listSuspendedRuns().total() == 0 && !storedEver(dying)) {
            // it died before the run was first stored: the run is nowhere, and so is anything of it in its thread
            assertThat(roles).as("rule M4: the thread of a run stored nowhere, after a crash %s write %d",
                    after ? "after" : "before", n).isEmpty();
            return;
        }
        assertThat(roles).as("rule M4: the thread after a crash %s write %d", after ? "after" : "before", n)
                .containsExactly("user", "assistant-calls", "tool", "assistant");
    }

    /** True if the dying store wrote the run's first snapshot before it died. */
    private static boolean storedEver(FaultyStore dying) {
        return dying.log().stream().anyMatch(w -> w.operation().startsWith("insert"));
    }

    /**
     * Rule M4 at run start: a new run is saved to its thread only once it is stored (it waits, or stops
     * part-way) or when it ends, so a run stored nowhere leaves nothing in its thread. A crash before
     * the run's first write leaves the thread empty and no run; a run whose model fails before it is
     * stored leaves the thread empty; a run that waits has its question in the thread as soon as it is
     * stored (rule M3); a run that ends without waiting saves its question and answer together.
     */
    @Test
    void aRunStoredNowhereLeavesNothingInItsThread() {
        FaultyStore counting = new FaultyStore(store);
        AgentResult waiting = agentBuilder(counting, 20).build().generate("Book me a flight", inThread());
        int insert = counting.log().stream().filter(w -> w.operation().startsWith("insert")).findFirst()
                .orElseThrow(() -> new AssertionError("the run that waits was never inserted: " + counting.log())).number();
        assertThat(roles(threadMessages(agent()))).as("rule M3: the thread of a run that waits, once it is stored")
                .containsExactly("user");
        agent().approveToolCall(waiting.runId(), waiting.waitingCalls().get(0).toolCallId()).result();

        thread = uniqueId("thread");
        FaultyStore dying = new FaultyStore(store).crashAt(insert, false);
        assertThatThrownBy(() -> agentBuilder(dying, 20).instanceId("doomed").build().generate("Book me a flight", inThread()))
                .as("rule M4: a crash before the new run's first write").isInstanceOf(SimulatedCrash.class);
        assertThat(agent().listSuspendedRuns().total()).as("rule M4: runs stored by the crashed run").isZero();
        assertThat(threadMessages(agent())).as("rule M4: the thread of a run that crashed before it was stored").isEmpty();

        thread = uniqueId("thread");
        Agent failing = agentBuilder(store, 20, bookFlight()).model(request -> {
            throw new IllegalStateException("provider answered 503");
        }).build();
        assertThat(failing.generate("Book me a flight", inThread()).outcome()).as("rule M4: a new run whose model fails")
                .isEqualTo(RunOutcome.FAILED);
        assertThat(threadMessages(agent())).as("rule M4: the thread of a run that failed before it was stored").isEmpty();

        thread = uniqueId("thread");
        assertThat(agent().generate("hello", inThread()).outcome()).as("a run that ends without waiting")
                .isEqualTo(RunOutcome.COMPLETED);
        assertThat(roles(threadMessages(agent()))).as("rule M2: the thread of a run that ended without waiting")
                .containsExactly("user", "assistant");
    }

    /** The booking tool of the history tests: its result names the attempt, so a redone call shows. */
    private AgentBuilder attemptsAgent(dev.baton.store.SnapshotStore s, String instance) {
        dev.baton.tool.Tool tool = dev.baton.tool.Tool.builder("bookFlight").requireApproval(true).execute((input, ctx) -> {
            bookings.incrementAndGet();
            return java.util.Map.of("booked", "SFO-attempt" + ctx.attempt());
        }).build();
        return agentBuilder(s, 20, tool).instanceId(instance);
    }

    @TestFactory
    Stream<DynamicTest> afterACrashAtAnyWriteTheThreadAgreesWithWhatTheRunFinallyDid() {
        return atEveryWrite(counting -> attemptsAgent(counting, "counting").build(), this::crashAndCompare);
    }

    private void crashAndCompare(int n, boolean after) {
        thread = uniqueId("thread");
        FaultyStore dying = new FaultyStore(store).crashAt(n, after);
        assertThatThrownBy(() -> drive(attemptsAgent(dying, "doomed").build())).isInstanceOf(SimulatedCrash.class);
        clock.advance(Duration.ofMinutes(5));
        Agent recovered = attemptsAgent(store, "recovered").build();
        modelInputs.clear();
        finishTheThreadsRuns(recovered);
        if (recovered.memory().orElseThrow().findThread(user, thread).isEmpty()) return;
        List<dev.baton.memory.ThreadMessage> saved = recovered.memory().orElseThrow().listMessages(user, thread, 1000, 0).messages();
        for (int i = 1; i < saved.size(); i++) {
            assertThat(saved.get(i).seq()).as("no sequence number is skipped (crash %s write %d)", after ? "after" : "before", n)
                    .isEqualTo(saved.get(i - 1).seq() + 1);
        }
        List<Message> kept = saved.stream().map(dev.baton.memory.ThreadMessage::message).toList();
        List<Message.ToolResult> keptResults = kept.stream().filter(m -> m instanceof Message.ToolResult)
                .map(m -> (Message.ToolResult) m).toList();
        if (modelInputs.isEmpty()) {
            // the recovered run did not call the model: what the thread holds was all done before the crash
            assertThat(roles(kept)).isIn(List.of(), List.of("user"), List.of("user", "assistant-calls", "tool", "assistant"));
            return;
        }
        List<Message> lastSeen = modelInputs.get(modelInputs.size() - 1);
        List<Message.ToolResult> used = lastSeen.stream().filter(m -> m instanceof Message.ToolResult)
                .map(m -> (Message.ToolResult) m).toList();
        assertThat(keptResults).as("the thread's tool results are the ones the run answered with (crash %s write %d)",
                after ? "after" : "before", n).isEqualTo(used);
        assertThat(roles(kept)).containsExactly("user", "assistant-calls", "tool", "assistant");
    }
}
