package dev.baton.http;

import com.sun.net.httpserver.HttpExchange;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
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
