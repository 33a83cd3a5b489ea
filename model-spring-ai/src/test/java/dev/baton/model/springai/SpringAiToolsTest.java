package dev.baton.model.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.model.ToolCall;
import dev.baton.tool.InvalidToolInputException;
import dev.baton.tool.Tool;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * Spring AI {@code @Tool} beans and {@code ToolCallback}s as Baton tools: their schemas, approvals
 * set from outside, arguments refused before anything runs, the {@code ToolContext} a call gets,
 * and exceptions as tool errors. The model is scripted (one call, then "ok"), the tools are real.
 */
class SpringAiToolsTest {

    record Address(String street, String city) { }

    /** A service as a Spring application has it: plain methods, annotated for Spring AI. */
    static class OrderService {
        final AtomicInteger refunds = new AtomicInteger();
        final List<Map<String, Object>> contexts = Collections.synchronizedList(new ArrayList<>());

        @org.springframework.ai.tool.annotation.Tool(description = "Refunds part of an order")
        String refund(@ToolParam(description = "the order") String orderId, int amountCents, ToolContext context) {
            refunds.incrementAndGet();
            contexts.add(context.getContext());
            return "refunded " + amountCents + " on " + orderId;
        }

        @org.springframework.ai.tool.annotation.Tool(description = "Looks an order up")
        Map<String, Object> order(String orderId) {
            return Map.of("id", orderId, "status", "shipped");
        }

        @org.springframework.ai.tool.annotation.Tool(description = "Ships an order from one address to another")
        String ship(String orderId, Address from, Address to) {
            return "shipping " + orderId + " to " + to.city();
        }

        @org.springframework.ai.tool.annotation.Tool(description = "Closes the books")
        String close(String reason) {
            throw new IllegalStateException("the ledger is closed until Monday");
        }
    }

    private final OrderService orders = new OrderService();

    /** Calls {@code tool} once with {@code args}, then answers "ok". */
    private static LanguageModel calling(String tool, String args) {
        return request -> request.lastMessage() instanceof Message.User
                ? Stream.of(new ModelChunk.ToolCallRequest(new ToolCall("call_1", tool, Fixtures.json(args))))
                : Stream.of(new ModelChunk.TextDelta("ok"));
    }

    private static Agent agent(LanguageModel model, List<Tool> tools) {
        return Agent.builder(Fixtures.uniqueAgentId()).model(model).tools(tools).build();
    }

    private static String toolError(AgentResult result) {
        return result.events().stream().filter(e -> e instanceof AgentEvent.ToolError)
                .map(e -> ((AgentEvent.ToolError) e).error()).findFirst().orElseThrow();
    }

    @Test
    void eachToolMethodIsABatonToolWithTheSchemaSpringAiMadeForIt() {
        List<Tool> tools = SpringAiTools.from(orders).build();

        assertThat(tools).extracting(Tool::name).containsExactlyInAnyOrder("refund", "order", "ship", "close");
        Tool refund = tools.stream().filter(t -> t.name().equals("refund")).findFirst().orElseThrow();
        assertThat(refund.description()).isEqualTo("Refunds part of an order");
        JsonNode schema = refund.inputSchema();
        assertThat(schema.path("properties").fieldNames()).toIterable().containsExactlyInAnyOrder("orderId", "amountCents");
        assertThat(schema.path("properties").path("orderId").path("description").asText()).isEqualTo("the order");
        assertThat(schema.path("required")).extracting(JsonNode::asText).containsExactlyInAnyOrder("orderId", "amountCents");
        assertThat(refund.requiresApproval(Fixtures.json("{'orderId':'A1','amountCents':5}"))).isFalse();
    }

    @Nested
    class Approvals {
        @Test
        void byName_theCallWaitsAndTheMethodRunsOnceApproved() {
            Agent agent = agent(calling("refund", "{'orderId':'A1','amountCents':500}"), SpringAiTools.from(orders).requireApproval("refund").build());
            AgentResult first = agent.generate("refund A1");

            assertThat(first.outcome()).isEqualTo(RunOutcome.SUSPENDED);
            assertThat(orders.refunds).hasValue(0);
            AgentResult done = agent.approveToolCall(first.runId(), "call_1").result();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(orders.refunds).hasValue(1);
            assertThat(done.events()).filteredOn(e -> e instanceof AgentEvent.ToolResult)
                    .singleElement().satisfies(e -> assertThat(((AgentEvent.ToolResult) e).result().asText()).isEqualTo("refunded 500 on A1"));
        }

        @Test
        void byAPredicateOnTheArguments() {
            List<Tool> tools = SpringAiTools.from(orders).requireApproval("refund", args -> args.path("amountCents").asInt() > 10_000).build();

            assertThat(agent(calling("refund", "{'orderId':'A1','amountCents':500}"), tools).generate("small").outcome())
                    .isEqualTo(RunOutcome.COMPLETED);
            assertThat(agent(calling("refund", "{'orderId':'A1','amountCents':50000}"), tools).generate("big").outcome())
                    .isEqualTo(RunOutcome.SUSPENDED);
            assertThat(orders.refunds).hasValue(1);
        }

        @Test
        void byAPolicyThatSeesTheRun() {
            List<Tool> tools = SpringAiTools.from(orders)
                    .requireApproval("refund", (args, run) -> !"treasurer".equals(run.resourceId())).build();
            Agent agent = agent(calling("refund", "{'orderId':'A1','amountCents':500}"), tools);

            assertThat(agent.generate("x", RunOptions.builder().resourceId("treasurer").build()).outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(agent.generate("x", RunOptions.builder().resourceId("intern").build()).outcome()).isEqualTo(RunOutcome.SUSPENDED);
        }

        @Test
        void forAll() {
            List<Tool> tools = SpringAiTools.from(orders).requireApprovalForAll().build();
            Map<String, String> valid = Map.of("refund", "{'orderId':'A1','amountCents':1}", "order", "{'orderId':'A1'}",
                    "close", "{'reason':'x'}", "ship", "{'orderId':'A1','from':{'street':'a','city':'b'},'to':{'street':'a','city':'b'}}");
            assertThat(tools).allSatisfy(t -> assertThat(t.requiresApproval(Fixtures.json(valid.get(t.name())))).isTrue());
        }

        @Test
        void anEditedApprovalIsCheckedAgainstTheSchema() {
            Agent agent = agent(calling("refund", "{'orderId':'A1','amountCents':500}"), SpringAiTools.from(orders).requireApproval("refund").build());
            String runId = agent.generate("refund A1").runId();

            assertThatThrownBy(() -> agent.approveToolCall(runId, "call_1",
                    ApproveOptions.builder().args(Fixtures.json("{'orderId':'A1','amountCents':'lots'}")).build()))
                    .isInstanceOf(InvalidToolInputException.class).hasMessageContaining("amountCents");
            assertThat(orders.refunds).hasValue(0);
        }
    }

    @Nested
    class ArgumentsThatDoNotMatchTheSchema {
        private AgentResult call(String tool, String args) {
            return agent(calling(tool, args), SpringAiTools.from(orders).requireApprovalForAll().build()).generate("go");
        }

        @Test
        void areRefusedBeforeAnyoneIsAskedOrAnythingRuns() {
            AgentResult result = call("refund", "{'orderId':'A1','amountCents':'two hundred'}");

            assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);   // no approval asked: the model got an error
            assertThat(result.eventTypes()).doesNotContain("tool-call-approval");
            assertThat(toolError(result)).startsWith("Invalid arguments for refund: field 'amountCents' must be of type \"integer\"");
            assertThat(orders.refunds).hasValue(0);
        }

        @Test
        void missingAndUnknownFieldsToo() {
            assertThat(toolError(call("refund", "{'amountCents':5,'currency':'EUR'}")))
                    .contains("field 'orderId' is required", "field 'currency' is not allowed");
        }

        @Test
        void nestedTypesAreCheckedThroughTheirDefinitions() {
            assertThat(toolError(call("ship", "{'orderId':'A1','from':{'street':'a','city':'b'},'to':{'street':'a','city':7}}")))
                    .contains("field 'to.city' must be of type \"string\"");
        }
    }

    @Test
    void theToolContextCarriesTheCallAndTheGivenEntries() {
        List<Tool> tools = SpringAiTools.from(orders).toolContext("tenant", "acme").build();
        AgentResult result = agent(calling("refund", "{'orderId':'A1','amountCents':5}"), tools)
                .generate("x", RunOptions.builder().threadId("t-1").resourceId("user-7").build());

        assertThat(orders.contexts).singleElement().satisfies(ctx -> {
            assertThat(ctx).containsEntry("tenant", "acme")
                    .containsEntry(SpringAiTools.RUN_ID, result.runId())
                    .containsEntry(SpringAiTools.TOOL_CALL_ID, "call_1")
                    .containsEntry(SpringAiTools.THREAD_ID, "t-1")
                    .containsEntry(SpringAiTools.RESOURCE_ID, "user-7")
                    .containsEntry(SpringAiTools.ATTEMPT, 1)
                    .containsEntry(SpringAiTools.IDEMPOTENCY_KEY, result.runId() + ":call_1");
            assertThat(ctx.get(SpringAiTools.AGENT_ID)).asString().startsWith("spring-ai-");
        });
    }

    @Test
    void anExceptionFromTheToolIsAToolErrorWithTheToolsOwnMessage_andTheRunGoesOn() {
        AgentResult result = agent(calling("close", "{'reason':'eod'}"), SpringAiTools.from(orders).build()).generate("close");

        assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(toolError(result)).isEqualTo("the ledger is closed until Monday");
    }

    @Test
    void aJsonResultStaysJson() {
        AgentResult result = agent(calling("order", "{'orderId':'A1'}"), SpringAiTools.from(orders).build()).generate("where is A1");
        assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolResult).singleElement()
                .satisfies(e -> assertThat(((AgentEvent.ToolResult) e).result()).isEqualTo(Fixtures.json("{'id':'A1','status':'shipped'}")));
    }

    @Test
    void anyToolCallback() {
        ToolCallback echo = new ToolCallback() {
            @Override
            public ToolDefinition getToolDefinition() {
                return ToolDefinition.builder().name("echo").description("Echoes")
                        .inputSchema("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\",\"maxLength\":5}},\"required\":[\"text\"]}")
                        .build();
            }

            @Override
            public String call(String toolInput) {
                return toolInput;
            }
        };
        List<Tool> tools = SpringAiTools.from(echo).requireApproval("echo", args -> args.path("text").asText().startsWith("!")).build();

        AgentResult ok = agent(calling("echo", "{'text':'hi'}"), tools).generate("x");
        assertThat(ok.events()).filteredOn(e -> e instanceof AgentEvent.ToolResult).singleElement()
                .satisfies(e -> assertThat(((AgentEvent.ToolResult) e).result()).isEqualTo(Fixtures.json("{'text':'hi'}")));
        assertThat(toolError(agent(calling("echo", "{'text':'too long'}"), tools).generate("x"))).contains("maxLength");
        assertThat(agent(calling("echo", "{'text':'!rm'}"), tools).generate("x").outcome()).isEqualTo(RunOutcome.SUSPENDED);
    }

    @Test
    void refsIntoDefsAreFollowed() {
        ToolCallback move = new ToolCallback() {
            @Override
            public ToolDefinition getToolDefinition() {
                return ToolDefinition.builder().name("move").description("Moves")
                        .inputSchema("{\"type\":\"object\",\"$defs\":{\"Point\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"integer\"}},"
                                + "\"required\":[\"x\"]}},\"properties\":{\"from\":{\"$ref\":\"#/$defs/Point\"},\"to\":{\"$ref\":\"#/$defs/Point\"}}}")
                        .build();
            }

            @Override
            public String call(String toolInput) {
                return "moved";
            }
        };
        List<Tool> tools = SpringAiTools.from(move).requireApproval("move").build();
        assertThat(toolError(agent(calling("move", "{'from':{'x':1},'to':{'x':'far'}}"), tools).generate("x")))
                .isEqualTo("Invalid arguments for move: field 'to.x' must be of type \"integer\", got string \"far\"");
        assertThat(toolError(agent(calling("move", "{'from':{},'to':{'x':2}}"), tools).generate("x"))).contains("field 'from.x' is required");
        assertThat(agent(calling("move", "{'from':{'x':1},'to':{'x':2}}"), tools).generate("x").outcome()).isEqualTo(RunOutcome.SUSPENDED);
    }

    @Test
    void mistakesAreRefusedAtOnce() {
        assertThatThrownBy(() -> SpringAiTools.from(orders).requireApproval("refnud"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'refnud'").hasMessageContaining("refund");
        assertThatThrownBy(() -> SpringAiTools.from(orders, orders))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unique");
        assertThatThrownBy(() -> SpringAiTools.from(new Object()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("@Tool");
        assertThatThrownBy(() -> SpringAiTools.from(orders).toolContext("baton.runId", "x"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
