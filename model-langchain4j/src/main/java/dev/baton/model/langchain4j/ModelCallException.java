package dev.baton.model.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import org.jspecify.annotations.Nullable;

/**
 * A call to the model provider failed, as the LangChain4j adapter says it: core's
 * {@link dev.baton.model.ModelCallException} (provider, {@link Kind}, HTTP status, the provider's own
 * text, {@link #retryable()}), made from what the LangChain4j model threw. Catch core's class to
 * handle the failures of every model adapter alike.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class ModelCallException extends dev.baton.model.ModelCallException {
    private static final long serialVersionUID = 1L;

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
        super(provider, kind, statusCode, providerMessage, message, cause);
    }

    private ModelCallException(dev.baton.model.ModelCallException explained) {
        super(explained);
    }

    /** Explains what a LangChain4j model threw; a {@code ModelCallException} is returned as it is. */
    static ModelCallException of(String provider, Throwable failure) {
        if (failure instanceof ModelCallException m) return m;
        HttpException http = find(failure, HttpException.class);
        if (http != null) {
            return new ModelCallException(httpStatus(provider, http.statusCode(), http.getMessage(), failure));
        }
        if (find(failure, HttpTimeoutException.class) != null || find(failure, SocketTimeoutException.class) != null
                || find(failure, dev.langchain4j.exception.TimeoutException.class) != null
                || find(failure, java.util.concurrent.TimeoutException.class) != null) {
            return new ModelCallException(timeout(provider, failure));
        }
        if (find(failure, ConnectException.class) != null || find(failure, UnresolvedModelServerException.class) != null
                || find(failure, UnresolvedAddressException.class) != null) {
            return new ModelCallException(unreachable(provider, failure));
        }
        JsonProcessingException json = find(failure, JsonProcessingException.class);
        if (json != null) {
            return new ModelCallException(malformedAnswer(provider, json.getOriginalMessage(), failure));
        }
        return new ModelCallException(other(provider, failure));
    }

    private static <T extends Throwable> @Nullable T find(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) return type.cast(c);
        }
        return null;
    }
}
