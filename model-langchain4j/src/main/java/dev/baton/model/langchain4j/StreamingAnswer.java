package dev.baton.model.langchain4j;

import dev.baton.model.ModelChunk;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialThinkingContext;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.PartialToolCallContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One streamed answer, from LangChain4j's callbacks to Baton's pull-driven stream.
 *
 * <p>The provider's reader thread calls the handler; each text delta goes into a bounded queue the
 * run loop takes from, one chunk per pull, so text reaches the run as it arrives and a slow run
 * holds the reader back instead of buffering without end. The call is made on the first pull.
 *
 * <p>Closing before the end cancels the call through the {@link StreamingHandle} LangChain4j gives
 * with each partial response (it closes the HTTP response); if nothing has arrived yet, the first
 * callback that brings a handle cancels it. Whatever arrives after closing is dropped.
 *
 * <p>Only one producer (the provider's reader) and one consumer (the run loop): after
 * {@link #close()} clears the queue, the producer's one pending {@code put} always finds room.
 */
final class StreamingAnswer extends Spliterators.AbstractSpliterator<ModelChunk> implements StreamingChatResponseHandler {
    private static final Logger LOG = LoggerFactory.getLogger(StreamingAnswer.class);

    /** What the handler hands to the run loop. */
    private sealed interface Signal {
        record Text(String text) implements Signal { }
        record Complete(ChatResponse response) implements Signal { }
        record Failed(Throwable error) implements Signal { }
    }

    private final StreamingChatModel model;
    private final ChatRequest request;
    private final String providerName;
    private final BlockingQueue<Signal> queue;
    private final Deque<ModelChunk> ending = new ArrayDeque<>();

    private volatile boolean closed;
    /** Set by the producer once it has handed over the answer's end (complete or failed); later callbacks are ignored. */
    private volatile boolean ended;
    private volatile @Nullable StreamingHandle handle;

    // consumer side only
    private boolean started;
    private boolean finished;
    private boolean streamedText;

    StreamingAnswer(StreamingChatModel model, ChatRequest request, String providerName, int capacity) {
        super(Long.MAX_VALUE, Spliterator.ORDERED | Spliterator.NONNULL);
        this.model = model;
        this.request = request;
        this.providerName = providerName;
        this.queue = new ArrayBlockingQueue<>(capacity);
    }

    // ---- consumer: the run loop ----------------------------------------------------------------

    @Override
    public boolean tryAdvance(Consumer<? super ModelChunk> action) {
        if (closed) return false;
        if (!ending.isEmpty()) {
            action.accept(ending.poll());
            return true;
        }
        if (finished) return false;
        if (!started) {
            started = true;
            try {
                model.chat(request, this);
            } catch (RuntimeException e) {
                finished = true;
                throw ModelCallException.of(providerName, e);
            }
        }
        while (true) {
            Signal signal;
            try {
                signal = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                throw new ModelCallException(providerName, ModelCallException.Kind.OTHER, null, null,
                        "Interrupted while waiting for " + providerName + "; the call was cancelled", e);
            }
            if (signal instanceof Signal.Text t) {
                if (t.text().isEmpty()) continue;
                streamedText = true;
                action.accept(new ModelChunk.TextDelta(t.text()));
                return true;
            }
            finished = true;
            if (signal instanceof Signal.Failed f) {
                throw ModelCallException.of(providerName, f.error());
            }
            ChatResponse response = ((Signal.Complete) signal).response();
            try {
                Translation.toChunks(response, !streamedText).forEach(ending::add);
            } catch (RuntimeException e) {
                throw ModelCallException.of(providerName, e);
            }
            if (ending.isEmpty()) return false;
            action.accept(ending.poll());
            return true;
        }
    }

    /** Stops reading: cancels the provider call if it still runs, and drops what is buffered. */
    void close() {
        if (closed) return;
        closed = true;
        queue.clear(); // frees the producer if it waits for room
        if (!ended) cancel(handle);
    }

    // ---- producer: LangChain4j's callbacks, on the provider's reader thread --------------------

    @Override
    public void onPartialResponse(PartialResponse partialResponse, PartialResponseContext context) {
        if (keepGoing(context.streamingHandle())) hand(new Signal.Text(partialResponse.text()));
    }

    @Override
    public void onPartialResponse(String partialResponse) {
        if (keepGoing(null)) hand(new Signal.Text(partialResponse));
    }

    @Override
    public void onPartialThinking(PartialThinking partialThinking, PartialThinkingContext context) {
        keepGoing(context.streamingHandle()); // Baton has no thinking chunk; the handle still allows cancelling
    }

    @Override
    public void onPartialToolCall(PartialToolCall partialToolCall, PartialToolCallContext context) {
        keepGoing(context.streamingHandle()); // fragments: the complete calls come with the complete response
    }

    @Override
    public void onCompleteResponse(ChatResponse completeResponse) {
        if (ended) return;
        ended = true;
        if (!closed) hand(new Signal.Complete(completeResponse));
    }

    @Override
    public void onError(Throwable error) {
        if (ended) return; // e.g. the reader failing after we cancelled, or a second error
        ended = true;
        if (closed) {
            LOG.debug("{} failed after its stream was closed: {}", providerName, error.toString());
            return;
        }
        hand(new Signal.Failed(error));
    }

    /** Remembers the handle; false (and cancels) once the stream is closed or ended. */
    private boolean keepGoing(@Nullable StreamingHandle h) {
        if (h != null && handle == null) handle = h;
        if (closed || ended) {
            if (closed) cancel(h);
            return false;
        }
        return true;
    }

    private void hand(Signal signal) {
        if (closed) return;
        try {
            queue.put(signal);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel(handle);
        }
    }

    private void cancel(@Nullable StreamingHandle h) {
        if (h == null || h.isCancelled()) return;
        try {
            h.cancel();
        } catch (RuntimeException e) {
            // e.g. a provider whose streaming cannot be cancelled: its answer is still dropped
            LOG.debug("{} cannot cancel its stream: {}", providerName, e.toString());
        }
    }
}
