package dev.baton.agent;

import dev.baton.model.ModelChunk;
import dev.baton.model.ModelRequest;
import dev.baton.model.ToolCall;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One model call of a run: the provider's stream, pulled one chunk at a time, and the text and
 * tool calls of the answer so far. Closing it early closes the provider's stream, which is how an
 * adapter cancels the call.
 */
final class ModelTurn {
    private static final Logger LOG = LoggerFactory.getLogger(ModelTurn.class);

    private final RunListeners listeners;
    private final RunListener.RunContext context;
    private final int step;
    private final long startNanos = System.nanoTime();
    private @Nullable Stream<ModelChunk> stream;
    private @Nullable Iterator<ModelChunk> chunks;
    final StringBuilder text = new StringBuilder();
    final List<ToolCall> calls = new ArrayList<>();

    /** Calls the model; what the adapter throws comes out of here. */
    ModelTurn(Agent agent, RunListener.RunContext context, int step, ModelRequest request) {
        this.listeners = agent.listeners();
        this.context = context;
        this.step = step;
        if (!listeners.isEmpty()) listeners.modelCallStarted(new RunListener.ModelCallStart(context, step));
        stream = agent.model().stream(request);
        chunks = stream.iterator();
    }

    /** The next chunk, or null when the answer is complete. */
    @Nullable ModelChunk next() {
        Iterator<ModelChunk> it = chunks;
        return it != null && it.hasNext() ? it.next() : null;
    }

    /** Ends the call: read to its end ({@code ok}), failed, or cut short. Idempotent. */
    void close(boolean ok, @Nullable Throwable failure) {
        Stream<ModelChunk> s = stream;
        stream = null;
        chunks = null;
        if (s == null) return;
        try {
            s.close();
        } catch (RuntimeException e) {
            LOG.debug("closing the model stream failed", e);
        }
        if (listeners.isEmpty()) return;
        listeners.modelCallFinished(new RunListener.ModelCall(context, step, ok, Duration.ofNanos(System.nanoTime() - startNanos),
                failure));
    }
}
