package dev.baton.tool;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.testing.TestStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** {@link ApprovalPolicy}: approval decided from a call's arguments and the run it belongs to. */
class ApprovalPolicyTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    record Booking(String to, int passengers) { }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static ApprovalContext context(String resourceId) {
        return new ApprovalContext("agent", "run-1", "call-1", "transfer", "thread-1", resourceId);
    }

    @Nested
    class OnTheTool {

        @Test
        void aPolicySeesTheInputAndTheRunsContext() {
            Tool tool = Tool.builder("transfer")
                    .requireApproval((input, run) -> input.path("amount").asInt() > 100 || !"treasury".equals(run.resourceId()))
                    .execute((input, ctx) -> "ok").build();

            assertThat(tool.requiresApproval(json("{'amount':50}"), context("treasury"))).isFalse();
            assertThat(tool.requiresApproval(json("{'amount':500}"), context("treasury"))).isTrue();
            assertThat(tool.requiresApproval(json("{'amount':50}"), context("alice"))).isTrue();
        }

        @Test
        void aPolicyThatThrowsMeansApprovalIsRequired() {
            Tool tool = Tool.builder("transfer").requireApproval((ApprovalPolicy) (input, run) -> {
                throw new IllegalStateException("boom");
            }).execute((input, ctx) -> "ok").build();

            assertThat(tool.requiresApproval(json("{}"), context("treasury"))).isTrue();
        }

        @Test
        void withoutTheRunsContextAPolicyToolCountsAsNeedingApproval() {
            Tool tool = Tool.builder("transfer").requireApproval((input, run) -> false).execute((input, ctx) -> "ok").build();

            assertThat(tool.requiresApproval(json("{}"))).isTrue();
            assertThat(tool.requiresApproval(json("{}"), context("treasury"))).isFalse();
        }

        @Test
        void aPredicateOrABooleanIsJudgedFromTheInputAloneInARunToo() {
            Tool byPredicate = Tool.builder("refund").requireApproval(input -> input.path("amount").asInt() > 100)
                    .execute((input, ctx) -> "ok").build();
            Tool never = Tool.builder("read").execute((input, ctx) -> "ok").build();

            assertThat(byPredicate.requiresApproval(json("{'amount':500}"), context("x"))).isTrue();
            assertThat(byPredicate.requiresApproval(json("{'amount':5}"), context("x"))).isFalse();
            assertThat(never.requiresApproval(json("{}"), context("x"))).isFalse();
        }

        @Test
        void theLastRequireApprovalWins() {
            Tool policyThenBoolean = Tool.builder("t").requireApproval((input, run) -> true).requireApproval(false)
                    .execute((input, ctx) -> "ok").build();
            Tool booleanThenPolicy = Tool.builder("t").requireApproval(true).requireApproval((input, run) -> false)
                    .execute((input, ctx) -> "ok").build();

            assertThat(policyThenBoolean.requiresApproval(json("{}"), context("x"))).isFalse();
            assertThat(booleanThenPolicy.requiresApproval(json("{}"), context("x"))).isFalse();
        }

        @Test
        void thePolicyGetsACopyOfTheInput() {
            Tool tool = Tool.builder("t").requireApproval((input, run) -> {
                ((ObjectNode) input).put("to", "MUTATED");
                return true;
            }).execute((input, ctx) -> "ok").build();
            JsonNode input = json("{'to':'SFO'}");

            tool.requiresApproval(input, context("x"));

            assertThat(input).isEqualTo(json("{'to':'SFO'}"));
        }

        @Test
        void aPolicyGivenBeforeTheInputTypeSeesTheRawArgumentsAndInvalidCallsAskNobody() {
            Tool tool = Tool.builder("bookFlight").requireApproval((input, run) -> "alice".equals(run.resourceId()))
                    .input(Booking.class).execute((in, ctx) -> "ok").build();

            assertThat(tool.requiresApproval(json("{'to':'SFO','passengers':1}"), context("alice"))).isTrue();
            assertThat(tool.requiresApproval(json("{'to':'SFO','passengers':1}"), context("bob"))).isFalse();
            assertThat(tool.requiresApproval(json("{'passengers':1}"), context("alice"))).isFalse();
        }

        @Test
        void aTypedRequireApprovalAfterThePolicyReplacesIt() {
            Tool tool = Tool.builder("bookFlight").requireApproval((input, run) -> true)
                    .input(Booking.class).requireApproval(false).execute((in, ctx) -> "ok").build();

            assertThat(tool.requiresApproval(json("{'to':'SFO','passengers':1}"), context("alice"))).isFalse();
        }
    }

    @Nested
    class InARun {

        @Test
        void coreAsksThePolicyWithTheRunsIdsAndSuspendsOnlyWhereItSaysSo() {
            List<ApprovalContext> seen = new CopyOnWriteArrayList<>();
            AtomicInteger transfers = new AtomicInteger();
            Tool transfer = Tool.builder("transfer")
                    .requireApproval((input, run) -> {
                        seen.add(run);
                        return !"treasury".equals(run.resourceId());
                    })
                    .execute((input, ctx) -> Map.of("sent", transfers.incrementAndGet()))
                    .build();
            try (Agent agent = Agent.builder("bank").store(new TestStore())
                    .model(DeterministicModel.builder().whenUserSays("send", "transfer", Map.of("amount", 10)).build())
                    .tools(transfer).build()) {

                AgentResult trusted = agent.generate("send it", RunOptions.builder().resourceId("treasury").threadId("t1").build());
                AgentResult other = agent.generate("send it", RunOptions.builder().resourceId("alice").threadId("t2").build());

                assertThat(trusted.outcome()).isEqualTo(RunOutcome.COMPLETED);
                assertThat(other.outcome()).isEqualTo(RunOutcome.SUSPENDED);
                assertThat(transfers).hasValue(1);
                assertThat(seen).hasSize(2);
                assertThat(seen.get(0)).isEqualTo(new ApprovalContext("bank", trusted.runId(), "call_1_0", "transfer", "t1", "treasury"));
                assertThat(seen.get(1)).isEqualTo(new ApprovalContext("bank", other.runId(), "call_1_0", "transfer", "t2", "alice"));

                AgentEvent.ToolCallApproval waiting = other.events().stream()
                        .filter(e -> e instanceof AgentEvent.ToolCallApproval).map(e -> (AgentEvent.ToolCallApproval) e)
                        .findFirst().orElseThrow();
                try (AgentStream approved = agent.approveToolCall(other.runId(), waiting.toolCallId())) {
                    assertThat(approved.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
                }
                assertThat(transfers).hasValue(2);
                assertThat(seen).as("an approved call is not judged again").hasSize(2);
            }
        }

        @Test
        void aPolicyThatThrowsSuspendsTheRun() {
            AtomicInteger runs = new AtomicInteger();
            Tool transfer = Tool.builder("transfer")
                    .requireApproval((ApprovalPolicy) (input, run) -> {
                        throw new IllegalStateException("policy service down");
                    })
                    .execute((input, ctx) -> runs.incrementAndGet())
                    .build();
            try (Agent agent = Agent.builder("bank").store(new TestStore())
                    .model(DeterministicModel.builder().whenUserSays("send", "transfer", Map.of("amount", 10)).build())
                    .tools(transfer).build()) {

                assertThat(agent.generate("send it").outcome()).isEqualTo(RunOutcome.SUSPENDED);
                assertThat(runs).hasValue(0);
            }
        }
    }
}
