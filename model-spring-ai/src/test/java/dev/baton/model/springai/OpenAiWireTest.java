package dev.baton.model.springai;

import static dev.baton.model.springai.Fixtures.INSTRUCTIONS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOutcome;
import dev.baton.model.ModelCallException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.ai.chat.model.ChatModel;

/**
 * Spring AI's OpenAI model against recorded OpenAI chat-completion exchanges (JSON and SSE) replayed
 * on 127.0.0.1: what Baton sends (system and user messages, tool schemas, earlier calls and results
 * with their ids), what comes back (text, single and parallel tool calls, streamed text and
 * tool-call fragments), the usage and finish reasons reported, and each HTTP error as a
 * {@link ModelCallException} of the right kind.
 */
class OpenAiWireTest extends RecordedWireTest {
    @Override
    ChatModel providerModel(String serverRoot) {
        return Providers.openAi(serverRoot);
    }

    @Test
    void aPlainAnswer_andTheRequestCarriesTheInstructionsTheUserAndEachToolsSchema() {
        provider.then("openai/text.http");
        AgentResult result = agent(false).generate("What's the weather in Lisbon?");

        assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(result.text()).isEqualTo("Lisbon is sunny today, 24 °C.");
        RecordedProvider.Received request = provider.lastRequest();
        assertThat(request.path()).isEqualTo("/v1/chat/completions");
        assertThat(request.headers().get("authorization")).isEqualTo("Bearer test-key");
        JsonNode body = request.body();
        assertThat(body.path("model").asText()).isEqualTo("gpt-4o-mini");
        assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("system");
        assertThat(body.path("messages").get(0).path("content").asText()).isEqualTo(INSTRUCTIONS);
        assertThat(body.path("messages").get(1).path("role").asText()).isEqualTo("user");
        assertThat(body.path("messages").get(1).path("content").asText()).isEqualTo("What's the weather in Lisbon?");
        assertThat(body.path("tools")).hasSize(2);
        JsonNode book = body.path("tools").get(0).path("function");
        assertThat(book.path("name").asText()).isEqualTo("bookFlight");
        assertThat(book.path("description").asText()).isEqualTo("Books a flight");
        assertThat(book.path("parameters").path("properties").path("passengers").path("type").asText()).isEqualTo("integer");
        assertThat(book.path("parameters").path("required")).extracting(JsonNode::asText).containsExactly("to", "passengers");

        assertThat(answers).singleElement().satisfies(a -> {
            assertThat(a.finishReason()).isEqualTo(AnswerMetadata.FinishReason.STOP);
            assertThat(a.inputTokens()).hasValue(87);
            assertThat(a.outputTokens()).hasValue(11);
            assertThat(a.totalTokens()).hasValue(98);
            assertThat(a.model()).hasValue("gpt-4o-mini-2024-07-18");
            assertThat(a.provider()).isEqualTo("OpenAI (gpt-4o-mini)");
            assertThat(a.streamed()).isFalse();
        });
    }

    @Test
    void parallelToolCallsComeBackAsBatonCalls_andTheirResultsGoBackWithTheirIds() {
        provider.then("openai/parallel-tool-calls.http", "openai/after-tools.http");
        AgentResult result = agent(false).generate("Weather in Lisbon and Porto?");

        assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(lookups).hasValue(2);
        assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolCall)
                .extracting(e -> ((AgentEvent.ToolCall) e).toolCallId())
                .containsExactly("call_A1b2C3d4E5f6G7h8I9j0K1l2", "call_M3n4O5p6Q7r8S9t0U1v2W3x4");
        JsonNode messages = provider.lastRequest().body().path("messages");
        JsonNode assistant = messages.get(2);
        assertThat(assistant.path("role").asText()).isEqualTo("assistant");
        assertThat(assistant.path("tool_calls")).extracting(c -> c.path("id").asText())
                .containsExactly("call_A1b2C3d4E5f6G7h8I9j0K1l2", "call_M3n4O5p6Q7r8S9t0U1v2W3x4");
        assertThat(assistant.path("tool_calls").get(1).path("function").path("arguments").asText()).isEqualTo("{\"city\":\"Porto\"}");
        assertThat(messages.get(3).path("role").asText()).isEqualTo("tool");
        assertThat(messages.get(3).path("tool_call_id").asText()).isEqualTo("call_A1b2C3d4E5f6G7h8I9j0K1l2");
        assertThat(Fixtures.json(messages.get(4).path("content").asText())).isEqualTo(Fixtures.json("{'city':'Porto','sky':'sunny'}"));
        assertThat(answers).extracting(AnswerMetadata::finishReason)
                .containsExactly(AnswerMetadata.FinishReason.TOOL_CALLS, AnswerMetadata.FinishReason.STOP);
        assertThat(answers.get(0).providerFinishReason()).hasValueSatisfying(r -> assertThat(r).containsIgnoringCase("tool_calls"));
    }

    @Test
    void aCallThatNeedsApprovalIsNotRunBySpringAi_butByBatonOnceApproved() {
        provider.then("openai/tool-call.http");
        Agent agent = agent(false);
        AgentResult first = agent.generate("Book two seats to Lisbon");

        assertThat(first.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(first.eventTypes()).endsWith("tool-call", "tool-call-approval");
        assertThat(bookings).hasValue(0);
        assertThat(provider.received()).hasSize(1);

        provider.then("openai/after-tools.http");
        AgentResult done = agent.approveToolCall(first.runId(), "call_Qx7mB2rT9vLk4nWs8pYc1aHd").result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.text()).isEqualTo("Done: 2 seats to Lisbon are booked.");
        assertThat(bookings).hasValue(1);
        JsonNode toolMessage = provider.lastRequest().body().path("messages").get(3);
        assertThat(toolMessage.path("tool_call_id").asText()).isEqualTo("call_Qx7mB2rT9vLk4nWs8pYc1aHd");
        assertThat(Fixtures.json(toolMessage.path("content").asText())).isEqualTo(Fixtures.json("{'booked':'LIS','seats':2}"));
    }

    @Test
    void aModelFailureDuringTheApprovalKeepsTheRun_andContinueRunFinishesItWithoutRunningTheToolAgain() {
        provider.then("openai/tool-call.http");
        Agent agent = agent(false);
        String runId = agent.generate("Book two seats to Lisbon").runId();

        provider.then("openai/error-500.http");
        AgentResult interrupted = agent.approveToolCall(runId, "call_Qx7mB2rT9vLk4nWs8pYc1aHd").result();
        assertThat(interrupted.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
        assertThat(interrupted.modelFailure()).hasValueSatisfying(f -> assertThat(f.retryable()).isTrue());
        assertThat(bookings).hasValue(1);

        provider.then("openai/after-tools.http");
        AgentResult done = agent.continueRun(runId).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.text()).isEqualTo("Done: 2 seats to Lisbon are booked.");
        assertThat(bookings).hasValue(1);
    }

    @Test
    void streamedTextReachesTheRunBeforeTheAnswerEnds() {
        provider.then("openai/stream-text.http");
        CountDownLatch runSawFirstText = new CountDownLatch(1);
        provider.holdAfter(3, runSawFirstText);   // role chunk, "Lisbon", " is sunny"; the rest waits for the run
        List<String> deltas = new ArrayList<>();
        AgentResult result;
        try (AgentStream stream = agent(true).stream("What's the weather in Lisbon?")) {
            result = stream.forEachEvent(e -> {
                if (e instanceof AgentEvent.TextDelta d) {
                    deltas.add(d.text());
                    runSawFirstText.countDown();
                }
            });
        }
        assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(deltas).containsExactly("Lisbon", " is sunny", " today.");
        assertThat(provider.lastRequest().body().path("stream").asBoolean()).isTrue();
        assertThat(answers).singleElement().satisfies(a -> {
            assertThat(a.finishReason()).isEqualTo(AnswerMetadata.FinishReason.STOP);
            assertThat(a.totalTokens()).hasValue(93);
            assertThat(a.streamed()).isTrue();
        });
    }

    @Test
    void streamedToolCallFragmentsBecomeWholeCalls_parallelOnesToo() {
        provider.then("openai/stream-tool-calls.http");
        AgentResult result = agent(true).generate("Book two seats to Lisbon and tell me the weather there");

        assertThat(result.outcome()).isEqualTo(RunOutcome.SUSPENDED);   // bookFlight waits; getWeather ran
        assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolCall).extracting(e -> (AgentEvent.ToolCall) e)
                .satisfiesExactly(
                        c -> {
                            assertThat(c.toolCallId()).isEqualTo("call_R5s6T7u8V9w0X1y2Z3a4B5c6");
                            assertThat(c.args()).isEqualTo(Fixtures.json("{'to':'LIS','passengers':2}"));
                        },
                        c -> {
                            assertThat(c.toolName()).isEqualTo("getWeather");
                            assertThat(c.args()).isEqualTo(Fixtures.json("{'city':'Lisbon'}"));
                        });
        assertThat(lookups).hasValue(1);
        assertThat(bookings).hasValue(0);
        assertThat(answers).singleElement().satisfies(a -> {
            assertThat(a.finishReason()).isEqualTo(AnswerMetadata.FinishReason.TOOL_CALLS);
            assertThat(a.totalTokens()).hasValue(173);
        });
    }

    @Test
    void streamedTextThenAToolCall() {
        provider.then("openai/stream-text-then-tool-call.http");
        AgentResult result = agent(true).generate("Book two seats to SFO");

        assertThat(result.text()).isEqualTo("Let me book that.");
        assertThat(result.eventTypes()).containsSubsequence("text-delta", "text-delta", "tool-call", "tool-call-approval");
        assertThat(result.waitingCalls()).singleElement().satisfies(c -> assertThat(c.args()).isEqualTo(Fixtures.json("{'to':'SFO','passengers':2}")));
    }

    @ParameterizedTest(name = "{0}, streaming {1}")
    @CsvSource({
            "error-401.http, false, 401, false, 'OpenAI (gpt-4o-mini) answered HTTP 401 (unauthorized: check the API key): Incorrect API key provided: test-key.'",
            "error-429.http, false, 429, true, 'OpenAI (gpt-4o-mini) answered HTTP 429 (rate limited): Rate limit reached for gpt-4o-mini'",
            "error-500.http, false, 500, true, 'OpenAI (gpt-4o-mini) answered HTTP 500 (provider error): The server had an error while processing your request.'",
            "error-503-overloaded.http, false, 503, true, 'OpenAI (gpt-4o-mini) answered HTTP 503 (unavailable): The engine is currently overloaded'",
            "error-401.http, true, 401, false, 'OpenAI (gpt-4o-mini) answered HTTP 401 (unauthorized: check the API key): Incorrect API key provided'",
            "error-429.http, true, 429, true, 'OpenAI (gpt-4o-mini) answered HTTP 429 (rate limited): Rate limit reached'",
            "error-500.http, true, 500, true, 'OpenAI (gpt-4o-mini) answered HTTP 500 (provider error): The server had an error'",
    })
    void httpErrorsAreModelCallExceptionsOfTheirCategory(String recording, boolean streaming, int status, boolean retryable, String message) {
        provider.then("openai/" + recording);
        AgentResult result = agent(streaming).generate("Hi");

        ModelCallException e = assertFailedOnHttpStatus(result, status, retryable, message);
        assertThat(result.eventTypes()).containsExactly("start", "step-start", "error", "step-finish", "finish");
        assertThat(e.getMessage()).doesNotContain("\"error\"");
    }

    @Test
    void anUnreachableProviderIsRetryable() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Agent agent = Agent.builder(Fixtures.uniqueAgentId()).model(SpringAiModel.of(Providers.openAi("http://127.0.0.1:" + port))).build();
        AgentResult result = agent.generate("Hi");

        assertThat(result.modelFailure()).hasValueSatisfying(f -> {
            assertThat(f.retryable()).isTrue();
            assertThat(f.getCause()).isInstanceOfSatisfying(ModelCallException.class,
                    e -> assertThat(e.kind()).isEqualTo(ModelCallException.Kind.UNREACHABLE));
        });
    }
}
