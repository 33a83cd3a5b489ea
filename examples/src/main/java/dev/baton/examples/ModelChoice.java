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
 * {@code --base-url} also points {@code openai:} at any OpenAI-compatible server, and
 * {@code anthropic:} at a proxy. It is read by {@link #apiBase(String, String)}: a server's root
 * ({@code http://localhost:8000}) gets the providers' {@code /v1}, a URL that has a path
 * ({@code http://localhost:8000/v1}, {@code https://gateway.example/openai}) is used as given, a
 * trailing slash changes nothing; for {@code ollama:} the URL is always Ollama's root, with or
 * without {@code /v1}. Every real model streams
 * ({@link LangChain4jModel#of(dev.langchain4j.model.chat.StreamingChatModel)}). A missing key or a
 * malformed choice is a {@link UsageException}: the program prints that one line and a hint, and
 * exits with 2. Keys are read from the environment only, never from the command line.
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
            "  --base-url URL  the provider's endpoint (ollama: default " + OLLAMA_DEFAULT_URL + "; openai: any compatible server),",
            "                with or without /v1: http://localhost:8000 and http://localhost:8000/v1/ both mean .../v1");

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
        String url = baseUrl == null ? null : apiBase(provider, checkedUrl(baseUrl));
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
                String openAiBase = url == null ? apiBase(provider, OLLAMA_DEFAULT_URL) : url;
                yield new ModelChoice(s, LangChain4jModel.of(OpenAiStreamingChatModel.builder()
                        .baseUrl(openAiBase).apiKey("ollama").modelName(name).timeout(TIMEOUT).build()));
            }
        };
    }

    /**
     * The base URL the provider's LangChain4j model is given for {@code --base-url url}, without a
     * trailing slash. OpenAI's and Anthropic's APIs (and the servers that copy OpenAI's) live under
     * {@code /v1}: a URL with no path (a server's root) gets {@code /v1}; a URL with a path is the
     * API's base already ({@code .../v1}, or a gateway's own path) and is used as given. Ollama's
     * URL is always its server's root, so {@code /v1} is added unless it is there.
     *
     * @param provider {@code openai}, {@code anthropic} or {@code ollama}
     * @param url      an http(s) URL (checked by the caller)
     * @return the URL the model's requests go under, e.g. {@code http://localhost:8000/v1}
     */
    static String apiBase(String provider, String url) {
        String trimmed = url.replaceAll("/+$", "");
        if (trimmed.endsWith("/v1")) return trimmed;
        boolean hasPath = !URI.create(trimmed).getRawPath().isEmpty();
        return hasPath && !provider.equals("ollama") ? trimmed : trimmed + "/v1";
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
