package dev.baton.http;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One request answered by {@link BatonHttpServlet} in memory, with no container: any method, raw path,
 * headers and body, exactly as given (a container's parser would refuse some of them first, e.g. a
 * request without {@code Host}). The servlet runs as a container runs it: the first dispatch admits the
 * request and starts reading its body (a {@link ReadListener} fed at once), then the {@code ASYNC} dispatch
 * answers. For tests of the API alone (admission order, {@link SiteGuard}) and of applications that
 * hold a {@link BatonHttpApi} without serving it (the Spring starter's tests).
 */
public final class ServletCall {
    private ServletCall() {
    }

    /**
     * The answer: status, headers (names case-insensitive) and body (an event stream's events, whole).
     *
     * @param status  the status
     * @param headers the headers
     * @param body    the body
     */
    public record Answer(int status, Map<String, String> headers, byte[] body) {
        /** {@return the body as UTF-8} */
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** {@return the body as JSON ({@code {}} for none)} */
        public JsonNode json() {
            try {
                return Json.MAPPER.readTree(body.length == 0 ? "{}".getBytes(StandardCharsets.UTF_8) : body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** {@return the problem type without its prefix, e.g. {@code not-found}} */
        public String type() {
            return json().path("type").asText().replace(Problem.TYPE_PREFIX, "");
        }
    }

    /**
     * Sends a request to {@code api}'s servlet mapped at {@code /*}.
     *
     * @param api             the API
     * @param method          the method
     * @param rawPathAndQuery the path and query, still percent-encoded
     * @param headers         the headers (no {@code Host} unless given)
     * @param body            the body, or null for one that fails the test if it is read
     * @return the answer
     */
    public static Answer send(BatonHttpApi api, String method, String rawPathAndQuery, Map<String, String> headers,
                              byte @Nullable [] body) {
        BatonHttpServlet servlet = new BatonHttpServlet(api);
        Exchange x = new Exchange(method, rawPathAndQuery, headers, body);
        try {
            servlet.service(x.request, x.response);
            if (x.dispatched) {   // the body is in: the container dispatches again to answer
                x.type = DispatcherType.ASYNC;
                servlet.service(x.request, x.response);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return new Answer(x.status, x.headers, x.out.toByteArray());
    }

    /**
     * A request with these headers (names case-insensitive) and nothing else: for an {@link Authenticator} alone.
     *
     * @param headers the headers
     * @return the request
     */
    public static HttpServletRequest headers(Map<String, String> headers) {
        return new Exchange("GET", "/", headers, new byte[0]).request;
    }

    /** The request, the response and the async context of one call, as proxies over this state. */
    private static final class Exchange {
        final Map<String, String> requestHeaders = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        final Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        final Map<String, Object> attributes = new HashMap<>();
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final HttpServletRequest request;
        final HttpServletResponse response;
        DispatcherType type = DispatcherType.REQUEST;
        int status = 200;
        boolean dispatched;

        Exchange(String method, String rawPathAndQuery, Map<String, String> given, byte @Nullable [] body) {
            requestHeaders.putAll(given);
            int q = rawPathAndQuery.indexOf('?');
            String path = q < 0 ? rawPathAndQuery : rawPathAndQuery.substring(0, q);
            String query = q < 0 ? null : rawPathAndQuery.substring(q + 1);
            HttpServletMapping mapping = proxy(HttpServletMapping.class, (name, args) -> name.equals("getPattern") ? "/*" : null);
            ServletInputStream in = input(body);
            AsyncContext async = proxy(AsyncContext.class, (name, args) -> switch (name) {
                case "dispatch" -> {
                    dispatched = true;
                    yield null;
                }
                case "getRequest" -> request();
                case "getResponse" -> response();
                default -> null;   // setTimeout, addListener (no timeout here), complete
            });
            request = proxy(HttpServletRequest.class, (name, args) -> switch (name) {
                case "getMethod" -> method;
                case "getRequestURI" -> path;
                case "getQueryString" -> query;
                case "getContextPath" -> "";
                case "getProtocol" -> "HTTP/1.1";
                case "getHttpServletMapping" -> mapping;
                case "getDispatcherType" -> type;
                case "getHeader" -> requestHeaders.get((String) args[0]);
                case "getHeaderNames" -> Collections.enumeration(List.copyOf(requestHeaders.keySet()));
                case "getContentLengthLong" -> body == null ? 1L : (long) body.length;
                case "getAttribute" -> attributes.get((String) args[0]);
                case "setAttribute" -> attributes.put((String) args[0], args[1]);
                case "removeAttribute" -> attributes.remove((String) args[0]);
                case "startAsync" -> async;
                case "getInputStream" -> in;
                default -> throw new UnsupportedOperationException("HttpServletRequest." + name);
            });
            ServletOutputStream output = new ServletOutputStream() {
                @Override public boolean isReady() { return true; }
                @Override public void setWriteListener(WriteListener listener) { throw new UnsupportedOperationException(); }
                @Override public void write(int b) { out.write(b); }
            };
            response = proxy(HttpServletResponse.class, (name, args) -> switch (name) {
                case "setStatus" -> {
                    status = (Integer) args[0];
                    yield null;
                }
                case "setHeader" -> headers.put((String) args[0], (String) args[1]);
                case "getOutputStream" -> output;
                case "setContentLength", "setContentLengthLong", "flushBuffer" -> null;
                default -> throw new UnsupportedOperationException("HttpServletResponse." + name);
            });
        }

        private HttpServletRequest request() {
            return request;
        }

        private HttpServletResponse response() {
            return response;
        }

        /** The body, handed to the read listener at once; null: a body that must never be read. */
        private static ServletInputStream input(byte @Nullable [] body) {
            return new ServletInputStream() {
                private int at;

                @Override public boolean isFinished() { return body != null && at == body.length; }
                @Override public boolean isReady() { return !isFinished(); }

                @Override
                public void setReadListener(ReadListener listener) {
                    if (body == null) throw new AssertionError("the body was read");
                    try {
                        listener.onDataAvailable();
                        if (isFinished()) listener.onAllDataRead();
                    } catch (IOException e) {
                        listener.onError(e);
                    }
                }

                @Override
                public int read() {
                    if (body == null) throw new AssertionError("the body was read");
                    return at < body.length ? body[at++] & 0xff : -1;
                }
            };
        }
    }

    /** What a proxy answers: the method's name and arguments to a value. */
    private interface Answers {
        @Nullable Object answer(String method, Object[] args) throws Exception;
    }

    private static <T> T proxy(Class<T> type, Answers answers) {
        return type.cast(Proxy.newProxyInstance(ServletCall.class.getClassLoader(), new Class<?>[] {type},
                (self, method, args) -> switch (method.getName()) {
                    case "hashCode" -> System.identityHashCode(self);
                    case "equals" -> self == args[0];
                    case "toString" -> type.getSimpleName() + "@" + System.identityHashCode(self);
                    default -> answers.answer(method.getName(), args == null ? new Object[0] : args);
                }));
    }
}
