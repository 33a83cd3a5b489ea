package dev.baton.model.langchain4j;

import dev.baton.model.LanguageModel;
import dev.baton.model.ModelChunk;
import dev.baton.model.ModelRequest;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.jspecify.annotations.Nullable;

/**
 * Any LangChain4j chat model as a Baton {@link LanguageModel}: OpenAI, Anthropic, Azure, Gemini,
 * Bedrock, Mistral, Ollama and every other provider LangChain4j supports, with one line.
 *
 * <pre>{@code
 * StreamingChatModel openAi = OpenAiStreamingChatModel.builder()
 *     .apiKey(System.getenv("OPENAI_API_KEY"))
 *     .modelName("gpt-4o-mini")
 *     .build();
 *
 * Agent agent = Agent.builder("travel-agent")
 *     .model(LangChain4jModel.of(openAi))          // instead of DeterministicModel
 *     .tools(bookFlight)
 *     .build();
 * }</pre>
 *
 * <p>A thin translation, with no agent logic: the agent's instructions become the system message,
 * Baton's user, assistant (text and tool calls) and tool-result messages (results, errors and
 * decline reasons, with their call ids) become LangChain4j's, and each tool's definition becomes a
 * {@code ToolSpecification} with its JSON schema. The model's configuration (model name,
 * temperature, timeouts, retries, HTTP client) stays the LangChain4j model's own.
 *
 * <p>The answer comes back as Baton's lazy stream: the provider is called when the run loop pulls
 * the first chunk. With a {@link StreamingChatModel}, text deltas are handed on as they arrive and
 * closing the stream before its end cancels the provider call; tool calls come complete (LangChain4j
 * assembles their streamed fragments), several in one answer if the model called several tools.
 * A provider failure is thrown from the stream as a {@link ModelCallException} whose message has
 * the HTTP status and the provider's own text, and says whether a retry may help
 * ({@link ModelCallException#retryable()}); the run loop turns it into an {@code error} event and
 * {@code AgentResult.modelFailure()}.
 *
 * <p>Thread-safety: immutable and thread-safe, as thread-safe as the LangChain4j model it wraps
 * (LangChain4j's provider models are); each {@link #stream} call is one independent provider call,
 * its stream read by one thread. Closing: nothing to close here; closing a returned stream before
 * its end cancels a streaming provider call. The LangChain4j model (and its HTTP client) stays
 * yours.
 */
public final class LangChain4jModel implements LanguageModel {

    /** How many streamed pieces may wait for the run loop before the provider's reader waits too. */
    static final int BUFFERED_CHUNKS = 256;

    private final @Nullable ChatModel chatModel;
    private final @Nullable StreamingChatModel streamingModel;
    private final String providerName;

    private LangChain4jModel(@Nullable ChatModel chatModel, @Nullable StreamingChatModel streamingModel, String providerName) {
        this.chatModel = chatModel;
        this.streamingModel = streamingModel;
        this.providerName = providerName;
    }

    /**
     * A model answering each step with one call to {@code model}: the whole answer arrives at once,
     * as one text delta followed by the tool calls.
     *
     * @param model the LangChain4j model (a provider's {@code ChatModel})
     * @return the model as Baton's
     */
    public static LangChain4jModel of(ChatModel model) {
        Objects.requireNonNull(model, "model");
        return new LangChain4jModel(model, null, ProviderNames.describe(model.provider(), modelName(model.defaultRequestParameters())));
    }

    /**
     * A model streaming each step from {@code model}: text deltas reach the run as they arrive, and
     * closing the stream early cancels the provider call.
     *
     * @param model the LangChain4j streaming model (a provider's {@code StreamingChatModel})
     * @return the model as Baton's
     */
    public static LangChain4jModel of(StreamingChatModel model) {
        Objects.requireNonNull(model, "model");
        return new LangChain4jModel(null, model, ProviderNames.describe(model.provider(), modelName(model.defaultRequestParameters())));
    }

    /** {@return the provider and model, as failures name them, e.g. {@code OpenAI (gpt-4o-mini)}} */
    public String providerName() {
        return providerName;
    }

    /** {@return true for a model made from a {@link StreamingChatModel}} */
    public boolean isStreaming() {
        return streamingModel != null;
    }

    @Override
    public Stream<ModelChunk> stream(ModelRequest request) {
        ChatRequest chatRequest = Translation.toChatRequest(request);
        if (streamingModel != null) {
            StreamingAnswer answer = new StreamingAnswer(streamingModel, chatRequest, providerName, BUFFERED_CHUNKS);
            return StreamSupport.stream(answer, false).onClose(answer::close);
        }
        ChatModel model = Objects.requireNonNull(chatModel);
        return StreamSupport.stream(new WholeAnswer(model, chatRequest, providerName), false);
    }

    @Override
    public String toString() {
        return "LangChain4jModel[" + providerName + (isStreaming() ? ", streaming" : "") + "]";
    }

    private static @Nullable String modelName(dev.langchain4j.model.chat.request.@Nullable ChatRequestParameters parameters) {
        return parameters == null ? null : parameters.modelName();
    }

    /** One blocking call, made when the first chunk is pulled; then its chunks one by one. */
    private static final class WholeAnswer extends Spliterators.AbstractSpliterator<ModelChunk> {
        private final ChatModel model;
        private final ChatRequest request;
        private final String providerName;
        private @Nullable Spliterator<ModelChunk> chunks;

        WholeAnswer(ChatModel model, ChatRequest request, String providerName) {
            super(Long.MAX_VALUE, Spliterator.ORDERED | Spliterator.NONNULL);
            this.model = model;
            this.request = request;
            this.providerName = providerName;
        }

        @Override
        public boolean tryAdvance(Consumer<? super ModelChunk> action) {
            if (chunks == null) {
                ChatResponse response;
                try {
                    response = model.chat(request);
                } catch (RuntimeException e) {
                    throw ModelCallException.of(providerName, e);
                }
                try {
                    chunks = Translation.toChunks(response, true).spliterator();
                } catch (RuntimeException e) {
                    throw ModelCallException.of(providerName, e);
                }
            }
            return chunks.tryAdvance(action);
        }
    }
}
