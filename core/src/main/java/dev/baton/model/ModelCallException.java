package dev.baton.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.ModelException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A call to the model provider failed: the provider answered with an HTTP error, did not answer in
 * time, could not be reached, or sent an answer that could not be read. What every model adapter
 * throws from its stream ({@code baton-model-spring-ai} this class, {@code baton-model-langchain4j}
 * its subclass of the same name), so a caller handles the failures of any provider the same way.
 * The run loop wraps it in core's {@link ModelException} naming the run and the step (its cause is
 * this exception, its {@link #retryable()} this one's), which {@code AgentResult.modelFailure()}
 * returns and whose message ends the {@code error} event.
 *
 * <p>Messages name the provider, the HTTP status and the provider's own text, e.g.
 * {@code OpenAI (gpt-4o-mini) answered HTTP 429 (rate limited): Rate limit reached for gpt-4o-mini}.
 * Whether a retry may help is {@link #retryable()}: true for 408, 409, 429, 5xx and 529 answers,
 * timeouts and an unreachable provider; false otherwise.
 *
 * <p>Adapters make one with the factories ({@link #httpStatus}, {@link #timeout}, {@link #unreachable},
 * {@link #malformedAnswer}, {@link #other}), which word the message the same way for every provider.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class ModelCallException extends ModelException {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_PROVIDER_TEXT = 500;
    private static final Set<Integer> RETRYABLE_STATUS = Set.of(408, 409, 429, 500, 502, 503, 504, 529);

    /** What went wrong, broadly. */
    public enum Kind {
        /** The provider answered with an HTTP error status; see {@link #statusCode()}. */
        HTTP_STATUS,
        /** No answer in time (the provider client's timeout). */
        TIMEOUT,
        /** The provider could not be reached (connection refused, unknown host). */
        UNREACHABLE,
        /** The answer could not be read (not valid JSON, or not the expected shape). */
        MALFORMED_ANSWER,
        /** Anything else the provider client threw. */
        OTHER
    }

    /** The provider and model (serialized with it). */
    private final String provider;
    /** What went wrong (serialized with it). */
    private final Kind kind;
    /** The HTTP status, for {@link Kind#HTTP_STATUS} (serialized with it). */
    private final @Nullable Integer statusCode;
    /** The provider's own text (serialized with it). */
    private final @Nullable String providerMessage;

    /**
     * A failed call; whether a retry may help follows from {@code kind} and {@code statusCode} (see
     * {@link #retryable()}).
     *
     * @param provider        the provider and model, e.g. {@code OpenAI (gpt-4o-mini)}
     * @param kind            what went wrong
     * @param statusCode      the HTTP status, for {@link Kind#HTTP_STATUS}
     * @param providerMessage the provider's own text, when it sent one
     * @param message         the whole message
     * @param cause           what the provider client threw
     */
    public ModelCallException(String provider, Kind kind, @Nullable Integer statusCode, @Nullable String providerMessage,
                              String message, @Nullable Throwable cause) {
        super(message, cause, retryable(kind, statusCode));
        this.provider = Objects.requireNonNull(provider, "provider");
        this.kind = Objects.requireNonNull(kind, "kind");
        this.statusCode = statusCode;
        this.providerMessage = providerMessage;
    }

    /**
     * The same failure as {@code explained}, with its message and cause: for an adapter's subclass
     * made from one of the factories.
     *
     * @param explained what a factory made
     */
    protected ModelCallException(ModelCallException explained) {
        this(explained.provider, explained.kind, explained.statusCode, explained.providerMessage,
                Objects.requireNonNull(explained.getMessage()), explained.getCause());
    }

    /**
     * The provider answered with an HTTP error status.
     *
     * @param provider the provider and model, e.g. {@code OpenAI (gpt-4o-mini)}
     * @param status   the HTTP status
     * @param body     the error body (its {@code error.message} is taken, see {@link #providerText}), or null
     * @param cause    what the provider client threw
     * @return e.g. {@code OpenAI (gpt-4o-mini) answered HTTP 401 (unauthorized: check the API key): Incorrect API key}
     */
    public static ModelCallException httpStatus(String provider, int status, @Nullable String body, @Nullable Throwable cause) {
        String text = providerText(body);
        return new ModelCallException(provider, Kind.HTTP_STATUS, status, text,
                provider + " answered HTTP " + status + reason(status) + ": " + (text == null ? "(no message)" : text), cause);
    }

    /**
     * The provider did not answer in time.
     *
     * @param provider the provider and model
     * @param cause    what the provider client threw
     * @return e.g. {@code OpenAI (gpt-4o-mini) did not answer in time (timeout); raise the model's timeout or try again}
     */
    public static ModelCallException timeout(String provider, Throwable cause) {
        return new ModelCallException(provider, Kind.TIMEOUT, null, null,
                provider + " did not answer in time (" + rootMessage(cause) + "); raise the model's timeout or try again", cause);
    }

    /**
     * The provider could not be reached.
     *
     * @param provider the provider and model
     * @param cause    what the provider client threw
     * @return e.g. {@code OpenAI (gpt-4o-mini) could not be reached (Connection refused); check its base URL and the network}
     */
    public static ModelCallException unreachable(String provider, Throwable cause) {
        return new ModelCallException(provider, Kind.UNREACHABLE, null, null,
                provider + " could not be reached (" + rootMessage(cause) + "); check its base URL and the network", cause);
    }

    /**
     * The provider's answer could not be read.
     *
     * @param provider the provider and model
     * @param detail   what was wrong with it (its first line is kept), or null
     * @param cause    what the provider client threw
     * @return e.g. {@code OpenAI (gpt-4o-mini) sent an answer that is not valid JSON: Unexpected end-of-input}
     */
    public static ModelCallException malformedAnswer(String provider, @Nullable String detail, Throwable cause) {
        return new ModelCallException(provider, Kind.MALFORMED_ANSWER, null, null,
                provider + " sent an answer that is not valid JSON: " + firstLine(detail), cause);
    }

    /**
     * Anything else the provider client threw.
     *
     * @param provider the provider and model
     * @param cause    what the provider client threw
     * @return e.g. {@code OpenAI (gpt-4o-mini) call failed: ...}
     */
    public static ModelCallException other(String provider, Throwable cause) {
        return new ModelCallException(provider, Kind.OTHER, null, null, provider + " call failed: " + rootMessage(cause), cause);
    }

    /** {@return the provider and model, e.g. {@code OpenAI (gpt-4o-mini)}} */
    public String provider() {
        return provider;
    }

    /** {@return what went wrong, broadly} */
    public Kind kind() {
        return kind;
    }

    /** {@return the HTTP status the provider answered with, for {@link Kind#HTTP_STATUS}; else empty} */
    public OptionalInt statusCode() {
        return statusCode == null ? OptionalInt.empty() : OptionalInt.of(statusCode);
    }

    /** {@return the provider's own explanation (its error message, or the start of its answer), if it sent one} */
    public Optional<String> providerMessage() {
        return Optional.ofNullable(providerMessage);
    }

    /**
     * Whether a failure of this kind may pass if the call is made again later: an HTTP 408, 409, 429,
     * 5xx or 529 answer, a timeout, an unreachable provider. A refused request (400, 401, 403, 404,
     * ...), a malformed answer or any other failure: no.
     *
     * @param kind       what went wrong
     * @param statusCode the HTTP status, for {@link Kind#HTTP_STATUS}
     * @return what {@link #retryable()} answers for such a failure
     */
    public static boolean retryable(Kind kind, @Nullable Integer statusCode) {
        return switch (kind) {
            case HTTP_STATUS -> statusCode != null && (RETRYABLE_STATUS.contains(statusCode) || statusCode >= 500);
            case TIMEOUT, UNREACHABLE -> true;
            case MALFORMED_ANSWER, OTHER -> false;
        };
    }

    /**
     * The provider's explanation from an error body: {@code error.message} (OpenAI, Anthropic and
     * most others), a string {@code error} (Ollama), a top-level {@code message} or {@code detail};
     * else the body itself; whitespace runs made one space, shortened to 500 characters.
     *
     * @param body the error body, or null
     * @return the explanation, or null for a missing or blank body
     */
    public static @Nullable String providerText(@Nullable String body) {
        if (body == null || body.isBlank()) return null;
        try {
            JsonNode node = JSON.readTree(body);
            if (node != null) {
                for (JsonNode candidate : new JsonNode[] {node.path("error").path("message"), node.path("error"),
                        node.path("message"), node.path("detail")}) {
                    if (candidate.isTextual() && !candidate.asText().isBlank()) return shorten(candidate.asText());
                }
            }
        } catch (JsonProcessingException notJson) {
            // an HTML error page or plain text: shown as it is
        }
        return shorten(body);
    }

    private static String reason(int status) {
        return switch (status) {
            case 400 -> " (bad request)";
            case 401 -> " (unauthorized: check the API key)";
            case 403 -> " (forbidden: check the API key's permissions)";
            case 404 -> " (not found: check the model name and the base URL)";
            case 408 -> " (request timeout)";
            case 413 -> " (request too large)";
            case 422 -> " (unprocessable request)";
            case 429 -> " (rate limited)";
            case 500 -> " (provider error)";
            case 502 -> " (bad gateway)";
            case 503 -> " (unavailable)";
            case 504 -> " (gateway timeout)";
            case 529 -> " (overloaded)";
            default -> "";
        };
    }

    private static String shorten(String text) {
        String flat = text.strip().replaceAll("\\s+", " ");
        return flat.length() <= MAX_PROVIDER_TEXT ? flat : flat.substring(0, MAX_PROVIDER_TEXT - 3) + "...";
    }

    private static String firstLine(@Nullable String s) {
        if (s == null) return "(no detail)";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String m = root.getMessage();
        return m == null || m.isBlank() ? root.getClass().getSimpleName() : shorten(m);
    }
}
