package dev.baton.tck.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.AlreadyDecidedException;
import dev.baton.DecisionConflictException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.AgentStream;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.CallDigest;
import dev.baton.agent.DecisionOptions;
import dev.baton.agent.DeclineOptions;
import dev.baton.agent.ExpiryPolicy;
import dev.baton.agent.RunOutcome;
import dev.baton.model.Message;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.StoreUnderTest;
import dev.baton.tool.InvalidToolInputException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rules of {@code DecisionContract}: see the contract's nested class of this name. Not API. */
public abstract class Recording extends DecisionRules {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Recording(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void anApprovalIsRecordedWithWhoWhenWhereWhyAndTheDigests() {
        Agent agent = agent();
        AgentResult r = suspend(agent, "t-1", "u-1");
        AgentRunToolCall call = r.waitingCalls().get(0);
        assertThat(call.digest()).isEqualTo(CallDigest.of("charge", call.args(), null)).hasSize(64);
        AgentStream s = agent.approveToolCall(r.runId(), call.toolCallId(),
                ApproveOptions.builder().actor("alice").reason("looks right").digest(call.digest()).build());
        assertThat(s.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        List<DecisionRecord> records = recordsOf(r.runId());
        assertThat(records).hasSize(1);
        DecisionRecord d = records.get(0);
        assertThat(d.kind()).isEqualTo(DecisionKind.APPROVE);
        assertThat(d.actor()).isEqualTo("alice");
        assertThat(d.reason()).isEqualTo("looks right");
        assertThat(d.decidedAt()).isEqualTo(clock.instant());
        assertThat(d.instanceId()).isEqualTo("tck-" + agentId);
        assertThat(d.agentId()).isEqualTo(agentId);
        assertThat(d.threadId()).isEqualTo("t-1");
        assertThat(d.resourceId()).isEqualTo("u-1");
        assertThat(d.toolCallId()).isEqualTo(call.toolCallId());
        assertThat(d.toolName()).isEqualTo("charge");
        assertThat(d.argsDigestBefore()).isEqualTo(call.digest());
        assertThat(d.argsDigestAfter()).isEqualTo(call.digest());
        assertThat(s.decision()).contains(d);
        assertThat(store.find(r.runId())).as("the run ended; its record stays").isEmpty();
    }

    @Test
    void anEditedApprovalRunsTheEditedInputAndTellsTheModelAndTheEvents() throws Exception {
        Agent agent = agent();
        AgentResult r = suspend(agent, "t-2", "u-2");
        AgentRunToolCall call = r.waitingCalls().get(0);
        JsonNode edited = JSON.readTree("{\"amount\":5}");
        AgentResult done = agent.approveToolCall(r.runId(), call.toolCallId(),
                ApproveOptions.builder().actor("alice").args(edited).digest(call.digest()).build()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(chargedWith).containsExactly(java.util.Map.of("amount", 5));
        assertThat(done.eventTypes().subList(0, 3)).containsExactly("start", "tool-call-approved", "tool-result");
        AgentEvent.ToolCallApproved approved = (AgentEvent.ToolCallApproved) done.events().get(1);
        assertThat(approved.proposedArgs()).isEqualTo(JSON.readTree("{\"amount\":10}"));
        assertThat(approved.approvedArgs()).isEqualTo(edited);
        assertThat(approved.actor()).isEqualTo("alice");
        Message.ToolResult told = modelInputs.get(modelInputs.size() - 1).stream()
                .filter(m -> m instanceof Message.ToolResult).map(m -> (Message.ToolResult) m).reduce((a, b) -> b).orElseThrow();
        assertThat(told.result().get("approvedArgs")).isEqualTo(edited);
        assertThat(told.result().get("note").asText()).contains("A person edited the arguments");
        assertThat(told.result().get("result")).isEqualTo(JSON.readTree("{\"charged\":5}"));
        DecisionRecord d = recordsOf(r.runId()).get(0);
        assertThat(d.kind()).isEqualTo(DecisionKind.EDIT);
        assertThat(d.argsDigestBefore()).isEqualTo(call.digest());
        assertThat(d.argsDigestAfter()).isEqualTo(CallDigest.of("charge", edited, null)).isNotEqualTo(call.digest());
    }

    /**
     * Rule D3 and the listing: a run interrupted after an edited approval (its stream closed before the
     * tool ran) lists no call waiting for a person, and lists the approved call with what was approved
     * ({@code approvedCalls}: the proposed {@code args} and the edited {@code approvedArgs});
     * {@code continueRun} runs the tool with the edit.
     */
    @Test
    void aRunInterruptedAfterAnEditedApprovalListsWhatWasApproved() throws Exception {
        Agent agent = agent();
        AgentResult r = suspend(agent, "t-11", "u-11");
        AgentRunToolCall call = r.waitingCalls().get(0);
        JsonNode edited = JSON.readTree("{\"amount\":7}");
        agent.approveToolCall(r.runId(), call.toolCallId(), ApproveOptions.builder().actor("alice").args(edited).build()).close();
        dev.baton.agent.AgentRun listed = agent.listSuspendedRuns().runs().stream().filter(x -> x.runId().equals(r.runId()))
                .findFirst().orElseThrow(() -> new AssertionError("rule D3: the interrupted run is not listed"));
        assertThat(listed.interrupted()).as("rule D3: a run whose stream was closed after the approval").isTrue();
        assertThat(listed.toolCalls()).as("rule D3: calls that wait for a person after the approval").isEmpty();
        assertThat(listed.approvedCalls()).as("rule D3: the approved call, listed with what was approved").singleElement()
                .satisfies(a -> {
                    assertThat(a.toolCallId()).as("its id").isEqualTo(call.toolCallId());
                    assertThat(a.args()).as("its arguments as proposed").isEqualTo(JSON.readTree("{\"amount\":10}"));
                    assertThat(a.approvedArgs()).as("its arguments as approved").isEqualTo(edited);
                });
        assertThat(chargedWith).as("rule D3: the tool before the run goes on").isEmpty();
        assertThat(agent.continueRun(r.runId()).result().outcome()).as("rule D3: continueRun").isEqualTo(RunOutcome.COMPLETED);
        assertThat(chargedWith).as("rule D3: the tool ran with the edit").containsExactly(java.util.Map.of("amount", 7));
    }

    @Test
    void aBadEditIsRefusedNamingTheFieldAndTheRuleAndNothingChanges() throws Exception {
        Agent agent = agent();
        AgentResult r = suspend(agent, "t-3", "u-3");
        RunSnapshot before = store.find(r.runId()).orElseThrow();
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r),
                ApproveOptions.builder().args(JSON.readTree("{\"amount\":0}")).build()))
                .isInstanceOf(InvalidToolInputException.class).hasMessageContaining("'amount'").hasMessageContaining("minimum");
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r),
                ApproveOptions.builder().args(JSON.readTree("{\"amount\":\"ten\"}")).build()))
                .isInstanceOf(InvalidToolInputException.class).hasMessageContaining("'amount'").hasMessageContaining("integer");
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r),
                ApproveOptions.builder().args(JSON.readTree("{}")).build()))
                .isInstanceOf(InvalidToolInputException.class).hasMessageContaining("'amount' is required");
        assertThat(store.find(r.runId())).contains(before);
        assertThat(recordsOf(r.runId())).isEmpty();
        assertThat(charges).hasValue(0);
    }

    @Test
    void aDecisionBoundToAnotherDigestIsRefusedAndNothingRuns() {
        Agent agent = agent();
        AgentResult r = suspend(agent, "t-4", "u-4");
        RunSnapshot before = store.find(r.runId()).orElseThrow();
        String stale = "0".repeat(64);
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().digest(stale).build()))
                .isInstanceOf(DecisionConflictException.class).hasMessageContaining(stale);
        assertThatThrownBy(() -> agent.declineToolCall(r.runId(), callId(r), DeclineOptions.builder().digest(stale).build()))
                .isInstanceOf(DecisionConflictException.class);
        assertThat(store.find(r.runId())).contains(before);
        assertThat(recordsOf(r.runId())).isEmpty();
        assertThat(charges).hasValue(0);
    }

    @Test
    void declineCancelAndDiscardAreRecordedAndKeptAfterTheRunEnds() {
        Agent agent = agent();
        AgentResult declined = suspend(agent, "t-5", "u-5");
        agent.declineToolCall(declined.runId(), callId(declined),
                DeclineOptions.builder().actor("bob").reason("too much").build()).result();
        AgentResult cancelled = suspend(agent, "t-5", "u-5");
        agent.cancelRun(cancelled.runId(), DecisionOptions.builder().actor("carol").reason("duplicate").build());
        AgentResult discarded = suspend(agent, "t-5", "u-5");
        agent.discardRun(discarded.runId(), DecisionOptions.by("dave"));
        DecisionRecord d = recordsOf(declined.runId()).get(0);
        assertThat(d.kind()).isEqualTo(DecisionKind.DECLINE);
        assertThat(d.actor()).isEqualTo("bob");
        assertThat(d.reason()).isEqualTo("too much");
        DecisionRecord c = recordsOf(cancelled.runId()).get(0);
        assertThat(c.kind()).isEqualTo(DecisionKind.CANCEL);
        assertThat(c.actor()).isEqualTo("carol");
        assertThat(c.reason()).isEqualTo("duplicate");
        assertThat(c.toolCallId()).isNull();
        DecisionRecord x = recordsOf(discarded.runId()).get(0);
        assertThat(x.kind()).isEqualTo(DecisionKind.DISCARD);
        assertThat(x.actor()).isEqualTo("dave");
        assertThat(store.find(declined.runId())).isEmpty();
        assertThat(store.find(cancelled.runId())).isEmpty();
        assertThat(store.find(discarded.runId())).isEmpty();
        assertThat(agent.listDecisions(dev.baton.agent.AgentListDecisionsOptions.builder().threadId("t-5").build()).items())
                .extracting(DecisionRecord::kind).containsExactlyInAnyOrder(DecisionKind.DECLINE, DecisionKind.CANCEL, DecisionKind.DISCARD);
    }

    @Test
    void anExpiryByPolicyIsRecordedBySystem() {
        Agent agent = agentBuilder(store).waitTimeout(Duration.ofMinutes(5)).onExpiry(ExpiryPolicy.decline("nobody answered")).build();
        AgentResult r = suspend(agent, "t-6", "u-6");
        clock.advance(Duration.ofMinutes(6));
        agent.expireDueRuns(10);
        DecisionRecord d = recordsOf(r.runId()).get(0);
        assertThat(d.kind()).isEqualTo(DecisionKind.EXPIRE);
        assertThat(d.actor()).isEqualTo(DecisionRecord.SYSTEM);
        assertThat(d.reason()).isEqualTo("nobody answered");
        assertThat(d.toolCallId()).isEqualTo(callId(r));
        assertThat(d.decidedAt()).isEqualTo(clock.instant());
    }

    @Test
    void aDecisionOnADecidedCallSaysByWhomAndWhen() {
        Agent agent = agent();
        AgentResult r = suspend(agent, "t-7", "u-7");
        agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().actor("alice").build()).result();
        assertThatThrownBy(() -> agent.declineToolCall(r.runId(), callId(r), DeclineOptions.builder().actor("bob").build()))
                .isInstanceOf(AlreadyDecidedException.class).hasMessageContaining("'alice'")
                .hasMessageContaining(clock.instant().toString()).hasMessageContaining("ended")
                .satisfies(e -> assertThat(((AlreadyDecidedException) e).actor()).isEqualTo("alice"));
        assertThat(recordsOf(r.runId())).hasSize(1);
    }

    /**
     * Rule D8: a decision recorded without an actor (a Java caller that named nobody: recorded as
     * {@code unknown}) is told as such to a second approver, never as a person named 'unknown'.
     */
    @Test
    void aDecisionWithoutAnActorIsToldAsAnUnnamedCaller() {
        Agent agent = agent();
        AgentResult r = suspend(agent, "t-9", "u-9");
        agent.approveToolCall(r.runId(), callId(r)).result();
        assertThat(recordsOf(r.runId())).singleElement().extracting(d -> d.actor())
                .as("rule D1: the actor recorded for a decision that named nobody").isEqualTo(DecisionRecord.UNKNOWN);
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId(r), ApproveOptions.builder().actor("bob").build()))
                .as("rule D8: a second approval of a call decided by nobody named").isInstanceOf(AlreadyDecidedException.class)
                .hasMessageContaining("by an unnamed caller (no actor given)").hasMessageNotContaining("'unknown'");
    }

    @Test
    void aSecondApprovalOfACallThatRanBeforeTheModelFailedSaysByWhomAndNamesContinueRun() {
        java.util.concurrent.atomic.AtomicBoolean modelDown = new java.util.concurrent.atomic.AtomicBoolean();
        dev.baton.model.LanguageModel rules = model();
        Agent agent = agentBuilder(store).model(request -> {
            if (modelDown.get()) throw new IllegalStateException("the model is down");
            return rules.stream(request);
        }).build();
        AgentResult r = suspend(agent, "t-8", "u-8");
        String callId = callId(r);
        java.time.Instant decidedAt = clock.instant();
        modelDown.set(true);
        // the approval is recorded, the tool runs, then the model fails: the run is kept, interrupted
        AgentResult first = agent.approveToolCall(r.runId(), callId, ApproveOptions.builder().actor("alice").build()).result();
        assertThat(first.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
        assertThat(charges).hasValue(1);
        clock.advance(Duration.ofMinutes(1));
        RunSnapshot interrupted = store.find(r.runId()).orElseThrow();
        for (ApproveOptions again : List.of(ApproveOptions.builder().actor("bob").build(), ApproveOptions.builder().build())) {
            assertThatThrownBy(() -> agent.approveToolCall(r.runId(), callId, again))
                    .isInstanceOf(AlreadyDecidedException.class).hasMessageContaining("'alice'")
                    .hasMessageContaining(decidedAt.toString()).hasMessageContaining("continueRun(\"" + r.runId() + "\")")
                    .satisfies(e -> {
                        AlreadyDecidedException already = (AlreadyDecidedException) e;
                        assertThat(already.actor()).isEqualTo("alice");
                        assertThat(already.decidedAt()).isEqualTo(decidedAt);
                        assertThat(already.decision()).isEqualTo("approve");
                        assertThat(already.toolCallId()).isEqualTo(callId);
                    });
        }
        assertThat(store.find(r.runId())).contains(interrupted);
        assertThat(recordsOf(r.runId())).extracting(DecisionRecord::kind).containsExactly(DecisionKind.APPROVE);
        modelDown.set(false);
        assertThat(agent.continueRun(r.runId()).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(charges).hasValue(1);
    }
}
