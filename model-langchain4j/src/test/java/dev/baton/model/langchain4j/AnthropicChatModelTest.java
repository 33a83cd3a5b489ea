package dev.baton.model.langchain4j;

import static dev.baton.model.langchain4j.AnthropicWire.toolUse;
import static dev.baton.model.langchain4j.Fixtures.INSTRUCTIONS;
import static dev.baton.model.langchain4j.Fixtures.errorMessage;
import static dev.baton.model.langchain4j.Fixtures.json;
import static dev.baton.model.langchain4j.Fixtures.textDeltas;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOutcome;
import dev.baton.model.LanguageModel;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@code langchain4j-anthropic} behind Baton over real HTTP, so a second wire format is proven: a
 * stub speaking Anthropic's Messages API (system prompt apart, content blocks, {@code tool_use}
 * and {@code tool_result} with {@code is_error}, named stream events) on loopback.
 */
class AnthropicChatModelTest extends StubbedProviderTest {
    private String agentId;

    @BeforeEach
    void newAgentId() {
        agentId = Fixtures.uniqueAgentId();
    }

    private AnthropicChatModel anthropic() {
        return AnthropicChatModel.builder().baseUrl(stub.url("/v1")).apiKey("test-key").modelName(AnthropicWire.MODEL)
                .maxRetries(0).timeout(Duration.ofSeconds(10)).build();
    }

    private Agent agent(LanguageModel model) {
        return agent(agentId, model);
    }

    @Test
    void requestsCarryTheSystemPromptTheMessagesAndEachToolsInputSchema() {
        stub.then(AnthropicWire.answer("Hello!"));

        AgentResult result = agent(LangChain4jModel.of(anthropic())).generate("Hi");

        assertThat(result.text()).isEqualTo("Hello!");
        StubProvider.Received r = stub.request(0);
        assertThat(r.path()).isEqualTo("/v1/messages");
        assertThat(r.header("x-api-key")).isEqualTo("test-key");
        assertThat(r.header("anthropic-version")).isNotBlank();
        JsonNode body = r.body();
        assertThat(body.path("model").asText()).isEqualTo(AnthropicWire.MODEL);
        assertThat(body.path("system").toString()).contains(INSTRUCTIONS);
        assertThat(body.path("messages")).hasSize(1);
        assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("user");
        assertThat(body.path("messages").get(0).path("content").toString()).contains("Hi");
        JsonNode tool = body.path("tools").get(0);
        assertThat(tool.path("name").asText()).isEqualTo("bookFlight");
        assertThat(tool.path("description").asText()).isEqualTo("Books a flight");
        assertThat(tool.path("input_schema").path("properties")).isEqualTo(Fixtures.bookFlightSchema().path("properties"));
        assertThat(tool.path("input_schema").path("required")).isEqualTo(Fixtures.bookFlightSchema().path("required"));
    }

    @Nested
    class Approval {

        @Test
        void anApprovedCallsResultReachesTheModelAsAToolResultBlock() {
            stub.then(AnthropicWire.answer("I'll book that.", toolUse("toolu_1", "bookFlight", "{\"to\":\"SFO\",\"passengers\":2}")))
                    .then(AnthropicWire.answer("Booked 2 seats to SFO."));
            AgentResult first = agent(LangChain4jModel.of(anthropic())).generate("Book two seats to SFO");
            assertThat(first.outcome()).isEqualTo(RunOutcome.SUSPENDED);

            Agent other = agent(LangChain4jModel.of(anthropic()));
            AgentRun run = other.listSuspendedRuns().runs().get(0);
            AgentResult approved = other.approveToolCall(run.runId(), "toolu_1").result();

            assertThat(approved.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(approved.text()).isEqualTo("Booked 2 seats to SFO.");
            assertThat(bookings).hasValue(1);
            JsonNode messages = stub.request(1).body().path("messages");
            assertThat(messages).hasSize(3);
            JsonNode assistant = messages.get(1);
            assertThat(assistant.path("role").asText()).isEqualTo("assistant");
            assertThat(assistant.path("content").get(0)).isEqualTo(json("{'type':'text','text':'I\\u0027ll book that.'}"));
            JsonNode use = assistant.path("content").get(1);
            assertThat(use.path("type").asText()).isEqualTo("tool_use");
            assertThat(use.path("id").asText()).isEqualTo("toolu_1");
            assertThat(use.path("input")).isEqualTo(json("{'to':'SFO','passengers':2}"));
            JsonNode toolResult = messages.get(2).path("content").get(0);
            assertThat(messages.get(2).path("role").asText()).isEqualTo("user");
            assertThat(toolResult.path("type").asText()).isEqualTo("tool_result");
            assertThat(toolResult.path("tool_use_id").asText()).isEqualTo("toolu_1");
            assertThat(json(contentText(toolResult))).isEqualTo(json("{'booked':'SFO','passengers':2}"));
            assertThat(toolResult.path("is_error").asBoolean(false)).isFalse();
        }

        @Test
        void aDeclinedCallsReasonReachesTheModel() {
            stub.then(AnthropicWire.answer(null, toolUse("toolu_1", "bookFlight", "{\"to\":\"SFO\",\"passengers\":2}")))
                    .then(AnthropicWire.answer("Understood, no booking."));
            agent(LangChain4jModel.of(anthropic())).generate("Book two seats to SFO");

            Agent other = agent(LangChain4jModel.of(anthropic()));
            AgentRun run = other.listSuspendedRuns().runs().get(0);
            AgentResult declined = other.declineToolCall(run.runId(), "toolu_1", "Too expensive this week").result();

            assertThat(declined.text()).isEqualTo("Understood, no booking.");
            assertThat(bookings).hasValue(0);
            JsonNode toolResult = stub.request(1).body().path("messages").get(2).path("content").get(0);
            assertThat(toolResult.path("tool_use_id").asText()).isEqualTo("toolu_1");
            assertThat(contentText(toolResult)).isEqualTo("Too expensive this week");
        }
    }

    @Test
    void aToolErrorIsFlaggedAsAnErrorResult() {
        stub.then(AnthropicWire.answer(null, toolUse("toolu_w", "getWeather", "{\"city\":42}")))
                .then(AnthropicWire.answer("Let me retry."));

        agent(LangChain4jModel.of(anthropic())).generate("Weather?");

        JsonNode toolResult = stub.request(1).body().path("messages").get(2).path("content").get(0);
        assertThat(toolResult.path("is_error").asBoolean()).isTrue();
        assertThat(contentText(toolResult)).isEqualTo("Invalid arguments for getWeather: field 'city' must be a string, got 42");
    }

    @Test
    void anOverloadedProviderNamesTheStatusAndItsMessage() {
        stub.then(AnthropicWire.error(529, "overloaded_error", "Overloaded"));

        AgentResult result = agent(LangChain4jModel.of(anthropic())).generate("Hi");

        assertThat(result.outcome()).isEqualTo(RunOutcome.FAILED);
        assertThat(errorMessage(result)).contains("Anthropic (claude-sonnet-4-5) answered HTTP 529 (overloaded): Overloaded");
    }

    @Test
    void theStreamingModelHandsOnTextAndAssemblesToolInputFragments() {
        stub.then(AnthropicWire.stream(new String[] {"I'll ", "book ", "that."}, 4,
                toolUse("toolu_1", "bookFlight", "{\"to\":\"SFO\",\"passengers\":2}")));
        AnthropicStreamingChatModel streaming = AnthropicStreamingChatModel.builder().baseUrl(stub.url("/v1")).apiKey("test-key")
                .modelName(AnthropicWire.MODEL).timeout(Duration.ofSeconds(10)).build();

        AgentResult result = agent(LangChain4jModel.of(streaming)).generate("Book two seats to SFO");

        assertThat(result.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(textDeltas(result.events())).containsExactly("I'll ", "book ", "that.");
        assertThat(result.waitingCalls()).singleElement().satisfies(c -> {
            assertThat(c.toolCallId()).isEqualTo("toolu_1");
            assertThat(c.args()).isEqualTo(json("{'to':'SFO','passengers':2}"));
        });
        assertThat(stub.request(0).body().path("stream").asBoolean()).isTrue();
    }

    /** A tool_result's content: a string, or text blocks. */
    private static String contentText(JsonNode toolResult) {
        JsonNode content = toolResult.path("content");
        if (content.isTextual()) return content.asText();
        StringBuilder sb = new StringBuilder();
        for (JsonNode block : content) sb.append(block.path("text").asText());
        return sb.toString();
    }
}
