package dev.baton.tck.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.RunNotSuspendedException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.AgentStream;
import dev.baton.agent.ResumeOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Racing approvals, declines and resumes of one run (each caller its own agent instance, as separate
 * servers would be) let exactly one proceed; runs of different agents never wait on each other.
 */
public abstract class Concurrency extends AgentRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Concurrency(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void exactlyOneOfSixteenConcurrentApprovalsRunsTheToolInEachOfAHundredRounds() throws Exception {
        Agent agent = agent();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            for (int round = 0; round < 100; round++) {
                bookings.set(0);
                AgentResult r = suspendForApproval(agent, "t", "u");
                String call = onlyCallId(r);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<AgentStream>> attempts = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    // each caller is its own Agent instance, as separate servers would be
                    Agent caller = agentBuilder(agentId).instanceId("server-" + i).build();
                    attempts.add(pool.submit(() -> {
                        start.await();
                        return caller.approveToolCall(r.runId(), call);
                    }));
                }
                start.countDown();
                List<AgentStream> winners = new ArrayList<>();
                int losers = 0;
                for (Future<AgentStream> f : attempts) {
                    try {
                        winners.add(f.get(60, TimeUnit.SECONDS));
                    } catch (java.util.concurrent.ExecutionException e) {
                        assertThat(e.getCause()).isInstanceOf(RunNotSuspendedException.class)
                                .hasMessageContaining(r.runId()).hasMessageContaining("no longer suspended");
                        losers++;
                    }
                }
                assertThat(winners).as("winners in round %d", round).hasSize(1);
                assertThat(losers).isEqualTo(15);
                assertThat(winners.get(0).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
                assertThat(bookings).as("tool executions in round %d", round).hasValue(1);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void approveDeclineAndResumeRacingOnOneRunLetExactlyOneProceed() throws Exception {
        // one step, two waiting calls: c1 waits for an approval, c2 (askCity) for data
        Agent agent = agentBuilder(agentId).model(recording(scriptedCalls(call("c1", "bookFlight", "to", "SFO"),
                call("c2", "askCity")))).build();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            for (int round = 0; round < 20; round++) {
                bookings.set(0);
                resumeDataSeen.clear();
                clock.advance(Duration.ofSeconds(1));
                AgentResult r = agent.generate("go", on("t", "u"));
                assertThat(r.waitingCalls()).extracting(AgentRunToolCall::toolCallId).containsExactly("c1", "c2");
                String[] kinds = {"approve", "decline", "resume", "approve", "decline", "resume"};
                CountDownLatch start = new CountDownLatch(1);
                // every caller has tried before the winner reads its stream: a true race, no late arrivals
                CountDownLatch allTried = new CountDownLatch(kinds.length);
                List<Future<AgentResult>> attempts = new ArrayList<>();
                for (int i = 0; i < kinds.length; i++) {
                    String kind = kinds[i];
                    Agent caller = agentBuilder(agentId).model(scriptedCalls()).instanceId("server-" + i).build();
                    attempts.add(pool.submit(() -> {
                        start.await();
                        AgentStream s;
                        try {
                            s = switch (kind) {
                                case "approve" -> caller.approveToolCall(r.runId(), "c1");
                                case "decline" -> caller.declineToolCall(r.runId(), "c1", "no");
                                default -> caller.resumeStream(Map.of("name", "Rome"), ResumeOptions.of(r.runId(), "c2"));
                            };
                        } finally {
                            allTried.countDown();
                        }
                        allTried.await();
                        AgentResult result = s.result();
                        return new AgentResult(kind, result.outcome(), result.text(), result.events(),
                                result.waitingCalls(), result.error());
                    }));
                }
                start.countDown();
                List<AgentResult> winners = new ArrayList<>();
                for (Future<AgentResult> f : attempts) {
                    try {
                        winners.add(f.get(60, TimeUnit.SECONDS));
                    } catch (java.util.concurrent.ExecutionException e) {
                        assertThat(e.getCause()).isInstanceOf(RunNotSuspendedException.class)
                                .hasMessageContaining("no longer suspended");
                    }
                }
                assertThat(winners).as("winners in round %d", round).hasSize(1);
                AgentResult winner = winners.get(0);
                assertThat(winner.outcome()).as("the other call still waits").isEqualTo(RunOutcome.SUSPENDED);
                // the runId field carries which action won: the tools ran for that winner only
                switch (winner.runId()) {
                    case "approve" -> {
                        assertThat(bookings).hasValue(1);
                        assertThat(resumeDataSeen).isEmpty();
                        assertThat(winner.waitingCalls()).extracting(AgentRunToolCall::toolCallId).containsExactly("c2");
                    }
                    case "decline" -> {
                        assertThat(bookings).hasValue(0);
                        assertThat(resumeDataSeen).isEmpty();
                        assertThat(winner.waitingCalls()).extracting(AgentRunToolCall::toolCallId).containsExactly("c2");
                    }
                    default -> {
                        assertThat(bookings).hasValue(0);
                        assertThat(resumeDataSeen).singleElement().extracting(n -> n.path("name").asText()).isEqualTo("Rome");
                        assertThat(winner.waitingCalls()).extracting(AgentRunToolCall::toolCallId).containsExactly("c1");
                    }
                }
                agent.discardRun(r.runId());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void runsOfDifferentAgentsOnOneThreadNeverWaitOnEachOther() {
        Agent a = agent();
        Agent b = agentBuilder(agentId + "-b").build();
        AgentResult suspended = suspendForApproval(a, "shared-thread", "shared-user");
        AgentResult other = b.generate("What is the weather?", on("shared-thread", "shared-user"));
        assertThat(other.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(runIds(a.listSuspendedRuns())).containsExactly(suspended.runId());
    }
}
