package dev.baton.http;

import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run's events as Server-Sent Events: one {@code event: <type>} with {@code data: <json>} per
 * {@link AgentEvent}, each flushed as it happens, then a closing {@code outcome} event (how the
 * stream ended, the waiting calls). A failure after the response started is a closing
 * {@code problem} event. The run's stream is always read to its end or closed.
 */
final class EventStreamBody {
    private static final Logger LOG = LoggerFactory.getLogger(EventStreamBody.class);

    /** The closing event's name: not an {@link AgentEvent} type. */
    static final String OUTCOME = "outcome";
    /** The event sent instead of {@link #OUTCOME} when the stream failed part-way. */
    static final String PROBLEM = "problem";

    private EventStreamBody() {
    }

    /** Writes {@code stream}'s events as they happen, then its outcome; the stream is closed in every case. */
    static void write(OutputStream out, AgentStream stream) throws IOException {
        try (stream) {
            // a comment first: proxies and browsers see the stream open before the run's first event
            out.write((": run " + stream.runId() + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            for (AgentEvent e : stream) {
                write(out, e.type(), Json.text(EventJson.event(e)));
            }
            AgentResult result = stream.result();
            write(out, OUTCOME, Json.text(EventJson.outcome(result)));
        } catch (IOException e) {
            LOG.debug("client left the event stream of run {}: {}", stream.runId(), e.toString());
            throw e;
        } catch (RuntimeException e) {
            write(out, PROBLEM, Json.text(Problem.from(e).toJson()));
        }
    }

    /** A run already ended (a cancel): its events and its outcome, as one event-stream body. */
    static byte[] bytes(AgentResult result) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try {
            for (AgentEvent e : result.events()) write(out, e.type(), Json.text(EventJson.event(e)));
            write(out, OUTCOME, Json.text(EventJson.outcome(result)));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);   // never: it writes to memory
        }
        return out.toByteArray();
    }

    static void write(OutputStream out, String event, String data) throws IOException {
        // Jackson writes one line: newlines inside strings are escaped, so one data: line suffices
        out.write(("event: " + event + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
