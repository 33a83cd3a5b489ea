package dev.baton.model.springai;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

/**
 * What one model answer reported besides its text and tool calls: why it ended and how many tokens
 * it took. Given to the listener of {@link SpringAiModel.Builder#onAnswer} once per answered step,
 * after the answer's last chunk, on the run's thread; Baton's run itself does not depend on it.
 *
 * <pre>{@code
 * SpringAiModel model = SpringAiModel.builder(chatModel)
 *     .onAnswer(answer -> {
 *         answer.totalTokens().ifPresent(tokens -> meter.increment(tokens));
 *         if (answer.finishReason() == AnswerMetadata.FinishReason.LENGTH) log.warn("answer cut at max tokens");
 *     })
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe. Later versions may add accessors.
 */
public final class AnswerMetadata {

    /** Why the model stopped, whatever the provider calls it. */
    public enum FinishReason {
        /** It finished its answer ({@code stop}, {@code end_turn}, {@code stop_sequence}). */
        STOP,
        /** It asked for tools to be called ({@code tool_calls}, {@code tool_use}, {@code function_call}). */
        TOOL_CALLS,
        /** It reached the maximum number of tokens: the answer is cut ({@code length}, {@code max_tokens}). */
        LENGTH,
        /** The provider withheld or stopped the answer ({@code content_filter}, {@code refusal}, {@code safety}). */
        CONTENT_FILTER,
        /** A reason not listed here; {@link #providerFinishReason()} has the provider's word. */
        OTHER,
        /** The provider gave none. */
        UNKNOWN
    }

    private final String provider;
    private final @Nullable String model;
    private final FinishReason finishReason;
    private final @Nullable String providerFinishReason;
    private final @Nullable Integer inputTokens;
    private final @Nullable Integer outputTokens;
    private final @Nullable Integer totalTokens;
    private final boolean streamed;

    private AnswerMetadata(Collector c) {
        this.provider = c.provider;
        this.model = c.model;
        this.providerFinishReason = c.finishReason;
        this.finishReason = normalize(c.finishReason);
        this.inputTokens = c.inputTokens;
        this.outputTokens = c.outputTokens;
        this.totalTokens = c.totalTokens != null ? c.totalTokens
                : c.inputTokens != null && c.outputTokens != null ? Integer.valueOf(c.inputTokens + c.outputTokens) : null;
        this.streamed = c.streamed;
    }

    /** {@return the provider and model as failures name them, e.g. {@code OpenAI (gpt-4o-mini)}} */
    public String provider() {
        return provider;
    }

    /** {@return the model that answered, as the provider named it in its answer, if it did} */
    public Optional<String> model() {
        return Optional.ofNullable(model);
    }

    /** {@return why the model stopped} */
    public FinishReason finishReason() {
        return finishReason;
    }

    /** {@return the provider's own finish reason, as Spring AI passed it on (e.g. {@code TOOL_CALLS}, {@code end_turn})} */
    public Optional<String> providerFinishReason() {
        return Optional.ofNullable(providerFinishReason);
    }

    /** {@return the tokens of the request (the prompt), if the provider said} */
    public OptionalInt inputTokens() {
        return optional(inputTokens);
    }

    /** {@return the tokens of the answer, if the provider said} */
    public OptionalInt outputTokens() {
        return optional(outputTokens);
    }

    /** {@return all tokens of the call, if the provider said (else the sum of the two others, when both are known)} */
    public OptionalInt totalTokens() {
        return optional(totalTokens);
    }

    /** {@return true when the answer was streamed} */
    public boolean streamed() {
        return streamed;
    }

    @Override
    public String toString() {
        return "AnswerMetadata[" + provider + ", " + finishReason + (providerFinishReason == null ? "" : " (" + providerFinishReason + ")")
                + ", tokens in/out/total " + inputTokens + "/" + outputTokens + "/" + totalTokens + (streamed ? ", streamed" : "") + "]";
    }

    private static OptionalInt optional(@Nullable Integer value) {
        return value == null ? OptionalInt.empty() : OptionalInt.of(value);
    }

    static FinishReason normalize(@Nullable String reason) {
        if (reason == null || reason.isBlank()) return FinishReason.UNKNOWN;
        return switch (reason.strip().toLowerCase(Locale.ROOT)) {
            case "stop", "end_turn", "stop_sequence", "eos", "complete", "completed", "finish" -> FinishReason.STOP;
            case "tool_calls", "tool_call", "tool_use", "function_call" -> FinishReason.TOOL_CALLS;
            case "length", "max_tokens", "max_output_tokens", "model_length" -> FinishReason.LENGTH;
            case "content_filter", "content_filtered", "refusal", "safety", "prohibited_content", "blocklist", "recitation" ->
                    FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }

    /** Gathers an answer's metadata from its responses (one, or each streamed piece); the last word wins. */
    static final class Collector {
        private final String provider;
        private final boolean streamed;
        private @Nullable String model;
        private @Nullable String finishReason;
        private @Nullable Integer inputTokens;
        private @Nullable Integer outputTokens;
        private @Nullable Integer totalTokens;

        Collector(String provider, boolean streamed) {
            this.provider = provider;
            this.streamed = streamed;
        }

        void add(ChatResponse response) {
            Generation generation = response.getResult();
            if (generation != null && generation.getMetadata() != null) {
                String reason = generation.getMetadata().getFinishReason();
                if (reason != null && !reason.isBlank()) finishReason = reason;
            }
            ChatResponseMetadata metadata = response.getMetadata();
            if (metadata == null) return;
            String m = metadata.getModel();
            if (m != null && !m.isBlank()) model = m;
            Usage usage = metadata.getUsage();
            // a streamed piece without usage reports zeros (Spring AI's EmptyUsage): they do not erase a count
            if (usage != null && (positive(usage.getPromptTokens()) || positive(usage.getCompletionTokens()))) {
                inputTokens = usage.getPromptTokens();
                outputTokens = usage.getCompletionTokens();
                totalTokens = usage.getTotalTokens();
            }
        }

        AnswerMetadata done() {
            return new AnswerMetadata(this);
        }

        private static boolean positive(@Nullable Integer n) {
            return n != null && n > 0;
        }
    }

    static AnswerMetadata of(String provider, ChatResponse response) {
        Collector c = new Collector(Objects.requireNonNull(provider), false);
        c.add(response);
        return c.done();
    }
}
