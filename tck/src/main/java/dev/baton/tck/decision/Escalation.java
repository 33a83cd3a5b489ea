package dev.baton.tck.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.NotAnApproverException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.Approver;
import dev.baton.agent.ApproverRule;
import dev.baton.agent.ExpiryReport;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionRecord;
import dev.baton.store.QueryFeature;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.FaultyStore;
import dev.baton.tck.support.SimulatedCrash;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Rules of {@code DecisionContract}: see the contract's nested class of this name, and the approver
 * rules A9 to A11 of docs/approvals.md (escalation). Not API.
 */
public abstract class Escalation extends DecisionRules {
    private static final Approver MARIA = Approver.of("maria", "finance");
    private static final Approver LENA = Approver.of("lena", "finance-leads");
    private static final Approver LEO = Approver.of("leo", "finance-leads");

    /** Charges: one of finance approves; a call not decided within four hours moves to finance-leads. */
    private static final ApproverRule ESCALATING = ApproverRule.builder("charges").tool("charge").roles("finance")
            .escalateAfter(Duration.ofHours(4), "finance-leads").build();

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Escalation(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private AgentBuilder ruled(SnapshotStore s, ApproverRule rule) {
        // "charge 5000" proposes charge(amount 5000); no expiry policy: escalation alone makes the sweep run
        return agentBuilder(s).model(DeterministicModel.builder()
                .whenUserSays("charge", "charge", text -> Map.of("amount", Integer.parseInt(text.replaceAll("\\D", "")))).build())
                .approverRules(rule);
    }

    private static AgentResult charge(Agent agent, int amount) {
        AgentResult r = agent.generate("charge " + amount, RunOptions.builder().threadId("t").resourceId("u").startedBy("carl").build());
        if (r.outcome() != RunOutcome.SUSPENDED) throw new AssertionError("did not suspend: " + r);
        return r;
    }

    private static ApproveOptions by(Approver a) {
        return ApproveOptions.builder().approver(a).build();
    }

    private static AgentRunToolCall listed(Agent agent, String runId) {
        return agent.listSuspendedRuns().runs().stream().filter(x -> x.runId().equals(runId)).findFirst()
                .orElseThrow(() -> new AssertionError("run " + runId + " is not listed")).toolCalls().get(0);
    }

    private List<DecisionRecord> escalations(String runId) {
        return recordsOf(runId).stream().filter(d -> d.kind() == DecisionKind.ESCALATE).toList();
    }

    private static long escalatedBy(ExpiryReport report) {
        return report.runs().stream().filter(e -> e.skipped() == null).mapToLong(e -> e.escalated().size()).sum();
    }

    /**
     * Rule A9: a call not decided within its rule's {@code escalateAfter} moves to the escalation group
     * when the expiry sweep finds it due: recorded once by {@code system} naming the group; from then on
     * the group's roles decide it and the first roles are refused.
     */
    @Test
    void aCallNotDecidedInTimeEscalatesOnceRecordedBySystemAndTheNewGroupDecidesIt() {
        Agent agent = ruled(store, ESCALATING).build();
        AgentResult r = charge(agent, 50);
        assertThat(listed(agent, r.runId()).escalated()).isFalse();
        clock.advance(Duration.ofHours(3));
        assertThat(escalatedBy(agent.expireDueRuns(10))).as("rule A9: not before its time").isZero();
        assertThat(escalations(r.runId())).isEmpty();

        clock.advance(Duration.ofHours(1));
        ExpiryReport report = agent.expireDueRuns(10);
        assertThat(escalatedBy(report)).as("rule A9: escalated when due").isEqualTo(1);
        assertThat(report.handled()).isEqualTo(1);
        List<DecisionRecord> records = escalations(r.runId());
        assertThat(records).as("rule A9: one record").hasSize(1);
        assertThat(records.get(0).actor()).isEqualTo("system");
        assertThat(records.get(0).toolCallId()).isEqualTo(callId(r));
        assertThat(records.get(0).reason()).contains("finance-leads").contains("charges");
        assertThat(records.get(0).decidedAt()).isEqualTo(clock.instant());
        AgentRunToolCall call = listed(agent, r.runId());
        assertThat(call.escalated()).isTrue();
        assertThat(call.escalatedAt()).isEqualTo(clock.instant());
        assertThat(call.expiresAt()).as("an escalation is no expiry").isNull();

        clock.advance(Duration.ofHours(8));
        assertThat(escalatedBy(agent.expireDueRuns(10))).as("rule A9: once").isZero();
        assertThat(escalations(r.runId())).hasSize(1);

        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r), by(MARIA)))
                .as("rule A9: the first group no longer decides").isInstanceOf(NotAnApproverException.class)
                .hasMessageContaining("finance-leads");
        assertThat(charges).hasValue(0);
        assertThat(agent.approveToolCall(r.runId(), callId(r), by(LENA)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(charges).hasValue(1);
    }

    /**
     * Rule A9 with the "waiting for me" listing (rule A12): once a call escalated, the listing filtered
     * to a principal shows it to the escalation group and no longer to the first roles, as the decision
     * checks do. For stores that declare {@link QueryFeature#DECIDERS}.
     */
    @Test
    void anEscalatedCallWaitsForTheEscalationGroupInTheWaitingForMeListing() {
        org.junit.jupiter.api.Assumptions.assumeTrue(store.queryFeatures().contains(QueryFeature.DECIDERS),
                "the store does not declare QueryFeature.DECIDERS");
        Agent agent = ruled(store, ESCALATING).build();
        AgentResult r = charge(agent, 70);
        assertThat(waitingFor(agent, MARIA)).as("rule A12: before, finance").containsExactly(r.runId());
        assertThat(waitingFor(agent, LENA)).as("rule A12: before, not finance-leads").isEmpty();
        clock.advance(Duration.ofHours(4));
        assertThat(escalatedBy(agent.expireDueRuns(10))).isEqualTo(1);
        assertThat(waitingFor(agent, LENA)).as("rule A9: after, the escalation group").containsExactly(r.runId());
        assertThat(waitingFor(agent, MARIA)).as("rule A9: after, no longer the first group").isEmpty();
    }

    private static List<String> waitingFor(Agent agent, Approver who) {
        return agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().waitingFor(who).build()).runs().stream()
                .map(AgentRun::runId).toList();
    }

    /** Rule A9: the rule's quorum stays after an escalation: two distinct people of the new group. */
    @Test
    void anEscalatedCallKeepsItsRulesQuorum() {
        ApproverRule two = ApproverRule.builder("two-person-charges").tool("charge").roles("finance").approvals(2)
                .escalateAfter(Duration.ofMinutes(30), "finance-leads").build();
        Agent agent = ruled(store, two).build();
        AgentResult r = charge(agent, 5000);
        clock.advance(Duration.ofMinutes(30));
        assertThat(escalatedBy(agent.expireDueRuns(10))).isEqualTo(1);
        assertThat(agent.approveToolCall(r.runId(), callId(r), by(LENA)).result().outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(listed(agent, r.runId()).approvedBy()).containsExactly("lena");
        assertThat(charges).hasValue(0);
        assertThat(agent.approveToolCall(r.runId(), callId(r), by(LEO)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(charges).hasValue(1);
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::actor).containsExactlyInAnyOrder("system", "lena", "leo");
    }

    /** Rule A10: two instances sweeping at once escalate a call once: one record, one instance reports it. */
    @Test
    void twoInstancesSweepingAtOnceEscalateACallOnce() throws Exception {
        Agent agent = ruled(store, ESCALATING).build();
        AgentResult r = charge(agent, 50);
        clock.advance(Duration.ofHours(4));
        try (SnapshotStore second = reopen()) {
            Agent other = ruled(second, ESCALATING).instanceId("tck-other-" + agentId).build();
            List<ExpiryReport> reports = race(() -> agent.expireDueRuns(10), () -> other.expireDueRuns(10));
            assertThat(reports.stream().mapToLong(Escalation::escalatedBy).sum()).as("rule A10: one instance escalates it").isEqualTo(1);
        }
        assertThat(escalations(r.runId())).as("rule A10: one record").hasSize(1);
        assertThat(listed(agent, r.runId()).escalated()).isTrue();
    }

    /**
     * Rule A11: a crash before the escalation's write keeps neither the escalation nor its record (the
     * next sweep escalates); after it, both (the next sweep does nothing).
     */
    @Test
    void aCrashBeforeOrAfterTheEscalationsWriteKeepsTheEscalationAndItsRecordTogether() {
        for (boolean afterTheWrite : new boolean[] {false, true}) {
            Agent agent = ruled(store, ESCALATING).build();
            AgentResult r = charge(agent, 50);
            clock.advance(Duration.ofHours(4));
            RunSnapshot before = store.find(r.runId()).orElseThrow();
            Agent doomed = ruled(new FaultyStore(store).crashAt(1, afterTheWrite), ESCALATING).build();
            assertThatThrownBy(() -> doomed.expireDueRuns(10)).isInstanceOf(SimulatedCrash.class);
            if (afterTheWrite) {
                assertThat(store.find(r.runId()).orElseThrow().version()).isEqualTo(before.version() + 1);
                assertThat(listed(agent, r.runId()).escalated()).isTrue();
                assertThat(escalations(r.runId())).as("rule A11: the escalation and its record, together").hasSize(1);
                assertThat(escalatedBy(agent.expireDueRuns(10))).isZero();
            } else {
                assertThat(store.find(r.runId())).contains(before);
                assertThat(escalations(r.runId())).as("rule A11: neither").isEmpty();
                assertThat(escalatedBy(agent.expireDueRuns(10))).isEqualTo(1);
            }
            assertThat(escalations(r.runId())).hasSize(1);
            assertThat(agent.approveToolCall(r.runId(), callId(r), by(LENA)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        }
        assertThat(charges).hasValue(2);
    }

    /** Runs both at once (released together) and returns each one's result. */
    private static <T> List<T> race(Callable<T> a, Callable<T> b) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<T>> fs = new ArrayList<>();
            for (Callable<T> c : List.of(a, b)) {
                fs.add(pool.submit(() -> {
                    go.await();
                    return c.call();
                }));
            }
            go.countDown();
            List<T> out = new ArrayList<>();
            for (Future<T> f : fs) out.add(f.get(60, TimeUnit.SECONDS));
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
