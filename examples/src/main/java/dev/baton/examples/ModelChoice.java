package dev.baton.examples;

import dev.baton.model.LanguageModel;
import dev.baton.model.langchain4j.LangChain4jModel;
import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Which model the example agents use, from {@code --model PROVIDER:NAME} and {@code --base-url URL}:
 *
 * <pre>
 * (no --model)                                       Baton's deterministic model: no network, no key
 * --model openai:gpt-4o-mini                         OpenAI; key from OPENAI_API_KEY
 * --model anthropic:claude-sonnet-4-5                Anthropic; key from ANTHROPIC_API_KEY
 * --model ollama:llama3.2 [--base-url http://localhost:11434]
 *                                                    a local Ollama, through its OpenAI-compatible endpoint; no key
 * </pre>
 *
 * {@code --base-url} also points {@code openai:} at any OpenAI-compatible server. Every real model
 * streams ({@link LangChain4jModel#of(dev.langchain4j.model.chat.StreamingChatModel)}). A missing
 * key or a malformed choice is a {@link UsageException}: the program prints what to do and exits
 * with 2. Keys are read from the environment only, never from the command line.
 *
 * @param spec        what was asked for, e.g. {@code openai:gpt-4o-mini}, or {@code deterministic}
 * @param model       the model, or null for the deterministic one
 */
record ModelChoice(String spec, @Nullable LanguageModel model) {

    static final String DETERMINISTIC = "deterministic";
    static final String OLLAMA_DEFAULT_URL = "http://localhost:11434";
    static final List<String> PROVIDERS = List.of("openai", "anthropic", "ollama");
    /** How long a model may take to start answering. */
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** The usage lines of {@code --model} and {@code --base-url}. */
    static final String USAGE = String.join(System.lineSeparator(),
            "  --model PROVIDER:NAME  the agents' model (default: the deterministic one, no network):",
            "                openai:gpt-4o-mini (OPENAI_API_KEY), anthropic:claude-sonnet-4-5 (ANTHROPIC_API_KEY),",
            "                ollama:llama3.2 (a local Ollama, no key)",
            "  --base-url URL  the provider's endpoint (ollama: default " + OLLAMA_DEFAULT_URL + "; openai: any compatible server)");

    boolean isDeterministic() {
        return model == null;
    }

    /**
     * Reads the choice.
     *
     * @param spec    {@code --model}, or null
     * @param baseUrl {@code --base-url}, or null
     * @param env     the environment ({@code System::getenv}; tests pass their own)
     * @throws UsageException for a malformed choice or a missing key
     */
    static ModelChoice parse(@Nullable String spec, @Nullable String baseUrl, UnaryOperator<String> env) {
        if (spec == null || spec.isBlank() || spec.trim().equalsIgnoreCase(DETERMINISTIC)) {
            if (baseUrl != null) throw new UsageException("--base-url needs --model (e.g. --model ollama:llama3.2)");
            return new ModelChoice(DETERMINISTIC, null);
        }
        String s = spec.trim();
        int colon = s.indexOf(':');
        if (colon <= 0) {
            throw new UsageException("--model: expected PROVIDER:NAME (" + String.join(", ", PROVIDERS) + "), e.g. openai:gpt-4o-mini; was '" + spec + "'");
        }
        String provider = s.substring(0, colon).toLowerCase(Locale.ROOT);
        String name = s.substring(colon + 1).trim();
        if (!PROVIDERS.contains(provider)) {
            throw new UsageException("--model: unknown provider '" + provider + "'; known: " + String.join(", ", PROVIDERS));
        }
        if (name.isEmpty()) throw new UsageException("--model: name the model after '" + provider + ":', e.g. " + example(provider));
        String url = baseUrl == null ? null : checkedUrl(baseUrl);
        return switch (provider) {
            case "openai" -> {
                OpenAiStreamingChatModel.OpenAiStreamingChatModelBuilder b = OpenAiStreamingChatModel.builder()
                        .apiKey(key(env, "OPENAI_API_KEY", s)).modelName(name).timeout(TIMEOUT);
                if (url != null) b.baseUrl(url);
                yield new ModelChoice(s, LangChain4jModel.of(b.build()));
            }
            case "anthropic" -> {
                AnthropicStreamingChatModel.AnthropicStreamingChatModelBuilder b = AnthropicStreamingChatModel.builder()
                        .apiKey(key(env, "ANTHROPIC_API_KEY", s)).modelName(name).timeout(TIMEOUT);
                if (url != null) b.baseUrl(url);
                yield new ModelChoice(s, LangChain4jModel.of(b.build()));
            }
            default -> {
                // Ollama speaks the OpenAI chat-completions format under /v1 and ignores the key
                String root = url == null ? OLLAMA_DEFAULT_URL : url;
                String openAiBase = root.replaceAll("/+$", "").endsWith("/v1") ? root : root.replaceAll("/+$", "") + "/v1";
                yield new ModelChoice(s, LangChain4jModel.of(OpenAiStreamingChatModel.builder()
                        .baseUrl(openAiBase).apiKey("ollama").modelName(name).timeout(TIMEOUT).build()));
            }
        };
    }

    private static String key(UnaryOperator<String> env, String variable, String spec) {
        String key = env.apply(variable);
        if (key == null || key.isBlank()) {
            throw new UsageException("--model " + spec + " needs an API key: set the environment variable " + variable
                    + " (or leave out --model to use the deterministic model)");
        }
        return key.trim();
    }

    private static String checkedUrl(String url) {
        try {
            URI uri = new URI(url.trim());
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) return url.trim();
        } catch (java.net.URISyntaxException e) {
            // reported below
        }
        throw new UsageException("--base-url: expected an http(s) URL such as " + OLLAMA_DEFAULT_URL + ", was '" + url + "'");
    }

    private static String example(String provider) {
        return switch (provider) {
            case "openai" -> "openai:gpt-4o-mini";
            case "anthropic" -> "anthropic:claude-sonnet-4-5";
            default -> "ollama:llama3.2";
        };
    }
}
