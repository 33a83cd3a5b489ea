package dev.baton.tck.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.ExpiryPolicy;
import dev.baton.agent.ExpiryReport;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.Message;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs that wait past their timeout (from the run, else the tool, else the agent, and listed) are
 * expired by policy: none without one, declined or cancelled with one, soonest first up to the
 * limit, and each due run exactly once when several instances expire at once.
 */
public abstract class Expiry extends LifecycleRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Expiry(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aWaitTimeoutComesFromTheRunElseTheToolElseTheAgentAndIsListed() {
        Agent agent = agentBuilder(agentId).waitTimeout(Duration.ofHours(1)).build();
        AgentResult byAgent = suspend(agent);
        Instant at = clock.instant();
        AgentResult byTool = suspend(agent, "Which city?", RunOptions.DEFAULT);
        Instant toolAt = clock.instant();
        AgentResult byRun = suspend(agent, "Book a flight", RunOptions.builder().waitTimeout(Duration.ofSeconds(30)).build());
        Instant runAt = clock.instant();
        Map<String, AgentRun> listed = new java.util.HashMap<>();
        for (AgentRun run : agent.listSuspendedRuns().runs()) listed.put(run.runId(), run);
        assertThat(listed.get(byAgent.runId()).expiresAt()).isEqualTo(at.plus(Duration.ofHours(1)));
        assertThat(listed.get(byAgent.runId()).toolCalls().get(0).expiresAt()).isEqualTo(at.plus(Duration.ofHours(1)));
        assertThat(listed.get(byTool.runId()).expiresAt()).isEqualTo(toolAt.plus(Duration.ofMinutes(5)));
        assertThat(listed.get(byRun.runId()).expiresAt()).isEqualTo(runAt.plusSeconds(30));
        assertThat(listed.get(byRun.runId()).createdAt()).isEqualTo(runAt);
    }

    @Test
    void withoutAPolicyNothingExpiresAndRunsWithoutATimeoutNeverExpire() {
        Agent keeps = agentBuilder(agentId).waitTimeout(Duration.ofMinutes(1)).build();
        AgentResult r = suspend(keeps);
        clock.advance(Duration.ofDays(3));
        assertThat(keeps.expireDueRuns(10).runs()).isEmpty();
        Agent declines = agentBuilder(agentId + "-2").onExpiry(ExpiryPolicy.decline("too late")).build();
        AgentResult forever = suspend(declines);
        clock.advance(Duration.ofDays(3));
        assertThat(declines.expireDueRuns(10).runs()).isEmpty();
        assertThat(keeps.listSuspendedRuns().runs()).extracting(AgentRun::runId).containsExactly(r.runId());
        assertThat(declines.listSuspendedRuns().runs()).extracting(AgentRun::runId).containsExactly(forever.runId());
    }

    @Test
    void theDeclinePolicyDeclinesExpiredCallsTellsTheModelAndTheRunGoesOn() {
        Agent agent = agentBuilder(agentId).waitTimeout(Duration.ofMinutes(10))
                .onExpiry(ExpiryPolicy.decline("No answer within 10 minutes")).build();
        AgentResult r = suspend(agent);
        clock.advance(Duration.ofMinutes(9));
        assertThat(agent.expireDueRuns(10).runs()).as("not due yet").isEmpty();
        clock.advance(Duration.ofMinutes(1));
        ExpiryReport report = agent.expireDueRuns(10);
        assertThat(report.handled()).isEqualTo(1);
        ExpiryReport.Expired e = report.runs().get(0);
        assertThat(e.runId()).isEqualTo(r.runId());
        assertThat(e.toolCallIds()).containsExactly(callId(r));
        assertThat(e.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(bookings).hasValue(0);
        List<Message> last = modelInputs.get(modelInputs.size() - 1);
        assertThat(last.get(last.size() - 1)).isInstanceOfSatisfying(Message.ToolResult.class,
                tr -> assertThat(tr.result().asText()).isEqualTo("No answer within 10 minutes"));
        assertThat(store.find(r.runId())).isEmpty();
    }

    @Test
    void theCancelPolicyCancelsExpiredRuns() {
        Agent agent = agentBuilder(agentId).onExpiry(ExpiryPolicy.cancel("abandoned")).build();
        AgentResult r = suspend(agent, "Which city?", RunOptions.DEFAULT);
        clock.advance(Duration.ofMinutes(5));
        ExpiryReport report = agent.expireDueRuns(10);
        assertThat(report.runs()).singleElement().satisfies(e -> {
            assertThat(e.action()).isEqualTo(ExpiryPolicy.Action.CANCEL);
            assertThat(e.outcome()).isEqualTo(RunOutcome.CANCELLED);
        });
        assertThat(store.find(r.runId())).isEmpty();
    }

    @Test
    void expiryTakesDueRunsSoonestFirstUpToTheLimit() {
        Agent agent = agentBuilder(agentId).onExpiry(ExpiryPolicy.cancel("abandoned")).build();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(suspend(agent, "Book a flight", RunOptions.builder().waitTimeout(Duration.ofMinutes(10 - i)).build())
                    .runId());
        }
        clock.advance(Duration.ofHours(1));
        assertThat(agent.expireDueRuns(2).runs()).extracting(ExpiryReport.Expired::runId)
                .containsExactly(ids.get(4), ids.get(3));
        assertThat(agent.listSuspendedRuns().total()).isEqualTo(3);
    }

    @Test
    void twoInstancesExpiringAtOnceHandleEachDueRunExactlyOnce() throws Exception {
        Agent a = agentBuilder(agentId).instanceId("expirer-a").waitTimeout(Duration.ofMinutes(1))
                .onExpiry(ExpiryPolicy.decline("expired")).build();
        Agent b = agentBuilder(agentId).instanceId("expirer-b").waitTimeout(Duration.ofMinutes(1))
                .onExpiry(ExpiryPolicy.decline("expired")).build();
        Set<String> runs = new HashSet<>();
        for (int i = 0; i < 12; i++) runs.add(suspend(a).runId());
        clock.advance(Duration.ofMinutes(2));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<ExpiryReport>> both = new ArrayList<>();
            for (Agent x : List.of(a, b)) {
                both.add(pool.submit(() -> {
                    start.await();
                    ExpiryReport total = x.expireDueRuns(100);
                    return total;
                }));
            }
            start.countDown();
            List<String> handled = new ArrayList<>();
            for (Future<ExpiryReport> f : both) {
                for (ExpiryReport.Expired e : f.get(60, TimeUnit.SECONDS).runs()) {
                    if (e.skipped() == null) handled.add(e.runId());
                }
            }
            assertThat(handled).as("each due run handled once, by one instance").hasSize(12)
                    .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(runs);
            assertThat(a.listSuspendedRuns().total()).isZero();
            assertThat(bookings).hasValue(0);
        } finally {
            pool.shutdownNow();
        }
    }
}
