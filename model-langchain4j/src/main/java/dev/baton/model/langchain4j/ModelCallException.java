package dev.baton.model.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.ModelException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A call to the model provider failed: the provider answered with an HTTP error, did not answer in
 * time, could not be reached, or sent an answer that could not be read. Thrown from the model's
 * stream; the run loop wraps it in core's {@link ModelException} naming the run and the step (its
 * cause is this exception, its {@link #retryable()} this one's), which
 * {@code AgentResult.modelFailure()} returns and whose message ends the {@code error} event.
 *
 * <p>Messages name the provider, the HTTP status and the provider's own text, e.g.
 * {@code OpenAI (gpt-4o-mini) answered HTTP 429 (rate limited): Rate limit reached for gpt-4o-mini}.
 * Whether a retry may help is {@link #retryable()}: true for 408, 409, 429, 5xx and 529 answers,
 * timeouts and an unreachable provider; false otherwise.
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
        /** No answer in time (the LangChain4j model's timeout). */
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
        this.provider = provider;
        this.kind = kind;
        this.statusCode = statusCode;
        this.providerMessage = providerMessage;
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
    static boolean retryable(Kind kind, @Nullable Integer statusCode) {
        return switch (kind) {
            case HTTP_STATUS -> statusCode != null && (RETRYABLE_STATUS.contains(statusCode) || statusCode >= 500);
            case TIMEOUT, UNREACHABLE -> true;
            case MALFORMED_ANSWER, OTHER -> false;
        };
    }

    /** Explains what a LangChain4j model threw; a {@code ModelCallException} is returned as it is. */
    static ModelCallException of(String provider, Throwable failure) {
        if (failure instanceof ModelCallException m) return m;
        HttpException http = find(failure, HttpException.class);
        if (http != null) {
            String text = providerText(http.getMessage());
            int status = http.statusCode();
            return new ModelCallException(provider, Kind.HTTP_STATUS, status, text,
                    provider + " answered HTTP " + status + reason(status) + ": " + (text == null ? "(no message)" : text), failure);
        }
        if (find(failure, HttpTimeoutException.class) != null || find(failure, SocketTimeoutException.class) != null
                || find(failure, dev.langchain4j.exception.TimeoutException.class) != null
                || find(failure, java.util.concurrent.TimeoutException.class) != null) {
            return new ModelCallException(provider, Kind.TIMEOUT, null, null,
                    provider + " did not answer in time (" + rootMessage(failure) + "); raise the model's timeout or try again", failure);
        }
        if (find(failure, ConnectException.class) != null || find(failure, UnresolvedModelServerException.class) != null
                || find(failure, UnresolvedAddressException.class) != null) {
            return new ModelCallException(provider, Kind.UNREACHABLE, null, null,
                    provider + " could not be reached (" + rootMessage(failure) + "); check its base URL and the network", failure);
        }
        JsonProcessingException json = find(failure, JsonProcessingException.class);
        if (json != null) {
            return new ModelCallException(provider, Kind.MALFORMED_ANSWER, null, null,
                    provider + " sent an answer that is not valid JSON: " + firstLine(json.getOriginalMessage()), failure);
        }
        return new ModelCallException(provider, Kind.OTHER, null, null, provider + " call failed: " + rootMessage(failure), failure);
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

    /**
     * The provider's explanation from an error body: {@code error.message} (OpenAI, Anthropic and
     * most others), a string {@code error} (Ollama), a top-level {@code message} or {@code detail};
     * else the body itself, shortened.
     */
    static @Nullable String providerText(@Nullable String body) {
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

    private static <T extends Throwable> @Nullable T find(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) return type.cast(c);
        }
        return null;
    }
}
