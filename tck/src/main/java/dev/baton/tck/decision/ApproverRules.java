package dev.baton.tck.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.DecisionConflictException;
import dev.baton.NotAnApproverException;
import dev.baton.RunNotSuspendedException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.AgentStream;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.Approver;
import dev.baton.agent.ApproverRule;
import dev.baton.agent.DecisionOptions;
import dev.baton.agent.DeclineOptions;
import dev.baton.agent.ResumeOptions;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.FaultyStore;
import dev.baton.tck.support.SimulatedCrash;
import dev.baton.tck.support.StoreUnderTest;
import dev.baton.tool.Tool;
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
 * rules A1 to A8 of docs/approvals.md. Not API.
 */
public abstract class ApproverRules extends DecisionRules {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Approver MARIA = Approver.of("maria", "finance");
    private static final Approver JOHN = Approver.of("john", "finance");
    private static final Approver ANNA = Approver.of("anna", "finance", "ops");
    private static final Approver BOB = Approver.of("bob", "support");

    /** Refunds above 1,000 need two of finance; others one of finance or support. */
    private static final ApproverRule TWO_PERSON = ApproverRule.builder("two-person-charges").tool("charge")
            .when(args -> args.path("amount").asInt() > 1000).roles("finance").approvals(2).build();
    private static final ApproverRule SMALL = ApproverRule.builder("small-charges").tool("charge")
            .approveRoles("finance").declineRoles("finance", "support").build();

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected ApproverRules(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private AgentBuilder ruled(SnapshotStore s, ApproverRule... rules) {
        // "charge 5000" proposes charge(amount 5000)
        return agentBuilder(s).model(DeterministicModel.builder()
                .whenUserSays("charge", "charge", text -> Map.of("amount", Integer.parseInt(text.replaceAll("\\D", "")))).build())
                .approverRules(rules);
    }

    private Agent ruled(ApproverRule... rules) {
        return ruled(store, rules).build();
    }

    private static AgentResult charge(Agent agent, int amount, String startedBy) {
        AgentResult r = agent.generate("charge " + amount, RunOptions.builder().threadId("t").resourceId("u").startedBy(startedBy).build());
        if (r.outcome() != RunOutcome.SUSPENDED) throw new AssertionError("did not suspend: " + r);
        return r;
    }

    private static ApproveOptions by(Approver a) {
        return ApproveOptions.builder().approver(a).build();
    }

    private AgentRunToolCall listed(Agent agent, String runId) {
        AgentRun run = agent.listSuspendedRuns().runs().stream().filter(x -> x.runId().equals(runId)).findFirst()
                .orElseThrow(() -> new AssertionError("run " + runId + " is not listed"));
        return run.toolCalls().get(0);
    }

    /** Rule A1: a decision by a person without the rule's role changes and records nothing, and says which rule. */
    @Test
    void aDecisionWithoutTheRulesRoleIsRefusedNamingTheRuleAndNothingChangesOrIsRecorded() {
        Agent agent = ruled(TWO_PERSON, SMALL);
        AgentResult r = charge(agent, 10, "carl");
        RunSnapshot before = store.find(r.runId()).orElseThrow();
        Throwable refused = catchThrowable(() -> agent.approveToolCall(r.runId(), callId(r), by(BOB)));
        assertThat(refused).as("rule A1: approve by a person without the role").isInstanceOf(NotAnApproverException.class)
                .hasMessageContaining("'bob'").hasMessageContaining("small-charges").hasMessageContaining("[finance]")
                .hasMessageContaining(r.runId());
        NotAnApproverException e = (NotAnApproverException) refused;
        assertThat(e.rule()).isEqualTo("small-charges");
        assertThat(e.decision()).isEqualTo("approve");
        assertThat(e.actor()).isEqualTo("bob");
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().actor("maria").build()))
                .as("rule A1: an actor named without roles holds none").isInstanceOf(NotAnApproverException.class)
                .hasMessageContaining("holds no role");
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r)))
                .as("rule A1: a caller who names nobody").isInstanceOf(NotAnApproverException.class)
                .hasMessageContaining("named approver");
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().approver(BOB)
                .args(JSON.valueToTree(Map.of("amount", 9))).build()))
                .as("rule A1: edit roles default to the approve roles").isInstanceOf(NotAnApproverException.class)
                .hasMessageContaining("may not edit");
        assertThat(store.find(r.runId())).as("rule A1: the run is unchanged").contains(before);
        assertThat(recordsOf(r.runId())).as("rule A1: nothing is recorded").isEmpty();
        assertThat(charges).hasValue(0);
        assertThat(agent.approveToolCall(r.runId(), callId(r), by(MARIA)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::actor).containsExactly("maria");
        assertThat(charges).hasValue(1);
    }

    /** Rule A1: each decision has its own roles (here support may decline, not approve). */
    @Test
    void approveEditDeclineAndAnswerEachHaveTheirOwnRoles() {
        Agent agent = ruled(TWO_PERSON, SMALL);
        AgentResult r = charge(agent, 10, "carl");
        AgentStream declined = agent.declineToolCall(r.runId(), callId(r), DeclineOptions.builder().approver(BOB).reason("duplicate").build());
        assertThat(declined.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::kind, DecisionRecord::actor)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(DecisionKind.DECLINE, "bob"));
        assertThat(charges).hasValue(0);

        // answering a call that waits for data: the answer roles
        Tool confirm = Tool.builder("confirm").description("Asks which account")
                .execute((input, ctx) -> ctx.resumeData() == null ? ctx.suspend(Map.of("question", "Which account?"))
                        : Map.of("account", ctx.resumeData().asText())).build();
        Agent asking = agentBuilder(store).tools(confirm)
                .model(DeterministicModel.builder().whenUserSays("confirm", "confirm", Map.of()).build())
                .approverRules(ApproverRule.builder("accounts").tool("confirm").answerRoles("ops").build()).build();
        AgentResult q = asking.generate("confirm it", RunOptions.builder().startedBy("carl").build());
        assertThat(q.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThatThrownBy(() -> asking.resumeStream("acct-1", ResumeOptions.of(q.runId()), DecisionOptions.builder().approver(MARIA).build()))
                .as("rule A1: answer roles").isInstanceOf(NotAnApproverException.class).hasMessageContaining("may not answer")
                .hasMessageContaining("'accounts'");
        assertThat(asking.resumeStream("acct-1", ResumeOptions.of(q.runId()), DecisionOptions.builder().approver(ANNA).build())
                .result().outcome()).isEqualTo(RunOutcome.COMPLETED);
    }

    /** Rule A2: a rule applies only to the calls whose arguments its predicate accepts; the first matching rule wins. */
    @Test
    void aRuleAppliesOnlyToCallsWhoseArgumentsMatchItsPredicateAndTheFirstMatchingRuleWins() {
        Agent agent = ruled(TWO_PERSON);
        AgentResult small = charge(agent, 10, "carl");
        assertThat(small.waitingCalls().get(0).approvalsNeeded()).isEqualTo(1);
        assertThat(agent.approveToolCall(small.runId(), callId(small), by(BOB)).result().outcome())
                .as("rule A2: no rule matches charge(10): anyone decides, as without rules").isEqualTo(RunOutcome.COMPLETED);
        AgentResult big = charge(agent, 5000, "carl");
        assertThat(big.waitingCalls().get(0).approvalsNeeded()).as("rule A2: charge(5000) falls under two-person-charges").isEqualTo(2);
        assertThatThrownBy(() -> agent.approveToolCall(big.runId(), callId(big), by(BOB)))
                .isInstanceOf(NotAnApproverException.class).hasMessageContaining("two-person-charges");
        assertThat(charges).hasValue(1);
    }

    /** Rule A3: N of M: each approval is recorded, the call waits listed with who approved, and runs once at the quorum. */
    @Test
    void aCallThatNeedsTwoApprovalsWaitsListedWithWhoApprovedUntilTheSecondThenRunsOnce() {
        Agent agent = ruled(TWO_PERSON, SMALL);
        AgentResult r = charge(agent, 5000, "carl");
        AgentStream first = agent.approveToolCall(r.runId(), callId(r), by(MARIA));
        assertThat(first.replayed()).isFalse();
        assertThat(first.result().outcome()).as("rule A3: one of two approvals: still waiting").isEqualTo(RunOutcome.SUSPENDED);
        assertThat(first.result().waitingCalls()).singleElement().satisfies(c -> {
            assertThat(c.approvedBy()).containsExactly("maria");
            assertThat(c.approvalsNeeded()).isEqualTo(2);
        });
        assertThat(first.decision()).get().extracting(DecisionRecord::actor).isEqualTo("maria");
        assertThat(charges).as("rule A3: nothing runs before the quorum").hasValue(0);
        assertThat(store.find(r.runId()).orElseThrow().status()).isEqualTo(RunStatus.SUSPENDED);
        AgentRunToolCall waiting = listed(agent, r.runId());
        assertThat(waiting.approvedBy()).as("rule A3: listed with who approved so far").containsExactly("maria");
        assertThat(waiting.approvalsNeeded()).isEqualTo(2);
        assertThat(recordsOf(r.runId())).as("rule A3: each approval is a decision record")
                .extracting(DecisionRecord::kind, DecisionRecord::actor)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(DecisionKind.APPROVE, "maria"));
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r), by(MARIA)))
                .as("rule A3: the same person twice does not count").isInstanceOf(NotAnApproverException.class)
                .hasMessageContaining("distinct").hasMessageContaining("already approved");
        // a second instance (a new agent over a new store on the same database) sees the first approval
        AgentResult done = agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().approver(JOHN)
                .digest(waiting.digest()).build()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(charges).as("rule A3: the tool runs once, at the quorum").hasValue(1);
        assertThat(chargedWith).containsExactly(Map.of("amount", 5000));
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::actor).containsExactlyInAnyOrder("john", "maria");
    }

    /** Rule A3: a decline by any approver ends a call that waits for more approvals. */
    @Test
    void aDeclineByAnyApproverEndsACallThatWaitsForMoreApprovals() {
        Agent agent = ruled(TWO_PERSON);
        AgentResult r = charge(agent, 5000, "carl");
        agent.approveToolCall(r.runId(), callId(r), by(MARIA)).result();
        clock.advance(Duration.ofSeconds(1));
        assertThat(agent.declineToolCall(r.runId(), callId(r), DeclineOptions.builder().approver(JOHN).reason("too much").build())
                .result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(charges).hasValue(0);
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::kind).containsExactly(DecisionKind.DECLINE, DecisionKind.APPROVE);
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r), by(ANNA)))
                .isInstanceOf(RunNotSuspendedException.class).hasMessageContaining("decline");
    }

    /** Rule A4: an edit resets the approvals given, moves the digest, and the edit counts as its editor's approval. */
    @Test
    void anEditResetsTheApprovalsGivenAndTheDigestBindsTheNextApprovalsToTheEditedArguments() throws Exception {
        Agent agent = ruled(TWO_PERSON);
        AgentResult r = charge(agent, 5000, "carl");
        String proposed = r.waitingCalls().get(0).digest();
        agent.approveToolCall(r.runId(), callId(r), by(MARIA)).result();
        clock.advance(Duration.ofSeconds(1));
        JsonNode edited = JSON.readTree("{\"amount\":4000}");
        AgentResult afterEdit = agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().approver(JOHN).args(edited)
                .digest(proposed).build()).result();
        assertThat(afterEdit.outcome()).as("rule A4: the edit still needs a second person").isEqualTo(RunOutcome.SUSPENDED);
        AgentRunToolCall waiting = listed(agent, r.runId());
        assertThat(waiting.approvedBy()).as("rule A4: maria approved other arguments: only the editor counts").containsExactly("john");
        assertThat(waiting.approvedArgs()).isEqualTo(edited);
        assertThat(waiting.args()).isEqualTo(JSON.readTree("{\"amount\":5000}"));
        assertThat(waiting.digest()).as("rule A4: the digest is over the edited arguments now")
                .isEqualTo(dev.baton.agent.CallDigest.of("charge", edited, null)).isNotEqualTo(proposed);
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().approver(MARIA).digest(proposed).build()))
                .as("rule A4: an approval of what was shown before the edit").isInstanceOf(DecisionConflictException.class);
        assertThat(charges).hasValue(0);
        clock.advance(Duration.ofSeconds(1));
        AgentResult done = agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().approver(MARIA)
                .digest(waiting.digest()).build()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.eventTypes()).contains("tool-call-approved");
        assertThat(chargedWith).as("rule A4: the tool runs once, with the edit").containsExactly(Map.of("amount", 4000));
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::kind, DecisionRecord::actor).containsExactly(
                org.assertj.core.groups.Tuple.tuple(DecisionKind.APPROVE, "maria"),
                org.assertj.core.groups.Tuple.tuple(DecisionKind.EDIT, "john"),
                org.assertj.core.groups.Tuple.tuple(DecisionKind.APPROVE, "maria"));   // newest first
    }

    /** Rule A5: the person who started the run may not approve its calls, unless the rule allows it. */
    @Test
    void thePersonWhoStartedTheRunMayNotApproveItUnlessTheRuleAllowsIt() throws Exception {
        Agent agent = ruled(SMALL);
        AgentResult r = charge(agent, 10, "maria");
        // the requester is recorded on the run: a new store on the same database still knows it
        try (SnapshotStore again = reopen()) {
            Agent other = ruled(again, SMALL).build();
            assertThat(other.listSuspendedRuns().runs()).filteredOn(x -> x.runId().equals(r.runId())).singleElement()
                    .extracting(AgentRun::startedBy).as("rule A5: the run is listed with who started it").isEqualTo("maria");
            assertThatThrownBy(() -> other.approveToolCall(r.runId(), callId(r), by(MARIA)))
                    .as("rule A5: separation of duties").isInstanceOf(NotAnApproverException.class)
                    .hasMessageContaining("started the run").hasMessageContaining("small-charges");
            assertThatThrownBy(() -> other.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().approver(MARIA)
                    .args(JSON.readTree("{\"amount\":9}")).build()))
                    .as("rule A5: nor edit it").isInstanceOf(NotAnApproverException.class).hasMessageContaining("started the run");
        }
        assertThat(recordsOf(r.runId())).isEmpty();
        assertThat(agent.approveToolCall(r.runId(), callId(r), by(JOHN)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        // configurable per rule
        Agent lenient = ruled(ApproverRule.builder("self-service").tool("charge").roles("finance").requesterMayApprove(true).build());
        AgentResult own = charge(lenient, 10, "maria");
        assertThat(lenient.approveToolCall(own.runId(), callId(own), by(MARIA)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        // the requester may still decline their own call
        AgentResult mine = charge(agent, 20, "maria");
        assertThat(agent.declineToolCall(mine.runId(), callId(mine), DeclineOptions.builder().approver(MARIA).build())
                .result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(charges).hasValue(2);
    }

    /** Rule A6: two last approvals at once, on two instances: the tool runs once; the other is told it was decided. */
    @Test
    void twoLastApprovalsAtOnceOnTwoInstancesRunTheToolOnce() throws Exception {
        Agent agent = ruled(TWO_PERSON);
        AgentResult r = charge(agent, 5000, "carl");
        agent.approveToolCall(r.runId(), callId(r), by(MARIA)).result();
        try (SnapshotStore second = reopen()) {
            Agent other = ruled(second, TWO_PERSON).instanceId("tck-other-" + agentId).build();
            List<Object> outcomes = race(
                    () -> agent.approveToolCall(r.runId(), callId(r), by(JOHN)).result().outcome(),
                    () -> other.approveToolCall(r.runId(), callId(r), by(ANNA)).result().outcome());
            assertThat(outcomes).as("rule A6: one wins").filteredOn(o -> o == RunOutcome.COMPLETED).hasSize(1);
            assertThat(outcomes).as("rule A6: the other is told").filteredOn(o -> o instanceof RunNotSuspendedException).hasSize(1);
        }
        assertThat(charges).as("rule A6: the tool runs once").hasValue(1);
        assertThat(recordsOf(r.runId())).hasSize(2);
    }

    /** Rule A6: approvals that land at once, short of the quorum, are all counted (a lost write is read again). */
    @Test
    void approvalsLandingAtOnceShortOfTheQuorumAreAllCounted() throws Exception {
        ApproverRule three = ApproverRule.builder("three-person-charges").tool("charge").roles("finance").approvals(3).build();
        Agent agent = ruled(three);
        AgentResult r = charge(agent, 5000, "carl");
        try (SnapshotStore second = reopen()) {
            Agent other = ruled(second, three).instanceId("tck-other-" + agentId).build();
            List<Object> outcomes = race(
                    () -> agent.approveToolCall(r.runId(), callId(r), by(MARIA)).result().outcome(),
                    () -> other.approveToolCall(r.runId(), callId(r), by(JOHN)).result().outcome());
            assertThat(outcomes).as("rule A6: both approvals land").containsExactly(RunOutcome.SUSPENDED, RunOutcome.SUSPENDED);
        }
        assertThat(listed(agent, r.runId()).approvedBy()).containsExactlyInAnyOrder("maria", "john");
        assertThat(charges).hasValue(0);
        assertThat(agent.approveToolCall(r.runId(), callId(r), by(ANNA)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(charges).hasValue(1);
        assertThat(recordsOf(r.runId())).hasSize(3);
    }

    /** Rule A7: a crash before a partial approval's write keeps neither; after it, both, and the next approval completes. */
    @Test
    void aCrashBeforeOrAfterAPartialApprovalWriteKeepsTheApprovalAndItsRecordTogether() {
        for (boolean afterTheWrite : new boolean[] {false, true}) {
            Agent agent = ruled(TWO_PERSON);
            AgentResult r = charge(agent, 5000, "carl");
            RunSnapshot before = store.find(r.runId()).orElseThrow();
            Agent doomed = ruled(new FaultyStore(store).crashAt(1, afterTheWrite), TWO_PERSON).build();
            assertThatThrownBy(() -> doomed.approveToolCall(r.runId(), callId(r), by(MARIA))).isInstanceOf(SimulatedCrash.class);
            if (afterTheWrite) {
                assertThat(store.find(r.runId()).orElseThrow().version()).isEqualTo(before.version() + 1);
                assertThat(listed(agent, r.runId()).approvedBy()).containsExactly("maria");
                assertThat(recordsOf(r.runId())).extracting(DecisionRecord::actor).containsExactly("maria");
                assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r), by(MARIA))).isInstanceOf(NotAnApproverException.class);
            } else {
                assertThat(store.find(r.runId())).contains(before);
                assertThat(recordsOf(r.runId())).isEmpty();
                assertThat(agent.approveToolCall(r.runId(), callId(r), by(MARIA)).result().outcome()).isEqualTo(RunOutcome.SUSPENDED);
            }
            assertThat(agent.approveToolCall(r.runId(), callId(r), by(JOHN)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(recordsOf(r.runId())).extracting(DecisionRecord::actor).containsExactlyInAnyOrder("john", "maria");
        }
        assertThat(charges).hasValue(2);
    }

    /** Rule A7: a crash between the last approval's write and the tool: the claim and every record stay; continueRun runs it once. */
    @Test
    void aCrashBetweenTheLastApprovalAndTheToolKeepsEveryRecordAndContinueRunRunsTheToolOnce() {
        Agent agent = ruled(TWO_PERSON);
        AgentResult r = charge(agent, 5000, "carl");
        agent.approveToolCall(r.runId(), callId(r), by(MARIA)).result();
        clock.advance(Duration.ofSeconds(1));
        Agent doomed = ruled(new FaultyStore(store).crashAt(1, true), TWO_PERSON).build();
        assertThatThrownBy(() -> doomed.approveToolCall(r.runId(), callId(r), by(JOHN))).isInstanceOf(SimulatedCrash.class);
        assertThat(store.find(r.runId()).orElseThrow().status()).isEqualTo(RunStatus.RESUMING);
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::actor).containsExactlyInAnyOrder("john", "maria");
        assertThat(charges).hasValue(0);
        clock.advance(Duration.ofMinutes(5));   // the dead holder's lease lapses
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r), by(ANNA)))
                .as("rule A7: a third approval is told the call was decided").isInstanceOf(dev.baton.AlreadyDecidedException.class)
                .hasMessageContaining("'john'").hasMessageContaining("continueRun");
        assertThat(agent.continueRun(r.runId(), DecisionOptions.by("ops")).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(charges).as("rule A7: the tool runs once").hasValue(1);
    }

    /** Rule A8: a partial approval sent again with its idempotency key is counted once and replayed. */
    @Test
    void aPartialApprovalSentAgainWithItsKeyIsCountedOnce() {
        Agent agent = ruled(TWO_PERSON);
        AgentResult r = charge(agent, 5000, "carl");
        String key = "partial-" + agentId;
        AgentStream first = agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().approver(MARIA).idempotencyKey(key).build());
        assertThat(first.result().outcome()).isEqualTo(RunOutcome.SUSPENDED);
        AgentStream again = agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().approver(MARIA).idempotencyKey(key).build());
        assertThat(again.replayed()).isTrue();
        assertThat(again.decision()).isEqualTo(first.decision());
        assertThat(again.result().outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(again.result().waitingCalls().get(0).approvedBy()).containsExactly("maria");
        assertThat(recordsOf(r.runId())).hasSize(1);
        assertThat(charges).hasValue(0);
    }

    /** Rule A8: retries of one partial approval racing with one key count it once, and each answers its outcome. */
    @Test
    void partialApprovalRetriesRacingWithOneKeyAreCountedOnce() throws Exception {
        Agent agent = ruled(TWO_PERSON);
        AgentResult r = charge(agent, 5000, "carl");
        String key = "partial-race-" + agentId;
        Callable<Object> retry = () -> agent.approveToolCall(r.runId(), callId(r),
                ApproveOptions.builder().approver(MARIA).idempotencyKey(key).build()).result().outcome();
        assertThat(race(retry, retry)).as("rule A8: both retries answer the partial approval")
                .containsExactly(RunOutcome.SUSPENDED, RunOutcome.SUSPENDED);
        assertThat(listed(agent, r.runId()).approvedBy()).containsExactly("maria");
        assertThat(recordsOf(r.runId())).hasSize(1);
        assertThat(charges).hasValue(0);
    }

    /** Runs both at once (released together) and returns each one's outcome or exception, in order. */
    private static List<Object> race(Callable<Object> a, Callable<Object> b) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Object>> fs = new ArrayList<>();
            for (Callable<Object> c : List.of(a, b)) {
                fs.add(pool.submit(() -> {
                    go.await();
                    try {
                        return c.call();
                    } catch (RuntimeException e) {
                        return e;
                    }
                }));
            }
            go.countDown();
            List<Object> out = new ArrayList<>();
            for (Future<Object> f : fs) out.add(f.get(60, TimeUnit.SECONDS));
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
