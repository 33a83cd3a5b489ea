package dev.baton.http;

import dev.baton.agent.AgentStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * What {@link BatonHttpApi} answers: a status, headers, and either a body of bytes or an event
 * stream written as the run advances.
 *
 * <p>An adapter sets the status and headers, then calls {@link #writeTo(OutputStream)} once, and
 * closes the response in a {@code finally} (try-with-resources). For an event stream it must send
 * the response unbuffered with no length (chunked): {@code writeTo} flushes after every event.
 * Closing a stream that was never written still finishes the run's stream (see
 * {@link dev.baton.agent.AgentStream#close()}), so a client that goes away never leaves a claimed
 * run behind.
 *
 * <p>Thread-safety: one adapter thread writes a response; {@link #writeTo} and {@link #close()} may
 * race safely (whichever comes first wins, the body is written or released exactly once). Status,
 * headers and body are immutable. Closing: the adapter closes every response it got from
 * {@link BatonHttpApi#handle}.
 */
public final class ApiResponse implements AutoCloseable {

    private final int status;
    private final Map<String, String> headers;
    private final byte @Nullable [] body;
    private final @Nullable AgentStream stream;
    private final Runnable end;
    private final AtomicBoolean written = new AtomicBoolean();

    ApiResponse(int status, Map<String, String> headers, byte @Nullable [] body, @Nullable AgentStream stream) {
        this(status, headers, body, stream, () -> { });
    }

    private ApiResponse(int status, Map<String, String> headers, byte @Nullable [] body, @Nullable AgentStream stream,
                        Runnable end) {
        this.status = status;
        this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        this.body = body;
        this.stream = stream;
        this.end = end;
    }

    // ---- the answers the API builds (every one with the same security headers) -----------------

    /** A JSON body: a tree, or a value Jackson writes (a record's components, in their order). */
    static ApiResponse json(int status, Object body) {
        return new ApiResponse(status, headers(ParsedRequest.JSON), Json.bytes(body), null);
    }

    /** An RFC 9457 problem document, with the problem's own headers. */
    static ApiResponse problem(Problem p) {
        Map<String, String> h = headers("application/problem+json");
        h.putAll(p.headers());
        return new ApiResponse(p.status(), h, Json.bytes(p.toJson()), null);
    }

    /** 204, no body. */
    static ApiResponse noContent() {
        return new ApiResponse(204, headers(null), null, null);
    }

    /** A run's events, written as the run produces them. */
    static ApiResponse eventStream(AgentStream stream) {
        return new ApiResponse(200, eventStreamHeaders(), null, stream);
    }

    /** Events that already happened, as one event-stream body. */
    static ApiResponse eventStream(byte[] events) {
        return new ApiResponse(200, eventStreamHeaders(), events, null);
    }

    /** A file of the jar: revalidated on use ({@code no-cache}), with a {@code Content-Security-Policy} if given. */
    static ApiResponse document(String contentType, byte[] bytes, @Nullable String policy) {
        Map<String, String> h = headers(contentType);
        h.put("Cache-Control", "no-cache");
        if (policy != null) h.put("Content-Security-Policy", policy);
        return new ApiResponse(200, h, bytes, null);
    }

    /** 304 Not Modified: the security headers and the tag, no body. */
    static ApiResponse notModified(String etag) {
        return new ApiResponse(304, headers(null), null, null).withHeader("ETag", etag);
    }

    /** This response with one more header (before it is written: the body or stream moves to the copy). */
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

    /** {@return the HTTP status} */
    public int status() {
        return status;
    }

    /** {@return the response headers, unmodifiable, in the order to send them} */
    public Map<String, String> headers() {
        return headers;
    }

    /** {@return the content type, e.g. {@code application/problem+json}, or null for a response without a body} */
    public @Nullable String contentType() {
        return headers.get("Content-Type");
    }

    /** {@return true for an event stream: send it chunked, with no length, and unbuffered} */
    public boolean isStream() {
        return stream != null;
    }

    /** {@return a copy of the body of a response that is not a stream (empty for a stream)} */
    public byte[] body() {
        return body == null ? new byte[0] : body.clone();
    }

    /** {@return the body's length, or -1 for a stream} */
    public long contentLength() {
        return body == null ? -1 : body.length;
    }

    /**
     * Writes the body; for an event stream, writes each event as the run produces it and flushes
     * after each one, until the run suspends or ends. Call at most once.
     *
     * @param out where the body goes (the connection); not closed here
     * @throws IOException the client went away (the run's stream is finished all the same)
     */
    public void writeTo(OutputStream out) throws IOException {
        if (!written.compareAndSet(false, true)) throw new IllegalStateException("the response was already written");
        if (stream != null) {
            try {
                EventStreamBody.write(out, stream);
            } finally {
                end.run();
            }
        } else if (body != null && body.length > 0) {
            out.write(body);
            out.flush();
        }
    }

    /** Finishes an event stream that was never written; nothing otherwise. */
    @Override
    public void close() {
        if (stream == null || !written.compareAndSet(false, true)) return;
        try {
            stream.close();
        } finally {
            end.run();
        }
    }

    @Override
    public String toString() {
        return "ApiResponse[" + status + " " + contentType() + (isStream() ? ", stream" : ", " + contentLength() + " bytes") + "]";
    }
}
