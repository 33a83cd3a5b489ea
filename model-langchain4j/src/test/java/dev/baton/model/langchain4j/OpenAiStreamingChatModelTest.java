package dev.baton.model.langchain4j;

import static dev.baton.model.langchain4j.Fixtures.INSTRUCTIONS;
import static dev.baton.model.langchain4j.Fixtures.errorMessage;
import static dev.baton.model.langchain4j.Fixtures.json;
import static dev.baton.model.langchain4j.Fixtures.textDeltas;
import static dev.baton.model.langchain4j.OpenAiWire.call;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOutcome;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.model.ModelRequest;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@code langchain4j-open-ai}'s {@link OpenAiStreamingChatModel} behind Baton, over real HTTP to a
 * stub that streams OpenAI chat-completion chunks as server-sent events on loopback.
 */
class OpenAiStreamingChatModelTest extends StubbedProviderTest {

    private OpenAiStreamingChatModel.OpenAiStreamingChatModelBuilder openAi() {
        return OpenAiStreamingChatModel.builder().baseUrl(stub.url("/v1")).apiKey("test-key").modelName(OpenAiWire.MODEL)
                .timeout(Duration.ofSeconds(10));
    }

    private Agent agent(OpenAiStreamingChatModel model) {
        return agent(Fixtures.uniqueAgentId(), LangChain4jModel.of(model));
    }

    private static ModelRequest hi() {
        return new ModelRequest(INSTRUCTIONS, List.of(new Message.User("Hi")), List.of());
    }

    @Nested
    class Text {

        @Test
        void deltasReachTheRunAsTheyArriveBeforeTheAnswerEnds() {
            CountDownLatch runSawFirstDelta = new CountDownLatch(1);
            AtomicBoolean restSentAfterTheRunSawIt = new AtomicBoolean();
            stub.then((request, reply) -> {
                reply.startEvents().data(OpenAiWire.roleChunk()).data(OpenAiWire.textChunk("Hel"));
                // the rest of the answer is sent only once the run has handed on the first delta
                restSentAfterTheRunSawIt.set(StubProvider.await(runSawFirstDelta));
                reply.data(OpenAiWire.textChunk("lo!")).data(OpenAiWire.finishChunk("stop")).data(OpenAiWire.usageChunk()).data("[DONE]");
                reply.endEvents();
            });

            List<AgentEvent> events = new ArrayList<>();
            try (AgentStream stream = agent(openAi().build()).stream("Hi")) {
                for (AgentEvent e : stream) {
                    events.add(e);
                    if (e instanceof AgentEvent.TextDelta) runSawFirstDelta.countDown();
                }
                assertThat(stream.outcome()).contains(RunOutcome.COMPLETED);
            }

            assertThat(restSentAfterTheRunSawIt).isTrue();
            assertThat(textDeltas(events)).containsExactly("Hel", "lo!");
            assertThat(stub.request(0).body().path("stream").asBoolean()).isTrue();
            assertThat(stub.request(0).body().path("messages")).isEqualTo(json(
                    "[{'role':'system','content':'You help with travel.'},{'role':'user','content':'Hi'}]"));
        }

        @Test
        void textBeforeAToolCallStreamsFirstThenTheCallFollows() {
            List<String> events = List.of(OpenAiWire.roleChunk(), OpenAiWire.textChunk("Let me check."),
                    OpenAiWire.toolCallStart(0, "call_w", "getWeather"), OpenAiWire.toolCallArguments(0, "{\"city\":"),
                    OpenAiWire.toolCallArguments(0, "\"Paris\"}"), OpenAiWire.finishChunk("tool_calls"), "[DONE]");
            stub.then(OpenAiWire.stream(events)).then(OpenAiWire.stream(OpenAiWire.streamedText("21°C in Paris.")));

            AgentResult result = agent(openAi().build()).generate("Weather in Paris?");

            assertThat(result.eventTypes()).containsSubsequence("text-delta", "tool-call", "tool-result", "text-delta", "finish");
            assertThat(result.text()).isEqualTo("Let me check.21°C in Paris.");
            assertThat(stub.request(1).body().path("messages").get(2).path("content").asText()).isEqualTo("Let me check.");
        }
    }

    @Nested
    class ToolCalls {

        @Test
        void argumentsSplitAcrossChunksArriveWhole() {
            stub.then(OpenAiWire.stream(OpenAiWire.streamedCalls(3, call("call_b", "bookFlight", "{\"to\":\"SFO\",\"passengers\":2}"))));

            AgentResult result = agent(openAi().build()).generate("Book two seats to SFO");

            assertThat(result.outcome()).isEqualTo(RunOutcome.SUSPENDED);
            assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolCallApproval).singleElement()
                    .satisfies(e -> {
                        AgentEvent.ToolCallApproval a = (AgentEvent.ToolCallApproval) e;
                        assertThat(a.toolCallId()).isEqualTo("call_b");
                        assertThat(a.args()).isEqualTo(json("{'to':'SFO','passengers':2}"));
                    });
            assertThat(bookings).hasValue(0);
        }

        @Test
        void severalCallsInOneStreamedAnswerAllRun() {
            stub.then(OpenAiWire.stream(OpenAiWire.streamedCalls(5, call("call_p", "getWeather", "{\"city\":\"Paris\"}"),
                            call("call_t", "getWeather", "{\"city\":\"Tokyo\"}"), call("call_r", "getWeather", "{\"city\":\"Rome\"}"))))
                    .then(OpenAiWire.stream(OpenAiWire.streamedText("All ", "21°C.")));

            AgentResult result = agent(openAi().build()).generate("Weather in Paris, Tokyo and Rome?");

            assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolCall)
                    .extracting(e -> ((AgentEvent.ToolCall) e).args().path("city").asText())
                    .containsExactly("Paris", "Tokyo", "Rome");
            assertThat(stub.request(1).body().path("messages")).hasSize(6);
            assertThat(stub.request(1).body().path("messages").get(5).path("tool_call_id").asText()).isEqualTo("call_r");
            assertThat(result.text()).isEqualTo("All 21°C.");
        }
    }

    @Nested
    class Cancelling {

        @Test
        void closingTheStreamBeforeItsEndCancelsTheProviderCall() {
            AtomicBoolean clientWentAway = new AtomicBoolean();
            CountDownLatch stubDone = new CountDownLatch(1);
            stub.then((request, reply) -> {
                reply.startEvents().data(OpenAiWire.roleChunk()).data(OpenAiWire.textChunk("Hel"));
                clientWentAway.set(reply.awaitClientGone());
                stubDone.countDown();
            });
            LangChain4jModel model = LangChain4jModel.of(openAi().build());

            List<ModelChunk> seen = new ArrayList<>();
            try (Stream<ModelChunk> stream = model.stream(hi())) {
                Iterator<ModelChunk> chunks = stream.iterator();
                seen.add(chunks.next());
            }

            assertThat(StubProvider.await(stubDone)).isTrue();
            assertThat(clientWentAway).isTrue();
            assertThat(seen).containsExactly(new ModelChunk.TextDelta("Hel"));
        }

        @Test
        void aStreamClosedBeforeItsFirstChunkCallsNobody() {
            LangChain4jModel model = LangChain4jModel.of(openAi().build());

            model.stream(hi()).close();

            assertThat(stub.received()).isEmpty();
        }
    }

    /** A provider failure ends a fresh run with an {@code error} event carrying the provider's message. */
    @Nested
    class Failures {

        @Test
        void aRateLimitWithRetryAfterNamesTheStatusAndTheProvidersMessage() {
            stub.then(OpenAiWire.error(429, "rate_limit_exceeded", "Rate limit reached for gpt-4o-mini.", "retry-after", "7"));

            AgentResult result = agent(openAi().build()).generate("Hi");

            assertThat(result.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(errorMessage(result)).contains("OpenAI (gpt-4o-mini) answered HTTP 429 (rate limited): Rate limit reached for gpt-4o-mini.");
        }

        @Test
        void aServerErrorNamesTheStatusAndTheProvidersMessage() {
            stub.then(OpenAiWire.error(500, "server_error", "The server had an error while processing your request."));

            AgentResult result = agent(openAi().build()).generate("Hi");

            assertThat(result.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(errorMessage(result)).contains("answered HTTP 500 (provider error): The server had an error");
        }

        @Test
        void aMalformedChunkAfterSomeTextEndsTheRunWithAnError() {
            stub.then((request, reply) -> {
                reply.startEvents().data(OpenAiWire.roleChunk()).data(OpenAiWire.textChunk("Hel")).data("{\"choices\":[{\"delta\":");
                reply.data(OpenAiWire.textChunk("lo")).data(OpenAiWire.finishChunk("stop")).data("[DONE]");
                reply.endEvents();
            });

            AgentResult result = agent(openAi().build()).generate("Hi");

            assertThat(result.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(result.eventTypes()).containsExactly("start", "step-start", "text-delta", "error", "step-finish", "finish");
            assertThat(errorMessage(result)).contains("OpenAI (gpt-4o-mini) sent an answer that is not valid JSON");
        }

        @Test
        void aSlowAnswerHitsTheModelsTimeout() {
            stub.then((request, reply) -> {
                StubProvider.await(stub.closing()); // answers only when the test is over
                reply.startEvents().data("[DONE]");
                reply.endEvents();
            });

            AgentResult result = agent(openAi().timeout(Duration.ofMillis(300)).build()).generate("Hi");

            assertThat(result.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(errorMessage(result)).contains("OpenAI (gpt-4o-mini) did not answer in time");
        }
    }
}
