package dev.baton.http;

import com.sun.net.httpserver.HttpExchange;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What {@link BatonHttpServer} wraps each JDK exchange in: its read-time guard, and the exchange as an {@link ApiRequest}. */
final class HttpExchanges {
    private static final Logger LOG = LoggerFactory.getLogger(BatonHttpServer.class);

    private HttpExchanges() {
    }

    /**
     * The request-time limit: armed when the handler starts, disarmed when the body is read (or
     * closed). If it fires first, the connection is closed under the reading thread: the JDK server
     * closes the socket itself when an exchange is closed before its response started.
     */
    static final class ReadGuard {
        private enum State { READING, READ, EXPIRED, RESPONDING }

        private final HttpExchange exchange;
        private final AtomicReference<State> state = new AtomicReference<>(State.READING);

        ReadGuard(HttpExchange exchange) {
            this.exchange = exchange;
        }

        void bodyRead() {
            state.compareAndSet(State.READING, State.READ);
        }

        void expire() {
            if (state.compareAndSet(State.READING, State.EXPIRED)) {
                LOG.debug("request {} {} not read within the time limit: connection closed",
                        exchange.getRequestMethod(), exchange.getRequestURI());
                exchange.close();
            }
        }

        /** False if the time limit closed the connection. */
        boolean startResponse() {
            return state.getAndUpdate(s -> s == State.EXPIRED ? State.EXPIRED : State.RESPONDING) != State.EXPIRED;
        }
    }

    /**
     * The header-time limit of one request: the JDK server reads a request's line and headers on a
     * handler thread, in a blocking channel read, before any handler is called. The task that does so
     * is wrapped in one of these; if the handler has not started when the time is up, the thread is
     * interrupted, which closes the connection under the read (an interruptible channel) instead of
     * leaving the thread to a client that dribbles its headers. Per server, unlike the JDK's
     * JVM-wide {@code sun.net.httpserver.maxReqTime}.
     */
    static final class HeaderWatch {
        private static final ThreadLocal<HeaderWatch> CURRENT = new ThreadLocal<>();
        private enum State { READING, HANDLING, EXPIRED, DONE }

        private final Thread thread;
        private final long deadlineNanos;
        private State state = State.READING;

        private HeaderWatch(Thread thread, long timeoutNanos) {
            this.thread = thread;
            this.deadlineNanos = System.nanoTime() + timeoutNanos;
        }

        /** The watch of the task this thread runs, or null (a handler called outside the server's executor). */
        static @Nullable HeaderWatch current() {
            return CURRENT.get();
        }

        /** Runs one task of the JDK server on this thread, its headers due within {@code timeoutNanos}. */
        static void run(Runnable task, ScheduledExecutorService timer, long timeoutNanos) {
            HeaderWatch watch = new HeaderWatch(Thread.currentThread(), timeoutNanos);
            CURRENT.set(watch);
            Future<?> expiry;
            try {
                expiry = timer.schedule(watch::expire, timeoutNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closing) {
                expiry = null;
            }
            try {
                task.run();
            } finally {
                if (expiry != null) expiry.cancel(false);
                CURRENT.remove();
                synchronized (watch) {
                    watch.state = State.DONE;
                }
                Thread.interrupted();   // an expiry's interrupt must not reach the pool's next task
            }
        }

        /** Nanoseconds left of the request time (for the body), at least 1. */
        long remainingNanos() {
            return Math.max(1, deadlineNanos - System.nanoTime());
        }

        /** Called by the handler: false if the time was up first (the connection is being closed). */
        synchronized boolean headersIn() {
            if (state == State.READING) state = State.HANDLING;
            return state == State.HANDLING;
        }

        /** The deadline passed: interrupts the read of a request whose handler has not started. */
        private synchronized void expire() {
            if (state != State.READING) return;
            state = State.EXPIRED;
            LOG.debug("request headers not read within the time limit: connection closed");
            thread.interrupt();   // inside the lock: the task cannot have ended (and the thread moved on) meanwhile
        }
    }

    /** The exchange as an {@link ApiRequest}; the body tells the guard when it is read. */
    static final class ExchangeRequest implements ApiRequest {
        private final HttpExchange exchange;
        private final String rawPath;
        private final InputStream body;

        ExchangeRequest(HttpExchange exchange, String rawPath, ReadGuard guard) {
            this.exchange = exchange;
            this.rawPath = rawPath;
            this.body = new FilterInputStream(exchange.getRequestBody()) {
                private boolean closed;

                @Override
                public int read() throws IOException {
                    int b = super.read();
                    if (b < 0) guard.bodyRead();
                    return b;
                }

                @Override
                public int read(byte[] buf, int off, int len) throws IOException {
                    int n = super.read(buf, off, len);
                    if (n < 0) guard.bodyRead();
                    return n;
                }

                @Override
                public void close() throws IOException {
                    if (closed) return;
                    closed = true;
                    try {
                        super.close();   // the JDK drains what is left (at most 64 KiB), still under the guard
                    } finally {
                        guard.bodyRead();
                    }
                }
            };
        }

        @Override public String method() { return exchange.getRequestMethod(); }

        @Override public String rawPath() { return rawPath; }

        @Override public @Nullable String rawQuery() { return exchange.getRequestURI().getRawQuery(); }

        @Override public @Nullable String header(String name) { return exchange.getRequestHeaders().getFirst(name); }

        @Override public InputStream body() { return body; }
    }
}
