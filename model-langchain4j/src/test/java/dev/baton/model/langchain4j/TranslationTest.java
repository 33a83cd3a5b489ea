package dev.baton.model.langchain4j;

import static dev.baton.model.langchain4j.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.model.ModelRequest;
import dev.baton.model.ToolCall;
import dev.baton.model.ToolDefinition;
import dev.baton.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The translation both ways, without HTTP: what LangChain4j is given and what Baton gets back. */
class TranslationTest {

    record Leg(String from, LocalDate date) { }

    record Trip(Leg out, Leg back) { }

    /** A ChatModel that records its requests and answers with a fixed response. */
    private static final class RecordingModel implements ChatModel {
        final List<ChatRequest> requests = new ArrayList<>();
        final ChatResponse answer;

        RecordingModel(AiMessage answer) {
            this.answer = ChatResponse.builder().aiMessage(answer).build();
        }

        @Override
        public ChatResponse doChat(ChatRequest request) {
            requests.add(request);
            return answer;
        }

        @Override
        public ModelProvider provider() {
            return ModelProvider.OPEN_AI;
        }
    }

    private static List<ModelChunk> chunks(LangChain4jModel model, ModelRequest request) {
        try (Stream<ModelChunk> s = model.stream(request)) {
            return s.toList();
        }
    }

    @Nested
    class Messages {

        @Test
        void everyKindOfBatonMessageBecomesItsLangChain4jCounterpart() {
            RecordingModel recording = new RecordingModel(AiMessage.from("ok"));
            ToolCall call = new ToolCall("call_1", "bookFlight", json("{'to':'SFO'}"));
            ModelRequest request = new ModelRequest("Be brief.", List.of(
                    new Message.User("Book SFO"),
                    new Message.Assistant("On it.", List.of(call)),
                    new Message.ToolResult("call_1", "bookFlight", json("{'booked':true}"), false),
                    new Message.ToolResult("call_2", "pay", TextNode.valueOf("card declined"), true),
                    new Message.ToolResult("call_3", "email", TextNode.valueOf("Not now"), false)), List.of());

            chunks(LangChain4jModel.of(recording), request);

            List<ChatMessage> sent = recording.requests.get(0).messages();
            assertThat(sent).hasSize(6);
            assertThat(sent.get(0)).isEqualTo(SystemMessage.from("Be brief."));
            assertThat(sent.get(1)).isEqualTo(UserMessage.from("Book SFO"));
            AiMessage ai = (AiMessage) sent.get(2);
            assertThat(ai.text()).isEqualTo("On it.");
            assertThat(ai.toolExecutionRequests()).containsExactly(
                    ToolExecutionRequest.builder().id("call_1").name("bookFlight").arguments("{\"to\":\"SFO\"}").build());
            ToolExecutionResultMessage result = (ToolExecutionResultMessage) sent.get(3);
            assertThat(result.id()).isEqualTo("call_1");
            assertThat(result.toolName()).isEqualTo("bookFlight");
            assertThat(result.text()).isEqualTo("{\"booked\":true}");
            assertThat(result.isError()).isNull();
            ToolExecutionResultMessage error = (ToolExecutionResultMessage) sent.get(4);
            assertThat(error.text()).isEqualTo("card declined");
            assertThat(error.isError()).isTrue();
            assertThat(((ToolExecutionResultMessage) sent.get(5)).text()).isEqualTo("Not now");
        }

        @Test
        void blankInstructionsSendNoSystemMessageAndToolCallsWithoutTextSendNoText() {
            RecordingModel recording = new RecordingModel(AiMessage.from("ok"));
            ModelRequest request = new ModelRequest(" ", List.of(new Message.User("Hi"),
                    new Message.Assistant("", List.of(new ToolCall("c", "t", json("{}"))))), List.of());

            chunks(LangChain4jModel.of(recording), request);

            List<ChatMessage> sent = recording.requests.get(0).messages();
            assertThat(sent.get(0)).isInstanceOf(UserMessage.class);
            assertThat(((AiMessage) sent.get(1)).text()).isNull();
            assertThat(recording.requests.get(0).toolSpecifications()).isEmpty();
        }
    }

    @Nested
    class Schemas {

        @Test
        void aTypedToolsSchemaKeepsSharedDefinitionsAndFormats() {
            Tool tool = Tool.builder("trip").description("Plans a trip").input(Trip.class).execute((in, ctx) -> null).build();

            ToolSpecification spec = Translation.toToolSpecification(tool.definition());

            assertThat(spec.name()).isEqualTo("trip");
            assertThat(spec.description()).isEqualTo("Plans a trip");
            JsonNode parameters = json(spec.toJson()).path("parameters");
            assertThat(parameters.path("required")).isEqualTo(json("['out','back']"));
            assertThat(parameters.path("properties").path("out").path("$ref").asText()).isEqualTo("#/$defs/Leg");
            JsonNode leg = parameters.path("$defs").path("Leg");
            assertThat(leg.path("properties").path("date")).isEqualTo(json("{'type':'string','format':'date'}"));
            assertThat(leg.path("required")).isEqualTo(json("['from','date']"));
        }

        @Test
        void draft07DefinitionsBecomeDefsAndRootKeywordsProvidersRefuseAreDropped() {
            ToolDefinition def = new ToolDefinition("t", "", json("{'$schema':'http://json-schema.org/draft-07/schema#',"
                    + "'title':'T','type':'object','properties':{'a':{'$ref':'#/definitions/A'}},"
                    + "'definitions':{'A':{'type':'object','properties':{'n':{'type':'integer','minimum':1}}}}}"));

            JsonNode parameters = json(Translation.toToolSpecification(def).toJson()).path("parameters");

            assertThat(parameters.has("$schema")).isFalse();
            assertThat(parameters.has("title")).isFalse();
            assertThat(parameters.path("properties").path("a").path("$ref").asText()).isEqualTo("#/$defs/A");
            assertThat(parameters.path("$defs").path("A").path("properties").path("n"))
                    .isEqualTo(json("{'type':'integer','minimum':1}"));
        }

        @Test
        void theDefaultSchemaIsAnEmptyObject() {
            Tool tool = Tool.builder("ping").execute((in, ctx) -> "pong").build();

            ToolSpecification spec = Translation.toToolSpecification(tool.definition());

            assertThat(spec.parameters()).isNotNull();
            assertThat(spec.parameters().properties()).isEmpty();
            assertThat(spec.description()).isNull();
        }

        @Test
        void aSchemaThatIsNotAnObjectIsRefusedNamingTheTool() {
            ToolDefinition def = new ToolDefinition("echo", "", json("{'type':'string'}"));

            assertThatThrownBy(() -> Translation.toToolSpecification(def))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Tool 'echo'").hasMessageContaining("object schema");
        }
    }

    @Nested
    class Answers {

        @Test
        void textComesFirstThenEveryToolCallInOrder() {
            RecordingModel recording = new RecordingModel(AiMessage.builder().text("Checking.").toolExecutionRequests(List.of(
                    ToolExecutionRequest.builder().id("a").name("w").arguments("{\"city\":\"Paris\"}").build(),
                    ToolExecutionRequest.builder().id("b").name("w").arguments("{\"city\":\"Rome\"}").build())).build());

            List<ModelChunk> chunks = chunks(LangChain4jModel.of(recording), new ModelRequest("", List.of(new Message.User("x")), List.of()));

            assertThat(chunks).containsExactly(new ModelChunk.TextDelta("Checking."),
                    new ModelChunk.ToolCallRequest(new ToolCall("a", "w", json("{'city':'Paris'}"))),
                    new ModelChunk.ToolCallRequest(new ToolCall("b", "w", json("{'city':'Rome'}"))));
        }

        @Test
        void emptyArgumentsAreAnEmptyObjectAndArgumentsThatAreNotJsonAreKeptAsText() {
            assertThat(Translation.parseArguments("")).isEqualTo(json("{}"));
            assertThat(Translation.parseArguments(null)).isEqualTo(json("{}"));
            assertThat(Translation.parseArguments("{\"to\":")).isEqualTo(TextNode.valueOf("{\"to\":"));
        }

        @Test
        void aCallWithoutAnIdGetsOneThatIsUnique() {
            ToolExecutionRequest noId = ToolExecutionRequest.builder().name("w").arguments("{}").build();

            ToolCall first = Translation.toToolCall(noId, 0);
            ToolCall second = Translation.toToolCall(noId, 0);

            assertThat(first.toolCallId()).startsWith("call_0_").isNotEqualTo(second.toolCallId());
        }

        @Test
        void theProviderIsCalledOnlyWhenTheFirstChunkIsPulled() {
            RecordingModel recording = new RecordingModel(AiMessage.from("ok"));

            Stream<ModelChunk> stream = LangChain4jModel.of(recording).stream(new ModelRequest("", List.of(new Message.User("x")), List.of()));

            assertThat(recording.requests).isEmpty();
            assertThat(stream.findFirst()).contains(new ModelChunk.TextDelta("ok"));
            assertThat(recording.requests).hasSize(1);
        }
    }

    @Nested
    class Failures {

        @Test
        void theProvidersTextIsTakenFromTheUsualErrorShapes() {
            assertThat(ModelCallException.providerText("{\"error\":{\"message\":\"Bad key\",\"type\":\"invalid_request_error\"}}"))
                    .isEqualTo("Bad key");
            assertThat(ModelCallException.providerText("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"))
                    .isEqualTo("Overloaded");
            assertThat(ModelCallException.providerText("{\"error\":\"model 'llama9' not found\"}")).isEqualTo("model 'llama9' not found");
            assertThat(ModelCallException.providerText("{\"detail\":\"Not Found\"}")).isEqualTo("Not Found");
            assertThat(ModelCallException.providerText("upstream   connect\n error")).isEqualTo("upstream connect error");
            assertThat(ModelCallException.providerText("x".repeat(2000))).hasSize(500).endsWith("...");
            assertThat(ModelCallException.providerText("")).isNull();
        }

        @Test
        void aMappedLangChain4jExceptionStillYieldsTheStatusAndText() {
            RateLimitException thrown = new RateLimitException(new HttpException(429, "{\"error\":{\"message\":\"Slow down\"}}"));

            ModelCallException e = ModelCallException.of("OpenAI (gpt-4o-mini)", thrown);

            assertThat(e).hasMessage("OpenAI (gpt-4o-mini) answered HTTP 429 (rate limited): Slow down");
            assertThat(e.kind()).isEqualTo(ModelCallException.Kind.HTTP_STATUS);
            assertThat(e.statusCode()).hasValue(429);
            assertThat(e.providerMessage()).contains("Slow down");
            assertThat(e.retryable()).isTrue();
            assertThat(e).hasCause(thrown);
        }

        @Test
        void aBadRequestIsNotRetryable() {
            ModelCallException e = ModelCallException.of("OpenAI", new HttpException(400, "{\"error\":{\"message\":\"bad\"}}"));

            assertThat(e.retryable()).isFalse();
            assertThat(e).hasMessage("OpenAI answered HTTP 400 (bad request): bad");
        }

        @Test
        void theProviderIsNamedWithTheModel() {
            assertThat(LangChain4jModel.of(new RecordingModel(AiMessage.from("ok"))).providerName()).isEqualTo("OpenAI");
            assertThat(ProviderNames.describe(ModelProvider.ANTHROPIC, "claude-x")).isEqualTo("Anthropic (claude-x)");
            assertThat(ProviderNames.describe(ModelProvider.OTHER, null)).isEqualTo("The model provider");
        }
    }
}
