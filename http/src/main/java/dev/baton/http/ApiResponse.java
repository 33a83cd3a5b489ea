package dev.baton.http;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
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
 */
public final class ApiResponse implements AutoCloseable {

    /** An event stream: written once, released once. */
    interface StreamingBody {
        void writeTo(OutputStream out) throws IOException;

        /** Called if {@link #writeTo} never ran: finish what the body holds. */
        void release();
    }

    private final int status;
    private final Map<String, String> headers;
    private final byte @Nullable [] body;
    private final @Nullable StreamingBody stream;
    private final AtomicBoolean written = new AtomicBoolean();

    ApiResponse(int status, Map<String, String> headers, byte @Nullable [] body, @Nullable StreamingBody stream) {
        this.status = status;
        this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        this.body = body;
        this.stream = stream;
    }

    /** The HTTP status. */
    public int status() {
        return status;
    }

    /** The response headers, in the order to send them. */
    public Map<String, String> headers() {
        return headers;
    }

    /** The content type, e.g. {@code application/problem+json}. */
    public @Nullable String contentType() {
        return headers.get("Content-Type");
    }

    /** True for an event stream: send it chunked, with no length, and unbuffered. */
    public boolean isStream() {
        return stream != null;
    }

    /** The body of a response that is not a stream (empty for a stream). */
    public byte[] body() {
        return body == null ? new byte[0] : body.clone();
    }

    /** The body's length, or -1 for a stream. */
    public long contentLength() {
        return body == null ? -1 : body.length;
    }

    /**
     * Writes the body; for an event stream, writes each event as the run produces it and flushes
     * after each one, until the run suspends or ends. Call at most once.
     *
     * @throws IOException the client went away (the run's stream is finished all the same)
     */
    public void writeTo(OutputStream out) throws IOException {
        if (!written.compareAndSet(false, true)) throw new IllegalStateException("the response was already written");
        if (stream != null) {
            stream.writeTo(out);
        } else if (body != null && body.length > 0) {
            out.write(body);
            out.flush();
        }
    }

    /** Finishes an event stream that was never written; nothing otherwise. */
    @Override
    public void close() {
        if (stream != null && written.compareAndSet(false, true)) stream.release();
    }

    @Override
    public String toString() {
        return "ApiResponse[" + status + " " + contentType() + (isStream() ? ", stream" : ", " + contentLength() + " bytes") + "]";
    }
}
