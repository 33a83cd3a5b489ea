package dev.baton.model.langchain4j;

import static dev.baton.model.langchain4j.Fixtures.errorMessage;
import static dev.baton.model.langchain4j.Fixtures.json;
import static dev.baton.model.langchain4j.OpenAiWire.call;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.ModelException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@code langchain4j-open-ai}'s {@link OpenAiChatModel} (whole answers) behind Baton, over real
 * HTTP to a stub that speaks the OpenAI chat-completions format on loopback.
 */
class OpenAiChatModelTest extends StubbedProviderTest {

    private OpenAiChatModel.OpenAiChatModelBuilder openAi() {
        return OpenAiChatModel.builder().baseUrl(stub.url("/v1")).apiKey("test-key").modelName(OpenAiWire.MODEL)
                .maxRetries(0).timeout(Duration.ofSeconds(10));
    }

    private Agent agent(OpenAiChatModel model) {
        return agent(Fixtures.uniqueAgentId(), LangChain4jModel.of(model));
    }

    @Nested
    class Requests {

        @Test
        void carryTheInstructionsTheUsersTextAndEachToolsJsonSchema() {
            stub.then(OpenAiWire.answer("Hello!"));

            agent(openAi().build()).generate("Hi");

            StubProvider.Received r = stub.request(0);
            assertThat(r.path()).isEqualTo("/v1/chat/completions");
            assertThat(r.header("Authorization")).isEqualTo("Bearer test-key");
            JsonNode body = r.body();
            assertThat(body.path("model").asText()).isEqualTo("gpt-4o-mini");
            assertThat(body.path("messages")).isEqualTo(json(
                    "[{'role':'system','content':'You help with travel.'},{'role':'user','content':'Hi'}]"));
            JsonNode tools = body.path("tools");
            assertThat(tools).hasSize(2);
            assertThat(tools.get(0).path("type").asText()).isEqualTo("function");
            JsonNode fn = tools.get(0).path("function");
            assertThat(fn.path("name").asText()).isEqualTo("bookFlight");
            assertThat(fn.path("description").asText()).isEqualTo("Books a flight");
            assertThat(fn.path("parameters").path("properties")).isEqualTo(Fixtures.bookFlightSchema().path("properties"));
            assertThat(fn.path("parameters").path("required")).isEqualTo(Fixtures.bookFlightSchema().path("required"));
            assertThat(tools.get(1).path("function").path("parameters").path("required")).isEqualTo(json("['city']"));
        }
    }

    @Nested
    class Answers {

        @Test
        void aTextAnswerEndsTheRunWithThatText() {
            stub.then(OpenAiWire.answer("Hello there!"));

            AgentResult result = agent(openAi().build()).generate("Hi");

            assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(result.text()).isEqualTo("Hello there!");
            assertThat(result.eventTypes()).containsExactly("start", "step-start", "text-delta", "step-finish", "finish");
        }

        @Test
        void parallelToolCallsInOneAnswerAllRunAndAllResultsGoBackWithTheirIds() {
            stub.then(OpenAiWire.answer(null, call("call_p", "getWeather", "{\"city\":\"Paris\"}"),
                            call("call_t", "getWeather", "{\"city\":\"Tokyo\"}")))
                    .then(OpenAiWire.answer("Paris and Tokyo are both 21°C."));

            AgentResult result = agent(openAi().build()).generate("Weather in Paris and Tokyo?");

            assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolResult).hasSize(2);
            JsonNode messages = stub.request(1).body().path("messages");
            assertThat(messages).hasSize(5);
            assertThat(messages.get(2).path("role").asText()).isEqualTo("assistant");
            JsonNode calls = messages.get(2).path("tool_calls");
            assertThat(calls).hasSize(2);
            assertThat(calls.get(0).path("id").asText()).isEqualTo("call_p");
            assertThat(calls.get(0).path("function").path("name").asText()).isEqualTo("getWeather");
            assertThat(json(calls.get(0).path("function").path("arguments").asText())).isEqualTo(json("{'city':'Paris'}"));
            assertThat(calls.get(1).path("id").asText()).isEqualTo("call_t");
            assertThat(messages.get(3).path("role").asText()).isEqualTo("tool");
            assertThat(messages.get(3).path("tool_call_id").asText()).isEqualTo("call_p");
            assertThat(json(messages.get(3).path("content").asText())).isEqualTo(json("{'city':'Paris','tempC':21}"));
            assertThat(messages.get(4).path("tool_call_id").asText()).isEqualTo("call_t");
            assertThat(result.text()).isEqualTo("Paris and Tokyo are both 21°C.");
        }

        @Test
        void argumentsThatDoNotMatchTheToolsTypeGoBackToTheModelAsAToolErrorNamingTheField() {
            stub.then(OpenAiWire.answer(null, call("call_w", "getWeather", "{\"town\":\"Paris\"}")))
                    .then(OpenAiWire.answer("Sorry."));

            AgentResult result = agent(openAi().build()).generate("Weather?");

            assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolError).singleElement()
                    .extracting(e -> ((AgentEvent.ToolError) e).error())
                    .isEqualTo("Invalid arguments for getWeather: field 'city' is required");
            JsonNode toolMessage = stub.request(1).body().path("messages").get(3);
            assertThat(toolMessage.path("tool_call_id").asText()).isEqualTo("call_w");
            assertThat(toolMessage.path("content").asText()).isEqualTo("Invalid arguments for getWeather: field 'city' is required");
        }

        @Test
        void langChain4jsOwnRetriesStayTheModelsBusiness() {
            stub.then(OpenAiWire.error(503, "server_error", "The engine is currently overloaded"))
                    .then(OpenAiWire.answer("Made it."));

            AgentResult result = agent(openAi().maxRetries(1).build()).generate("Hi");

            assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(result.text()).isEqualTo("Made it.");
            assertThat(stub.received()).hasSize(2);
        }
    }

    /** A provider failure ends a fresh run with an {@code error} event carrying the provider's message. */
    @Nested
    class Failures {

        @Test
        void aRejectedKeyNamesTheStatusAndTheProvidersMessage() {
            stub.then(OpenAiWire.error(401, "invalid_api_key", "Incorrect API key provided: test-key."));

            AgentResult result = agent(openAi().build()).generate("Hi");

            assertThat(result.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(result.eventTypes()).containsExactly("start", "step-start", "error", "step-finish", "finish");
            assertThat(errorMessage(result)).contains("OpenAI (gpt-4o-mini) answered HTTP 401 (unauthorized: check the API key):"
                    + " Incorrect API key provided: test-key.");
            ModelException failure = result.modelFailure().orElseThrow();
            assertThat(failure.retryable()).as("a rejected key fails again: no retry").isFalse();
            assertThat(failure.runId()).isEqualTo(result.runId());
            assertThat(failure.step()).isEqualTo(1);
            assertThat(failure.getCause()).isInstanceOfSatisfying(ModelCallException.class, c -> {
                assertThat(c.statusCode()).hasValue(401);
                assertThat(c.retryable()).isFalse();
            });
        }

        @Test
        void aRateLimitWithRetryAfterFailsAtOnceWhenRetriesAreOff() {
            stub.then(OpenAiWire.error(429, "rate_limit_exceeded", "Rate limit reached for gpt-4o-mini. Please try again in 20s.",
                    "retry-after", "20"));

            AgentResult result = agent(openAi().build()).generate("Hi");

            assertThat(result.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(errorMessage(result)).contains("answered HTTP 429 (rate limited): Rate limit reached for gpt-4o-mini."
                    + " Please try again in 20s.");
            assertThat(result.error()).hasCauseInstanceOf(ModelCallException.class);
            ModelCallException cause = (ModelCallException) result.error().getCause();
            assertThat(cause.statusCode()).hasValue(429);
            assertThat(cause.retryable()).isTrue();
            assertThat(cause).as("the adapter's exception is core's ModelException").isInstanceOf(ModelException.class);
            ModelException failure = result.modelFailure().orElseThrow();
            assertThat(failure.retryable()).as("a rate limit may pass: a retry may help").isTrue();
            assertThat(failure.runId()).isEqualTo(result.runId());
            assertThat(failure.getCause()).isSameAs(cause);
            assertThat(stub.received()).hasSize(1);
        }

        @Test
        void aServerErrorNamesTheStatusAndTheProvidersMessage() {
            stub.then(OpenAiWire.error(500, "server_error", "The server had an error while processing your request."));

            AgentResult result = agent(openAi().build()).generate("Hi");

            assertThat(result.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(errorMessage(result)).contains("answered HTTP 500 (provider error): The server had an error while processing your request.");
        }

        @Test
        void anErrorPageThatIsNotJsonIsShownAsItIs() {
            stub.then((request, reply) -> reply.json(502, "<html><body>Bad gateway\n</body></html>"));

            AgentResult result = agent(openAi().build()).generate("Hi");

            assertThat(errorMessage(result)).contains("answered HTTP 502 (bad gateway): <html><body>Bad gateway </body></html>");
        }

        @Test
        void aMalformedAnswerSaysItIsNotValidJson() {
            stub.then((request, reply) -> reply.json(200, "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,"));

            AgentResult result = agent(openAi().build()).generate("Hi");

            assertThat(result.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(errorMessage(result)).contains("OpenAI (gpt-4o-mini) sent an answer that is not valid JSON");
        }

        @Test
        void aSlowAnswerHitsTheModelsTimeout() {
            stub.then((request, reply) -> {
                StubProvider.await(stub.closing()); // answers only when the test is over
                reply.json(200, OpenAiWire.completion("too late"));
            });

            AgentResult result = agent(openAi().timeout(Duration.ofMillis(300)).build()).generate("Hi");

            assertThat(result.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(errorMessage(result)).contains("OpenAI (gpt-4o-mini) did not answer in time");
            assertThat(((ModelCallException) result.error().getCause()).kind()).isEqualTo(ModelCallException.Kind.TIMEOUT);
        }

        @Test
        void anUnreachableProviderSaysSo() {
            String deadUrl = stub.url("/v1");
            stub.close();

            AgentResult result = agent(OpenAiChatModel.builder().baseUrl(deadUrl).apiKey("test-key").modelName(OpenAiWire.MODEL)
                    .maxRetries(0).timeout(Duration.ofSeconds(5)).build()).generate("Hi");

            assertThat(result.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(errorMessage(result)).contains("OpenAI (gpt-4o-mini) could not be reached");
        }
    }
}
