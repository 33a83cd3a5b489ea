package dev.baton.tck.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.FinishReason;
import dev.baton.agent.ResumeOptions;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.StoreUnderTest;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Approve, decline and resume over the store: the events of each, what the tools and the model
 * see, what is stored and when it goes; per-call approval, tool and model failures, several calls in
 * one step, the maximum of steps.
 */
public abstract class Lifecycle extends AgentRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Lifecycle(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void anApprovalSuspendsTheRunWithTheReferenceEventsAndNoFinish() {
        AgentResult r = suspendForApproval(agent(), "t", "u");
        assertThat(r.eventTypes()).containsExactly("start", "step-start", "tool-call", "tool-call-approval");
        assertThat(bookings).hasValue(0);
    }

    @Test
    void aSuspendedApprovalIsListedWithItsArgs() {
        Agent agent = agent();
        AgentResult r = suspendForApproval(agent, "t", "u");
        AgentRun run = agent.listSuspendedRuns().runs().get(0);
        assertThat(run.runId()).isEqualTo(r.runId());
        assertThat(run.status()).isEqualTo(RunStatus.SUSPENDED);
        assertThat(run.threadId()).isEqualTo("t");
        assertThat(run.resourceId()).isEqualTo("u");
        assertThat(run.suspendedAt()).isEqualTo(clock.instant());
        AgentRunToolCall call = run.toolCalls().get(0);
        assertThat(call.toolName()).isEqualTo("bookFlight");
        assertThat(call.requiresApproval()).isTrue();
        assertThat(call.args().path("to").asText()).isEqualTo("SFO");
        assertThat(call.suspendPayload()).isNull();
    }

    @Test
    void aToolSuspensionIsListedWithItsPayloadAndNoArgs() {
        Agent agent = agent();
        AgentResult r = agent.generate("Which city?", on("t", "u"));
        assertThat(r.eventTypes()).containsExactly("start", "step-start", "tool-call", "tool-call-suspended");
        AgentRunToolCall call = agent.listSuspendedRuns().runs().get(0).toolCalls().get(0);
        assertThat(call.toolName()).isEqualTo("askCity");
        assertThat(call.requiresApproval()).isFalse();
        assertThat(call.args()).isNull();
        assertThat(call.suspendPayload().path("question").asText()).isEqualTo("Which city?");
    }

    @Test
    void aRunThatNeverSuspendsIsNeverStored() {
        Agent agent = agent();
        AgentResult r = agent.generate("What is the weather?", on("t", "u"));
        assertThat(r.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(r.eventTypes()).startsWith("start", "step-start", "tool-call", "tool-result", "step-finish",
                "step-start").endsWith("step-finish", "finish");
        assertThat(r.text()).contains("getWeather");
        assertThat(store.find(r.runId())).isEmpty();
        assertThat(agent.listSuspendedRuns().total()).isZero();
    }

    @Test
    void approvingRunsTheToolOnceAndTheModelContinuesThenTheRunIsDeleted() {
        Agent agent = agent();
        AgentResult suspended = suspendForApproval(agent, "t", "u");
        AgentResult done = agent.approveToolCall(suspended.runId(), onlyCallId(suspended)).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.eventTypes()).containsSubsequence("start", "tool-result", "step-finish", "step-start",
                "text-delta", "step-finish", "finish");
        assertThat(done.eventTypes().get(1)).isEqualTo("tool-result");
        assertThat(done.text()).contains("bookFlight").contains("SFO");
        assertThat(bookings).hasValue(1);
        assertThat(store.find(suspended.runId())).isEmpty();
        assertThat(agent.listSuspendedRuns().total()).isZero();
    }

    @Test
    void declineDoesNotRunTheToolAndTheModelSeesTheDefaultText() {
        Agent agent = agent();
        AgentResult suspended = suspendForApproval(agent, "t", "u");
        AgentResult done = agent.declineToolCall(suspended.runId(), onlyCallId(suspended)).result();
        assertThat(bookings).hasValue(0);
        assertThat(done.eventTypes()).containsSubsequence("start", "tool-output-denied", "step-finish", "step-start",
                "text-delta", "finish");
        assertThat(done.text()).contains("Tool call was not approved by the user");
        Message.ToolResult seen = lastToolResult();
        assertThat(seen.result().asText()).isEqualTo("Tool call was not approved by the user");
        assertThat(store.find(suspended.runId())).isEmpty();
    }

    @Test
    void declineWithAReasonGivesTheModelTheReason() {
        Agent agent = agent();
        AgentResult suspended = suspendForApproval(agent, "t", "u");
        AgentResult done = agent.declineToolCall(suspended.runId(), onlyCallId(suspended), "Too expensive").result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(lastToolResult().result().asText()).isEqualTo("Too expensive");
        assertThat(done.events()).filteredOn(e -> e instanceof AgentEvent.ToolOutputDenied)
                .singleElement().extracting(e -> ((AgentEvent.ToolOutputDenied) e).reason()).isEqualTo("Too expensive");
    }

    @Test
    void resumeWithDataGivesTheToolTheData() {
        Agent agent = agent();
        AgentResult suspended = agent.generate("Which city?", on("t", "u"));
        AgentResult done = agent.resumeStream(Map.of("name", "San Francisco"), suspended.runId()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(resumeDataSeen).singleElement().extracting(n -> n.path("name").asText()).isEqualTo("San Francisco");
        assertThat(done.eventTypes().get(1)).isEqualTo("tool-result");
        assertThat(done.text()).contains("San Francisco");
        assertThat(store.find(suspended.runId())).isEmpty();
    }

    @Test
    void aRunThatSuspendsAgainKeepsItsRunIdAndUpdatesSuspendedAt() {
        Agent agent = agent();
        AgentResult first = agent.generate("Which city?", on("t", "u"));
        Instant firstSuspension = agent.listSuspendedRuns().runs().get(0).suspendedAt();
        clock.advance(Duration.ofMinutes(5));
        AgentResult again = agent.resumeStream(Map.of("name", ""), first.runId()).result();
        assertThat(again.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(again.runId()).isEqualTo(first.runId());
        AgentRun run = agent.listSuspendedRuns().runs().get(0);
        assertThat(run.runId()).isEqualTo(first.runId());
        assertThat(run.suspendedAt()).isEqualTo(firstSuspension.plus(Duration.ofMinutes(5)));
        assertThat(run.toolCalls().get(0).suspendPayload().path("question").asText()).isEqualTo("Which city, again?");
        assertThat(agent.resumeStream(Map.of("name", "Oslo"), first.runId()).result().outcome())
                .isEqualTo(RunOutcome.COMPLETED);
    }

    @Test
    void approvalMayBeDecidedPerCall() {
        Agent agent = agent();
        assertThat(agent.generate("pay small", on("t", "u")).outcome()).isEqualTo(RunOutcome.COMPLETED);
        AgentResult big = agent.generate("pay big", on("t", "u"));
        assertThat(big.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(big.waitingCalls().get(0).args().path("amount").asInt()).isEqualTo(500);
    }

    @Test
    void anApprovalPredicateThatThrowsMeansApprovalRequired() {
        assertThat(agent().generate("audit please", on("t", "u")).outcome()).isEqualTo(RunOutcome.SUSPENDED);
    }

    @Test
    void aToolThatThrowsGivesAToolErrorAndTheRunGoesOn() {
        Agent agent = agent();
        AgentResult suspended = agent.generate("flaky thing", on("t", "u"));
        AgentResult done = agent.approveToolCall(suspended.runId(), onlyCallId(suspended)).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.eventTypes()).containsSubsequence("start", "tool-error", "step-finish", "finish");
        assertThat(lastToolResult().isError()).isTrue();
        assertThat(lastToolResult().result().asText()).contains("flaky is down");
    }

    @Test
    void aModelFailureDuringResumeKeepsTheRunStoredAsInterruptedAndContinueRunRetriesTheStep() {
        AtomicInteger calls = new AtomicInteger();
        LanguageModel failingSecond = request -> {
            if (calls.incrementAndGet() == 2) throw new IllegalStateException("model provider is down");
            return rules().build().stream(request);
        };
        Agent agent = agentBuilder(agentId).model(failingSecond).build();
        AgentResult suspended = suspendForApproval(agent, "t", "u");
        AgentResult failed = agent.approveToolCall(suspended.runId(), onlyCallId(suspended)).result();
        assertThat(failed.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
        assertThat(failed.eventTypes()).endsWith("error", "step-finish", "finish");
        assertThat(failed.error()).isInstanceOf(dev.baton.RunInterruptedException.class)
                .hasMessageContaining("model provider is down").hasMessageContaining(suspended.runId())
                .hasCauseInstanceOf(dev.baton.ModelException.class);
        AgentRun kept = agent.listSuspendedRuns().runs().get(0);
        assertThat(kept.runId()).isEqualTo(suspended.runId());
        assertThat(kept.interrupted()).isTrue();
        assertThat(kept.interruption()).contains("model provider is down");
        assertThat(kept.toolCalls()).isEmpty();
        AgentResult done = agent.continueRun(suspended.runId()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.text()).contains("SFO");
        assertThat(bookings).as("the stored result is used; the tool does not run again").hasValue(1);
        assertThat(store.find(suspended.runId())).isEmpty();
    }

    @Test
    void aModelFailureInANewRunEndsItWithTheProvidersMessageAndStoresNothing() {
        Agent agent = agentBuilder(agentId).model(request -> {
            throw new IllegalStateException("429 Too Many Requests: slow down");
        }).build();
        AgentResult failed = agent.generate("Book me a flight", on("t", "u"));
        assertThat(failed.outcome()).isEqualTo(RunOutcome.FAILED);
        assertThat(failed.eventTypes()).containsExactly("start", "step-start", "error", "step-finish", "finish");
        assertThat(failed.error()).isInstanceOf(dev.baton.ModelException.class)
                .hasMessageContaining("429 Too Many Requests: slow down");
        assertThat(store.find(failed.runId())).isEmpty();
    }

    @Test
    void severalCallsInOneStepEachWaitAndTheRunGoesOnWhenAllAreDecided() {
        Agent agent = agentBuilder(agentId).model(recording(scriptedCalls(
                call("c1", "bookFlight", "to", "SFO"), call("c2", "bookFlight", "to", "LAX"), call("c3", "askCity")))).build();
        AgentResult r = agent.generate("go", on("t", "u"));
        assertThat(r.waitingCalls()).extracting(AgentRunToolCall::toolCallId).containsExactly("c1", "c2", "c3");

        AgentResult afterData = agent.resumeStream(Map.of("name", "Rome"), r.runId()).result();
        assertThat(afterData.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(agent.listSuspendedRuns().runs().get(0).toolCalls()).extracting(AgentRunToolCall::toolCallId)
                .containsExactly("c1", "c2");
        assertThat(agent.approveToolCall(r.runId(), "c1").result().outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(bookings).hasValue(1);
        assertThat(agent.listSuspendedRuns().runs().get(0).toolCalls()).extracting(AgentRunToolCall::toolCallId)
                .containsExactly("c2");
        AgentResult done = agent.declineToolCall(r.runId(), "c2").result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.text()).isEqualTo("all done");
        assertThat(bookings).hasValue(1);
        List<Message> last = modelInputs.get(modelInputs.size() - 1);
        assertThat(last).filteredOn(m -> m instanceof Message.ToolResult).hasSize(3);
    }

    @Test
    void anExplicitMaxStepsIsHonouredWhateverTheAgentsDefault() {
        LanguageModel loops = request -> java.util.stream.Stream.of(call("w" + request.completedSteps(), "getWeather"));
        java.util.function.Function<AgentResult, Long> steps = r -> r.events().stream()
                .filter(e -> e instanceof AgentEvent.StepStart).count();
        Agent two = agentBuilder(agentId).model(loops).maxSteps(2).build();
        AgentResult tenOfTwo = two.generate("weather", RunOptions.builder().maxSteps(10).build());
        assertThat(steps.apply(tenOfTwo)).isEqualTo(10);
        assertThat(tenOfTwo.events().get(tenOfTwo.events().size() - 1))
                .isInstanceOfSatisfying(AgentEvent.Finish.class, f -> assertThat(f.finishReason()).isEqualTo(FinishReason.MAX_STEPS));
        Agent fifteen = agentBuilder(agentId).model(loops).maxSteps(15).build();
        assertThat(steps.apply(fifteen.generate("weather", RunOptions.builder().maxSteps(10).build()))).isEqualTo(10);
        assertThat(steps.apply(two.generate("weather", RunOptions.DEFAULT))).as("the agent's default").isEqualTo(2);
    }

    @Test
    void resumeNeedsAToolCallIdWhenSeveralCallsWaitForData() {
        Agent agent = agentBuilder(agentId).model(scriptedCalls(call("d1", "askCity"), call("d2", "askCity"))).build();
        AgentResult r = agent.generate("go", on("t", "u"));
        assertThatThrownBy(() -> agent.resumeStream(Map.of("name", "x"), r.runId()))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("toolCallId");
        assertThat(stored(r.runId()).version()).isEqualTo(1);
        AgentResult again = agent.resumeStream(Map.of("name", "Oslo"), ResumeOptions.of(r.runId(), "d2")).result();
        assertThat(again.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(again.waitingCalls()).extracting(AgentRunToolCall::toolCallId).containsExactly("d1");
    }
}
