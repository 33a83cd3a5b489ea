package dev.baton.tck.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOutcome;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.SimulatedCrash;
import dev.baton.tck.support.StoreUnderTest;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A claim whose lease lapsed is listed again and finished by another instance (the old holder's
 * late result fails), a stored tool result is never run again after a crash, and a heartbeat extends
 * the lease while a long tool runs.
 */
public abstract class Leases extends AgentRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Leases(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aClaimWhoseLeaseExpiredIsListedAgainAndTheNewHolderFinishesIt() {
        Agent first = agentBuilder(agentId).instanceId("server-a").leaseDuration(Duration.ofSeconds(30)).build();
        AgentResult r = suspendForApproval(first, "t", "u");
        AgentStream abandoned = first.approveToolCall(r.runId(), onlyCallId(r));
        assertThat(first.listSuspendedRuns().total()).isZero();
        clock.advance(Duration.ofSeconds(29));
        assertThat(first.listSuspendedRuns().total()).isZero();
        clock.advance(Duration.ofSeconds(1));
        Agent second = agentBuilder(agentId).instanceId("server-b").build();
        AgentListSuspendedRunsResult listed = second.listSuspendedRuns(options().threadId("t").build());
        assertThat(runIds(listed)).containsExactly(r.runId());
        // the approval was recorded when it was claimed: nothing waits for a human, the run is continued
        assertThat(listed.runs().get(0).toolCalls()).isEmpty();
        assertThat(listed.runs().get(0).interruption()).contains("server-a").contains("lapsed");
        // the approval was recorded before the crash: a second one says so, and names continueRun (rule D8)
        assertThatThrownBy(() -> second.approveToolCall(r.runId(), onlyCallId(r)))
                .isInstanceOf(dev.baton.AlreadyDecidedException.class).hasMessageContaining("continueRun");
        assertThat(second.continueRun(r.runId()).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        // the old holder wakes up: its claim is gone, so it must not run the tool again
        AgentResult late = abandoned.result();
        assertThat(late.outcome()).isEqualTo(RunOutcome.FAILED);
        assertThat(late.error()).isInstanceOf(dev.baton.LeaseLostException.class);
        assertThat(bookings).hasValue(1);
    }

    @Test
    void aToolResultIsStoredBeforeTheModelIsCalledAgainSoACrashNeverRunsItTwice() {
        AtomicInteger modelCalls = new AtomicInteger();
        LanguageModel crashesOnceAfterTheTool = request -> {
            if (!(request.lastMessage() instanceof Message.User) && modelCalls.incrementAndGet() == 1) {
                throw new SimulatedCrash("simulated crash");
            }
            return rules().build().stream(request);
        };
        Agent doomed = agentBuilder(agentId).model(crashesOnceAfterTheTool).instanceId("doomed")
                .leaseDuration(Duration.ofSeconds(10)).build();
        AgentResult r = suspendForApproval(doomed, "t", "u");
        AgentStream stream = doomed.approveToolCall(r.runId(), onlyCallId(r));
        assertThatThrownBy(stream::result).isInstanceOf(SimulatedCrash.class);
        assertThat(bookings).hasValue(1);
        assertThat(doomed.listSuspendedRuns().total()).isZero();
        clock.advance(Duration.ofSeconds(10));
        Agent recovered = agentBuilder(agentId).instanceId("recovered").build();
        AgentRun run = recovered.listSuspendedRuns().runs().get(0);
        assertThat(run.runId()).isEqualTo(r.runId());
        assertThat(run.interrupted()).isTrue();
        assertThat(run.toolCalls()).as("nothing waits for a human: the tool's result is stored").isEmpty();
        AgentResult done = recovered.continueRun(run.runId()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.text()).contains("SFO");
        assertThat(bookings).as("the stored result was used; the tool did not run again").hasValue(1);
    }

    @Test
    void aHeartbeatExtendsTheLeaseWhileALongToolRuns() throws Exception {
        CountDownLatch extended = new CountDownLatch(1);
        AtomicReference<String> runIdRef = new AtomicReference<>();
        Map<String, Instant> firstLease = new ConcurrentHashMap<>();
        Tool slow = Tool.builder("bookFlight").requireApproval(true).execute((input, ctx) -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline) {
                RunSnapshot s = store.find(ctx.runId()).orElseThrow();
                firstLease.putIfAbsent("lease", s.leaseExpiresAt());
                if (s.leaseExpiresAt().isAfter(firstLease.get("lease"))) {
                    extended.countDown();
                    break;
                }
                Thread.sleep(20);
            }
            bookings.incrementAndGet();
            return "ok";
        }).build();
        Agent agent = Agent.builder(agentId).model(rules().build()).tools(slow).store(store)
                .clock(java.time.Clock.systemUTC()).leaseDuration(Duration.ofMillis(300)).build();
        AgentResult r = agent.generate("flight", on("t", "u"));
        runIdRef.set(r.runId());
        AgentResult done = agent.approveToolCall(r.runId(), onlyCallId(r)).result();
        assertThat(extended.await(0, TimeUnit.SECONDS)).as("the lease was extended during the tool").isTrue();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(bookings).hasValue(1);
    }
}
