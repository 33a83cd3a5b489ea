package dev.baton.model.springai;

import dev.baton.model.LanguageModel;
import dev.baton.model.ModelChunk;
import dev.baton.model.ModelRequest;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Objects;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

/**
 * Any Spring AI {@link ChatModel} as a Baton {@link LanguageModel}: OpenAI, Anthropic, Ollama,
 * Azure OpenAI, Gemini, Bedrock, Mistral and every other provider Spring AI supports, on Spring AI
 * 2.x (Spring Boot 4) and 1.1 (Spring Boot 3.5).
 *
 * <pre>{@code
 * @Bean
 * Agent travelAgent(ChatModel chatModel, RefundService refunds) {      // Spring AI's auto-configured model
 *     return Agent.builder("travel-agent")
 *         .model(SpringAiModel.streaming(chatModel))                   // instead of DeterministicModel
 *         .tools(SpringAiTools.from(refunds).requireApproval("refund").build())
 *         .build();
 * }
 * }</pre>
 *
 * <p>A thin translation, with no agent logic: the agent's instructions become the system message,
 * Baton's user, assistant (text and tool calls) and tool-result messages (results, errors and
 * decline reasons, with their call ids) become Spring AI's, and each tool's definition is passed
 * with its JSON schema. The tools are only <em>described</em> to Spring AI: it never runs one
 * (Spring AI 2.x's {@code ChatModel} has no tool loop; on 1.x {@code internalToolExecutionEnabled}
 * is set to false), so a call that waits for approval runs only after Baton's approval. The
 * model's configuration (model name, temperature, retries, HTTP client, observations) stays the
 * {@code ChatModel}'s own: each request starts from its options.
 *
 * <p>The answer comes back as Baton's lazy stream: the provider is called when the run loop pulls
 * the first chunk. {@link #streaming(ChatModel)} hands text deltas on as they arrive (from
 * {@code ChatModel.stream}), and closing the stream before its end cancels the provider call; tool
 * calls come complete (Spring AI assembles their streamed fragments), several in one answer if
 * the model called several tools. A provider failure is thrown from the stream as a
 * {@link dev.baton.model.ModelCallException} whose message has the HTTP status and the provider's
 * own text, and says whether a retry may help; the run loop turns it into an {@code error} event
 * and {@code AgentResult.modelFailure()}. Why the answer ended and its token usage go to the
 * {@link Builder#onAnswer} listener.
 *
 * <p>Thread-safety: immutable and thread-safe, as thread-safe as the Spring AI model it wraps
 * (Spring AI's provider models are); each {@link #stream} call is one independent provider call,
 * its stream read by one thread. Closing: nothing to close here; closing a returned stream before
 * its end cancels a streaming call. The {@code ChatModel} (and its HTTP client) stays yours.
 */
public final class SpringAiModel implements LanguageModel {
    private static final Logger LOG = LoggerFactory.getLogger(SpringAiModel.class);

    /** How many streamed pieces Reactor may buffer ahead of the run loop. */
    static final int PREFETCH = 256;

    private final ChatModel model;
    private final boolean streaming;
    private final String providerName;
    private final @Nullable Consumer<AnswerMetadata> onAnswer;

    private SpringAiModel(Builder b) {
        this.model = b.model;
        this.streaming = b.streaming;
        this.providerName = b.providerName != null ? b.providerName : ProviderNames.describe(b.model);
        this.onAnswer = b.onAnswer;
    }

    /**
     * A model answering each step with one call to {@code model.call(prompt)}: the whole answer
     * arrives at once, as one text delta followed by the tool calls.
     *
     * @param model the Spring AI model (a provider's {@code ChatModel})
     * @return the model as Baton's
     */
    public static SpringAiModel of(ChatModel model) {
        return builder(model).build();
    }

    /**
     * A model streaming each step from {@code model.stream(prompt)}: text deltas reach the run as
     * they arrive, and closing the stream early cancels the provider call. Prefer it for anything a
     * person watches.
     *
     * @param model the Spring AI model (a provider's {@code ChatModel}; it must support streaming)
     * @return the model as Baton's
     */
    public static SpringAiModel streaming(ChatModel model) {
        return builder(model).streaming(true).build();
    }

    /**
     * A builder, for the answer listener or another provider name.
     *
     * @param model the Spring AI model
     * @return a builder (not streaming until {@link Builder#streaming(boolean)})
     */
    public static Builder builder(ChatModel model) {
        return new Builder(model);
    }

    /** {@return the provider and model, as failures name them, e.g. {@code OpenAI (gpt-4o-mini)}} */
    public String providerName() {
        return providerName;
    }

    /** {@return true for a model made with {@link #streaming(ChatModel)}} */
    public boolean isStreaming() {
        return streaming;
    }

    /** {@return the Spring AI model this one calls} */
    public ChatModel chatModel() {
        return model;
    }

    @Override
    public Stream<ModelChunk> stream(ModelRequest request) {
        Prompt prompt = Translation.toPrompt(request, model);
        Answer answer = streaming ? new StreamedAnswer(prompt) : new WholeAnswer(prompt);
        return StreamSupport.stream(answer, false).onClose(answer::close);
    }

    @Override
    public String toString() {
        return "SpringAiModel[" + providerName + (streaming ? ", streaming" : "") + "]";
    }

    private void report(AnswerMetadata.Collector metadata) {
        if (onAnswer == null) return;
        try {
            onAnswer.accept(metadata.done());
        } catch (RuntimeException e) {
            LOG.warn("The answer listener of {} failed; the run goes on", providerName, e);
        }
    }

    /** One answer, pulled chunk by chunk; the provider is called at the first pull. */
    private abstract class Answer extends Spliterators.AbstractSpliterator<ModelChunk> {
        final Prompt prompt;
        final Deque<ModelChunk> ready = new ArrayDeque<>();
        final Set<String> seenCallIds = new HashSet<>();
        final AnswerMetadata.Collector metadata;
        boolean started;
        boolean finished;

        Answer(Prompt prompt, boolean streamed) {
            super(Long.MAX_VALUE, Spliterator.ORDERED | Spliterator.NONNULL);
            this.prompt = prompt;
            this.metadata = new AnswerMetadata.Collector(providerName, streamed);
        }

        @Override
        public final boolean tryAdvance(Consumer<? super ModelChunk> action) {
            while (ready.isEmpty()) {
                if (finished) return false;
                ChatResponse next;
                try {
                    next = next();
                } catch (RuntimeException e) {
                    finished = true;
                    close();
                    throw Failures.explain(providerName, e);
                }
                if (next == null) {
                    finished = true;
                    report(metadata);
                    continue;
                }
                metadata.add(next);
                try {
                    ready.addAll(Translation.toChunks(next, seenCallIds));
                } catch (RuntimeException e) {
                    finished = true;
                    close();
                    throw Failures.explain(providerName, e);
                }
            }
            action.accept(ready.poll());
            return true;
        }

        /** The next response, or null at the end. */
        abstract @Nullable ChatResponse next();

        abstract void close();
    }

    /** One blocking {@code call}, then its chunks one by one. */
    private final class WholeAnswer extends Answer {
        WholeAnswer(Prompt prompt) {
            super(prompt, false);
        }

        @Override
        @Nullable ChatResponse next() {
            if (started) return null;
            started = true;
            return model.call(prompt);
        }

        @Override
        void close() {
            // nothing under way between pulls
        }
    }

    /**
     * {@code ChatModel.stream} read through Reactor's blocking iterator: bounded prefetch (a slow
     * run loop holds the provider's reader back), and closing disposes the subscription, which
     * cancels the HTTP exchange.
     */
    private final class StreamedAnswer extends Answer {
        private @Nullable Iterator<ChatResponse> responses;
        private @Nullable Disposable subscription;
        private boolean closed;

        StreamedAnswer(Prompt prompt) {
            super(prompt, true);
        }

        @Override
        @Nullable ChatResponse next() {
            if (closed) return null;
            if (!started) {
                started = true;
                Flux<ChatResponse> flux = model.stream(prompt);
                Stream<ChatResponse> blocking = flux.toStream(PREFETCH);
                subscription = blocking::close;
                responses = blocking.iterator();
            }
            Iterator<ChatResponse> it = Objects.requireNonNull(responses);
            return it.hasNext() ? it.next() : null;
        }

        @Override
        void close() {
            if (closed) return;
            closed = true;
            Disposable s = subscription;
            if (s != null && !finished) s.dispose();
        }
    }

    /**
     * Builds a {@link SpringAiModel}; made by {@link SpringAiModel#builder(ChatModel)}. Not thread-safe.
     */
    public static final class Builder {
        private final ChatModel model;
        private boolean streaming;
        private @Nullable String providerName;
        private @Nullable Consumer<AnswerMetadata> onAnswer;

        private Builder(ChatModel model) {
            this.model = Objects.requireNonNull(model, "model");
        }

        /**
         * Whether each step streams ({@code ChatModel.stream}) or makes one blocking call
         * ({@code ChatModel.call}, the default).
         *
         * @param streaming true to stream
         * @return this builder
         */
        public Builder streaming(boolean streaming) {
            this.streaming = streaming;
            return this;
        }

        /**
         * How failures name the provider and model (default: from the model's class and its
         * options' model name, e.g. {@code OpenAI (gpt-4o-mini)}).
         *
         * @param providerName the name, not blank
         * @return this builder
         */
        public Builder providerName(String providerName) {
            Objects.requireNonNull(providerName, "providerName");
            if (providerName.isBlank()) throw new IllegalArgumentException("providerName: must not be blank");
            this.providerName = providerName;
            return this;
        }

        /**
         * Told once per answered step, after its last chunk, on the run's thread: why the answer
         * ended and its token usage. An exception from the listener is logged and does not reach
         * the run; an answer that fails is not reported (the failure is).
         *
         * @param listener quick and thread-safe: one model serves every run of an agent at once
         * @return this builder
         */
        public Builder onAnswer(Consumer<AnswerMetadata> listener) {
            this.onAnswer = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** {@return the model} */
        public SpringAiModel build() {
            return new SpringAiModel(this);
        }
    }
}
