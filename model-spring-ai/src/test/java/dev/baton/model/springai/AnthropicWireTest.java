package dev.baton.model.springai;

import static dev.baton.model.springai.Fixtures.INSTRUCTIONS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.ai.chat.model.ChatModel;

/**
 * Spring AI's Anthropic model against recorded Messages API exchanges (JSON and SSE) replayed on
 * 127.0.0.1: the system prompt, {@code tools[].input_schema}, {@code tool_use} and
 * {@code tool_result} blocks with their ids, parallel tool use, streamed text and
 * {@code input_json_delta} fragments, usage and stop reasons, and 401 / 429 / 500 / 529 answers.
 */
class AnthropicWireTest extends RecordedWireTest {
    @Override
    ChatModel providerModel(String serverRoot) {
        return Providers.anthropic(serverRoot);
    }

    @Test
    void aPlainAnswer_andTheRequestCarriesTheSystemPromptAndEachToolsInputSchema() {
        provider.then("anthropic/text.http");
        AgentResult result = agent(false).generate("What's the weather in Lisbon?");

        assertThat(result.text()).isEqualTo("Lisbon is sunny today, 24 °C.");
        RecordedProvider.Received request = provider.lastRequest();
        assertThat(request.path()).isEqualTo("/v1/messages");
        assertThat(request.headers().get("x-api-key")).isEqualTo("test-key");
        JsonNode body = request.body();
        assertThat(body.path("system").toString()).contains(INSTRUCTIONS);
        assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("user");
        assertThat(body.path("messages").get(0).toString()).contains("What's the weather in Lisbon?");
        assertThat(body.path("tools")).extracting(t -> t.path("name").asText()).containsExactly("bookFlight", "getWeather");
        assertThat(body.path("tools").get(0).path("input_schema").path("required")).extracting(JsonNode::asText)
                .containsExactly("to", "passengers");
        assertThat(answers).singleElement().satisfies(a -> {
            assertThat(a.finishReason()).isEqualTo(AnswerMetadata.FinishReason.STOP);
            assertThat(a.providerFinishReason()).hasValue("end_turn");
            assertThat(a.inputTokens()).hasValue(412);
            assertThat(a.outputTokens()).hasValue(15);
            assertThat(a.provider()).isEqualTo("Anthropic (claude-sonnet-4-5)");
        });
    }

    @Test
    void toolUseWaitsForApproval_andTheToolResultGoesBackWithItsId() {
        provider.then("anthropic/tool-use.http");
        Agent agent = agent(false);
        AgentResult first = agent.generate("Book two seats to Lisbon");

        assertThat(first.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(first.text()).isEqualTo("I'll book that for you.");
        assertThat(first.waitingCalls()).singleElement().satisfies(c -> {
            assertThat(c.toolCallId()).isEqualTo("toolu_01Vx8Qm3Tn6Wp2Ly9Kr4Hs7J");
            assertThat(c.args()).isEqualTo(Fixtures.json("{'to':'LIS','passengers':2}"));
        });
        assertThat(bookings).hasValue(0);
        assertThat(answers.get(0).finishReason()).isEqualTo(AnswerMetadata.FinishReason.TOOL_CALLS);

        provider.then("anthropic/after-tools.http");
        AgentResult done = agent.approveToolCall(first.runId(), "toolu_01Vx8Qm3Tn6Wp2Ly9Kr4Hs7J").result();
        assertThat(done.text()).isEqualTo("Done: 2 seats to Lisbon are booked.");
        assertThat(bookings).hasValue(1);
        JsonNode messages = provider.lastRequest().body().path("messages");
        assertThat(messages.get(1).path("role").asText()).isEqualTo("assistant");
        assertThat(messages.get(1).toString()).contains("\"tool_use\"", "toolu_01Vx8Qm3Tn6Wp2Ly9Kr4Hs7J");
        JsonNode result = messages.get(2).path("content").get(0);
        assertThat(result.path("type").asText()).isEqualTo("tool_result");
        assertThat(result.path("tool_use_id").asText()).isEqualTo("toolu_01Vx8Qm3Tn6Wp2Ly9Kr4Hs7J");
        assertThat(result.toString()).contains("LIS");
    }

    @Test
    void parallelToolUseRunsEachTool() {
        provider.then("anthropic/parallel-tool-use.http", "anthropic/after-tools.http");
        AgentResult result = agent(false).generate("Weather in Lisbon and Porto?");

        assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(lookups).hasValue(2);
        assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolResult).hasSize(2);
        assertThat(provider.lastRequest().body().path("messages").toString())
                .contains("toolu_01Aa2Bb3Cc4Dd5Ee6Ff7Gg8H", "toolu_01Hh9Ii0Jj1Kk2Ll3Mm4Nn5O");
    }

    @Test
    void streamedTextDeltas() {
        provider.then("anthropic/stream-text.http");
        AgentResult result = agent(true).generate("What's the weather in Lisbon?");

        assertThat(Fixtures.textDeltas(result.events())).containsExactly("Lisbon", " is sunny", " today.");
        assertThat(answers).singleElement().satisfies(a -> {
            assertThat(a.finishReason()).isEqualTo(AnswerMetadata.FinishReason.STOP);
            assertThat(a.streamed()).isTrue();
        });
    }

    @Test
    void streamedTextThenToolUseFromInputJsonDeltaFragments() {
        provider.then("anthropic/stream-tool-use.http");
        AgentResult result = agent(true).generate("Book two seats to Lisbon and tell me the weather there");

        assertThat(result.text()).isEqualTo("I'll book that for you.");
        assertThat(result.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolCall).extracting(e -> (AgentEvent.ToolCall) e)
                .satisfiesExactly(
                        c -> assertThat(c.args()).isEqualTo(Fixtures.json("{'to':'LIS','passengers':2}")),
                        c -> assertThat(c.args()).isEqualTo(Fixtures.json("{'city':'Lisbon'}")));
        assertThat(lookups).hasValue(1);
        assertThat(bookings).hasValue(0);
        assertThat(answers).singleElement().satisfies(a -> assertThat(a.finishReason()).isEqualTo(AnswerMetadata.FinishReason.TOOL_CALLS));
    }

    @ParameterizedTest(name = "{0}, streaming {1}")
    @CsvSource({
            "error-401.http, false, 401, false, 'Anthropic (claude-sonnet-4-5) answered HTTP 401 (unauthorized: check the API key): invalid x-api-key'",
            "error-429.http, false, 429, true, 'Anthropic (claude-sonnet-4-5) answered HTTP 429 (rate limited): This request would exceed the rate limit'",
            "error-500.http, false, 500, true, 'Anthropic (claude-sonnet-4-5) answered HTTP 500 (provider error): Internal server error'",
            "error-529.http, false, 529, true, 'Anthropic (claude-sonnet-4-5) answered HTTP 529 (overloaded): Overloaded'",
            "error-529.http, true, 529, true, 'Anthropic (claude-sonnet-4-5) answered HTTP 529 (overloaded): Overloaded'",
            "error-401.http, true, 401, false, 'Anthropic (claude-sonnet-4-5) answered HTTP 401 (unauthorized: check the API key): invalid x-api-key'",
    })
    void httpErrorsAreModelCallExceptionsOfTheirCategory(String recording, boolean streaming, int status, boolean retryable, String message) {
        provider.then("anthropic/" + recording);
        AgentResult result = agent(streaming).generate("Hi");

        assertFailedOnHttpStatus(result, status, retryable, message);
    }
}
