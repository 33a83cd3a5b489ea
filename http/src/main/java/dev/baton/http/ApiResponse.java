package dev.baton.http;

import dev.baton.agent.AgentStream;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.http.HttpStatus;
import org.jspecify.annotations.Nullable;

/**
 * What a handler answers: a status, headers, and either a body of bytes or an event stream written as
 * the run advances. {@link BatonHttpServlet} sends every answer it gets ({@link #send}); an event stream
 * is finished however sending ends (see {@link AgentStream#close()}), so a client that goes away never
 * leaves a claimed run behind.
 *
 * @param status  the HTTP status
 * @param headers the headers, in the order they are sent
 * @param body    the bytes of an answer that is not a stream (null for none)
 * @param stream  the run's events, or null
 * @param end     called once when an event stream is finished (written to its end, failed, or never written)
 */
record ApiResponse(int status, Map<String, String> headers, byte @Nullable [] body, @Nullable AgentStream stream,
                   Runnable end) {
    private static final Runnable NO_END = () -> { };

    ApiResponse {
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    // ---- the answers the API builds (every one with the same security headers) -----------------

    /** A JSON body: a tree, or a value Jackson writes (a record's components, in their order). */
    static ApiResponse json(int status, Object body) {
        return new ApiResponse(status, headers(ParsedRequest.JSON), Json.bytes(body), null, NO_END);
    }

    /** An RFC 9457 problem document, with the problem's own headers. */
    static ApiResponse problem(Problem p) {
        Map<String, String> h = headers("application/problem+json");
        h.putAll(p.headers());
        return new ApiResponse(p.status(), h, Json.bytes(p.toJson()), null, NO_END);
    }

    /** 204, no body. */
    static ApiResponse noContent() {
        return new ApiResponse(204, headers(null), null, null, NO_END);
    }

    /** A run's events, written as the run produces them. */
    static ApiResponse eventStream(AgentStream stream) {
        return new ApiResponse(200, eventStreamHeaders(), null, stream, NO_END);
    }

    /** Events that already happened, as one event-stream body. */
    static ApiResponse eventStream(byte[] events) {
        return new ApiResponse(200, eventStreamHeaders(), events, null, NO_END);
    }

    /** A file of the jar: revalidated on use ({@code no-cache}), with a {@code Content-Security-Policy} if given. */
    static ApiResponse document(String contentType, byte[] bytes, @Nullable String policy) {
        Map<String, String> h = headers(contentType);
        h.put("Cache-Control", "no-cache");
        if (policy != null) h.put("Content-Security-Policy", policy);
        return new ApiResponse(200, h, bytes, null, NO_END);
    }

    /** 304 Not Modified: the security headers and the tag, no body. */
    static ApiResponse notModified(String etag) {
        return new ApiResponse(304, headers(null), null, null, NO_END).withHeader("ETag", etag);
    }

    /** This response with one more header (before it is sent: the body or stream moves to the copy). */
    ApiResponse withHeader(String name, String value) {
        Map<String, String> h = new LinkedHashMap<>(headers);
        h.put(name, value);
        return new ApiResponse(status, h, body, stream, end);
    }

    /**
     * This event stream, calling {@code end} once when it is finished (written to its end or failed, or
     * released unwritten); the stream moves to the copy.
     */
    ApiResponse onStreamEnd(Runnable end) {
        return new ApiResponse(status, headers, body, Objects.requireNonNull(stream, "not a stream"), end);
    }

    private static Map<String, String> eventStreamHeaders() {
        Map<String, String> headers = headers(ParsedRequest.EVENT_STREAM + "; charset=utf-8");
        headers.put("X-Accel-Buffering", "no");   // nginx: pass each event through at once
        return headers;
    }

    private static Map<String, String> headers(@Nullable String contentType) {
        Map<String, String> h = new LinkedHashMap<>();
        if (contentType != null) h.put("Content-Type", contentType);
        h.put("Cache-Control", "no-store");
        h.put("X-Content-Type-Options", "nosniff");
        h.put("Referrer-Policy", "no-referrer");
        h.put("X-Frame-Options", "DENY");
        return h;
    }

    // ---- the response -------------------------------------------------------------------------

    /** {@return true for an event stream: sent with no length, each event flushed} */
    boolean isStream() {
        return stream != null;
    }

    /**
     * Sends the status, the headers and the body; an event stream goes out unbuffered, each event as the
     * run produces it, until the run suspends or ends. Call once.
     *
     * @param resp where it goes (not committed yet); not closed here
     * @throws IOException the client went away (the run's stream is finished all the same)
     */
    void send(HttpServletResponse resp) throws IOException {
        resp.setStatus(status);
        headers.forEach(resp::setHeader);
        if (stream != null) {
            try (stream) {
                resp.flushBuffer();   // the status and headers go now; the events follow as the run makes them
                EventStreamBody.write(resp.getOutputStream(), stream);
            } finally {
                end.run();
            }
        } else if (body != null && body.length > 0) {
            resp.setContentLength(body.length);
            resp.getOutputStream().write(body);
        }
    }

    /**
     * This answer (not a stream) as the bytes of a whole HTTP/1.1 response that closes its connection:
     * status line, headers, {@code Content-Length}, body; for a connection on which no response can be
     * written through the container.
     */
    byte[] http11Bytes() {
        if (stream != null) throw new IllegalStateException("an event stream is not sent whole");
        byte[] content = body == null ? new byte[0] : body;
        StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(' ').append(HttpStatus.getMessage(status)).append("\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("Content-Length: ").append(content.length).append("\r\nConnection: close\r\n\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = Arrays.copyOf(h, h.length + content.length);
        System.arraycopy(content, 0, all, h.length, content.length);
        return all;
    }
}
