package dev.baton.http;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP request as {@link BatonHttpApi} sees it, whatever server received it. An adapter
 * implements it: {@link BatonHttpServlet} for any servlet container (Jetty in {@link BatonHttpServer},
 * Tomcat in Spring Boot); another server can do the same in a few lines.
 *
 * <p>The path and query are passed <em>raw</em> (still percent-encoded), because an id may contain
 * an encoded {@code /} ({@code %2F}): the API splits the path first and decodes each segment after.
 *
 * <p>Thread-safety: the API reads one request on the thread that called {@link BatonHttpApi#handle},
 * so an implementation need not be thread-safe. Closing: the API closes {@link #body()} after reading
 * it; the adapter owns the connection.
 */
public interface ApiRequest {

    /** {@return the method, upper case: {@code GET}, {@code POST}, ...} */
    String method();

    /** {@return the path below where the API is mounted, still percent-encoded, starting with {@code /}} */
    String rawPath();

    /** {@return the query string without {@code ?}, still percent-encoded, or null} */
    @Nullable String rawQuery();

    /**
     * The first value of a header.
     *
     * @param name the header's name, case-insensitive
     * @return its first value, or null
     */
    @Nullable String header(String name);

    /**
     * The request body. The API reads at most its body limit plus one byte, only for requests that
     * take a body, and closes it after reading; it never drains a body it rejected (the adapter does,
     * after the response, or closes the connection).
     *
     * @return the body (an empty stream for a request without one)
     */
    InputStream body();

    /**
     * A request held in memory: for tests, and for adapters that have the body as bytes already.
     * Immutable: the headers and the body are copied, and each {@link #body()} call reads them from
     * the start.
     *
     * @param method          the method (any case)
     * @param rawPathAndQuery the path below the mount point and the query, still percent-encoded,
     *                        e.g. {@code /agents/concierge/suspended-runs?perPage=5}
     * @param headers         the headers (names case-insensitive)
     * @param body            the body, empty for none
     * @return the request
     */
    static ApiRequest of(String method, String rawPathAndQuery, Map<String, String> headers, byte[] body) {
        int q = rawPathAndQuery.indexOf('?');
        String path = q < 0 ? rawPathAndQuery : rawPathAndQuery.substring(0, q);
        String query = q < 0 ? null : rawPathAndQuery.substring(q + 1);
        Map<String, String> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        h.putAll(headers);
        String m = method.toUpperCase(Locale.ROOT);
        byte[] b = body.clone();
        return new ApiRequest() {
            @Override public String method() { return m; }
            @Override public String rawPath() { return path; }
            @Override public @Nullable String rawQuery() { return query; }
            @Override public @Nullable String header(String name) { return h.get(name); }
            @Override public InputStream body() { return new ByteArrayInputStream(b); }
        };
    }
}
