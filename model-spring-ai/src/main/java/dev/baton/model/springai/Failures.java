package dev.baton.model.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.model.ModelCallException;
import java.io.InterruptedIOException;
import java.lang.reflect.Method;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What a Spring AI model threw, explained as a {@link ModelCallException}. Spring AI has no error
 * type of its own for a provider's answer, and each line reaches providers differently, so the
 * failure is recognised by shape, from the outside in:
 *
 * <ul>
 *   <li>an HTTP status: a {@code statusCode()} method (the OpenAI and Anthropic Java SDKs' service
 *       exceptions, Spring AI 2.x), a {@code getStatusCode()} (Spring's {@code RestClientResponseException}
 *       and {@code WebClientResponseException}, Spring AI 1.x's streaming), or Spring AI 1.x's
 *       {@code TransientAiException} / {@code NonTransientAiException} text {@code "429 - {body}"}, or
 *       its Anthropic streaming's {@code RuntimeException("Response exception, Status: [529], Body:[{body}]")};</li>
 *   <li>a timeout, an unreachable server, an answer that is not JSON (Jackson 2 or 3, the SDKs'
 *       {@code *InvalidDataException}); anything else is {@code OTHER}.</li>
 * </ul>
 */
final class Failures {
    /** Spring AI 1.x's RetryUtils: {@code String.format("%s - %s", status, body)}. */
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Spring AI 1.x's Anthropic streaming: {@code Response exception, Status: [529], Body:[{...}]}. */
    private static final Pattern STATUS_BODY_TEXT = Pattern.compile(".*Status: \\[(\\d{3})[^\\]]*\\], Body:\\[(.*)\\]\\s*$", Pattern.DOTALL);
    private static final Pattern STATUS_TEXT = Pattern.compile("^(\\d{3}) - (.*)$", Pattern.DOTALL);

    private Failures() {
    }

    static ModelCallException explain(String provider, Throwable failure) {
        if (failure instanceof ModelCallException m) return m;
        for (Throwable t = failure; t != null; t = next(t)) {
            if (t instanceof ModelCallException m) return m;
            ModelCallException http = httpStatus(provider, t, failure);
            if (http != null) return http;
        }
        for (Throwable t = failure; t != null; t = next(t)) {
            if (isTimeout(t)) return ModelCallException.timeout(provider, failure);
        }
        for (Throwable t = failure; t != null; t = next(t)) {
            if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof NoRouteToHostException
                    || t instanceof UnresolvedAddressException) {
                return ModelCallException.unreachable(provider, failure);
            }
        }
        for (Throwable t = failure; t != null; t = next(t)) {
            if (isMalformed(t)) return ModelCallException.malformedAnswer(provider, t.getMessage(), failure);
        }
        return ModelCallException.other(provider, failure);
    }

    private static @Nullable ModelCallException httpStatus(String provider, Throwable t, Throwable failure) {
        Integer status = intResult(t, "statusCode");
        if (status == null) {
            Object code = result(t, "getStatusCode");
            if (code != null) status = intResult(code, "value");
        }
        if (status != null && status >= 400 && status <= 599) {
            Object body = result(t, "getResponseBodyAsString");
            if (body == null) body = result(t, "body");
            String text = body == null ? t.getMessage() : bodyText(body);
            return ModelCallException.httpStatus(provider, status, text, failure);
        }
        String name = t.getClass().getName();
        if (name.equals("org.springframework.ai.retry.NonTransientAiException")
                || name.equals("org.springframework.ai.retry.TransientAiException")) {
            Matcher m = STATUS_TEXT.matcher(t.getMessage() == null ? "" : t.getMessage());
            if (m.matches()) return ModelCallException.httpStatus(provider, Integer.parseInt(m.group(1)), m.group(2), failure);
        }
        if (t.getClass() == RuntimeException.class && t.getMessage() != null) {
            Matcher m = STATUS_BODY_TEXT.matcher(t.getMessage());
            if (m.matches()) return ModelCallException.httpStatus(provider, Integer.parseInt(m.group(1)), m.group(2), failure);
        }
        return null;
    }

    /**
     * An error body as JSON text: a string as it is; the SDKs' JSON values (Jackson 2 objects whose
     * {@code toString} is not JSON) written with Jackson.
     */
    private static @Nullable String bodyText(Object body) {
        if (body instanceof String s) return s;
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException | RuntimeException e) {
            return body.toString();
        }
    }

    private static boolean isTimeout(Throwable t) {
        if (t instanceof SocketTimeoutException || t instanceof HttpTimeoutException || t instanceof TimeoutException) return true;
        // OkHttp's call timeout (the SDKs of Spring AI 2.x): InterruptedIOException("timeout")
        if (t instanceof InterruptedIOException && t.getMessage() != null && t.getMessage().toLowerCase(java.util.Locale.ROOT).contains("timeout")) {
            return true;
        }
        // Netty's ReadTimeoutException, Reactor's and the SDKs' timeout exceptions
        return t.getClass().getSimpleName().contains("Timeout");
    }

    private static boolean isMalformed(Throwable t) {
        for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
            String name = c.getName();
            if (name.equals("com.fasterxml.jackson.core.JacksonException") || name.equals("tools.jackson.core.JacksonException")
                    || name.endsWith("InvalidDataException")) {
                return true;
            }
        }
        return false;
    }

    private static @Nullable Throwable next(Throwable t) {
        Throwable cause = t.getCause();
        return cause == t ? null : cause;
    }

    private static @Nullable Integer intResult(Object target, String method) {
        Object value = result(target, method);
        return value instanceof Integer i ? i : null;
    }

    /** The result of a public no-argument method, or null if there is none or it fails. */
    private static @Nullable Object result(Object target, String method) {
        try {
            Method m = target.getClass().getMethod(method);
            if (m.getParameterCount() != 0) return null;
            return m.invoke(target);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
