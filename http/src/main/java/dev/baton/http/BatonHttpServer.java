package dev.baton.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.baton.InvalidOptionException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a {@link BatonHttpApi} on the JDK's own {@code com.sun.net.httpserver.HttpServer}: no web
 * framework, no dependency beyond the JDK.
 *
 * <pre>{@code
 * try (BatonHttpServer server = BatonHttpServer.builder(api).port(8080).start()) {
 *     System.out.println("inbox at " + server.uri());
 *     Thread.currentThread().join();
 * }
 * }</pre>
 *
 * <p>Limits:
 * <ul>
 *   <li><b>Body size</b>: the API's {@link BatonHttpApi#maxBodyBytes()}; a larger declared
 *       {@code Content-Length} gets 413 without the body being read, a larger chunked body gets 413
 *       once the limit is passed, and the connection is closed.</li>
 *   <li><b>Request time</b> ({@link Builder#requestTimeout}, default 30 s): from the moment a
 *       handler thread starts reading the request (its first bytes have arrived) until its headers
 *       and its body are read. A client that dribbles its headers or its body, or stops sending,
 *       has its connection closed, and the thread is free again. Per server: no JVM-wide setting
 *       is needed. A streamed response is not limited: it lasts until the run suspends or ends,
 *       and ends early when the client goes away.</li>
 *   <li><b>Concurrency</b> ({@link Builder#threads}, default 32): requests are handled by that
 *       many threads; an event stream holds one for its duration. Further requests wait in a queue.</li>
 * </ul>
 * Binds to 127.0.0.1 unless told otherwise. Put TLS in front of it (a reverse proxy) for anything
 * beyond loopback: bearer tokens must not cross a network in clear text.
 *
 * <p>Thread-safety: thread-safe; its accessors may be called from any thread, {@link #close()}
 * once from any thread. Its {@link Builder} is not thread-safe.
 *
 * <p>Who closes what: the caller closes the server (try-with-resources). The server owns its
 * listening socket, its handler threads ({@code baton-http-*}, not daemon threads: an open server
 * keeps the JVM alive) and its timer thread; {@link #close()} ends them and the event streams open
 * on them. It does not own the {@link BatonHttpApi} nor the agents it serves, and never closes them
 * or their stores: close the server first, then the agents (and the stores you opened).
 */
public final class BatonHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BatonHttpServer.class);

    private final HttpServer server;
    private final ExecutorService executor;
    private final ScheduledExecutorService timer;
    private final BatonHttpApi api;
    private final String basePath;
    private final long requestTimeoutMillis;
    private final AtomicBoolean closed = new AtomicBoolean();

    private BatonHttpServer(Builder b) throws IOException {
        this.api = b.api;
        this.basePath = b.basePath;
        this.requestTimeoutMillis = b.requestTimeout.toMillis();
        this.executor = new ThreadPoolExecutor(b.threads, b.threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                threads("baton-http-"));
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, threads("baton-http-timer-"));
        t.setRemoveOnCancelPolicy(true);
        this.timer = t;
        this.server = HttpServer.create(new InetSocketAddress(b.host, b.port), b.backlog);
        server.createContext(basePath.equals("/") ? "/" : basePath.substring(0, basePath.length() - 1), this::handle);
        long timeoutNanos = b.requestTimeout.toNanos();
        server.setExecutor(task -> executor.execute(() -> HttpExchanges.HeaderWatch.run(task, timer, timeoutNanos)));
        server.start();
        LOG.info("Baton HTTP API and inbox at {}", uri());
    }

    /**
     * Starts configuring a server.
     *
     * @param api the API to serve (the server does not close its agents)
     * @return a builder: {@code port(..)}, then {@link Builder#start()}
     */
    public static Builder builder(BatonHttpApi api) {
        return new Builder(api);
    }

    /** {@return the port the server listens on (useful after {@code port(0)})} */
    public int port() {
        return server.getAddress().getPort();
    }

    /** {@return where the inbox page is, e.g. {@code http://127.0.0.1:8080/}} */
    public URI uri() {
        String host = server.getAddress().getAddress().getHostAddress();
        if (host.contains(":")) host = "[" + host + "]";
        return URI.create("http://" + host + ":" + port() + basePath);
    }

    /** {@return the API this server serves} */
    public BatonHttpApi api() {
        return api;
    }

    /**
     * Stops listening at once, then ends the handler threads: each open event stream is interrupted
     * and its run's stream closed, so the run stops where it is and is kept (suspended if only calls
     * waiting for a person are left, else interrupted: {@code continueRun} goes on later), as when a
     * client goes away. Waits up to 10 seconds for the handlers to finish (a tool that ignores
     * interruption may outlast that; it is logged). Does not close the agents served nor their
     * stores. Calling it again does nothing more. The same as {@code close(Duration.ZERO)}.
     */
    @Override
    public void close() {
        close(Duration.ZERO);
    }

    /**
     * Drains, then closes: stops listening at once (new connections are refused), lets the requests
     * under way finish for up to {@code drain} (whole seconds, rounded up), then ends what is left as
     * {@link #close()} does. For a graceful shutdown, drain the server first, then close the agents
     * ({@code Agent.close()} hands back the runs they still hold).
     *
     * @param drain how long requests under way may take to finish; zero or positive
     * @throws InvalidOptionException if {@code drain} is negative
     */
    public void close(Duration drain) {
        Objects.requireNonNull(drain, "drain");
        if (drain.isNegative()) throw new InvalidOptionException("drain", "must not be negative, was " + drain);
        if (!closed.compareAndSet(false, true)) return;
        long seconds = drain.isZero() ? 0 : Math.max(1, (drain.toMillis() + 999) / 1000);
        server.stop((int) Math.min(Integer.MAX_VALUE, seconds));   // stops listening at once, waits for exchanges under way
        executor.shutdownNow();
        timer.shutdownNow();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) LOG.warn("HTTP handler threads still running after 10 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ---- one exchange --------------------------------------------------------------------------

    private void handle(HttpExchange exchange) {
        HttpExchanges.HeaderWatch watch = HttpExchanges.HeaderWatch.current();
        if (watch != null && !watch.headersIn()) {   // too slow: its read is being interrupted, the connection closed
            exchange.close();
            return;
        }
        long bodyNanos = watch == null ? TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis) : watch.remainingNanos();
        HttpExchanges.ReadGuard guard = new HttpExchanges.ReadGuard(exchange);
        Headers requestHeaders = exchange.getRequestHeaders();
        String length = requestHeaders.getFirst("Content-Length");
        if (requestHeaders.getFirst("Transfer-Encoding") == null && (length == null || length.trim().equals("0"))) {
            guard.bodyRead();   // no body to wait for
        }
        ScheduledFuture<?> expiry = timer.schedule(guard::expire, bodyNanos, TimeUnit.NANOSECONDS);
        try {
            String path = exchange.getRequestURI().getRawPath();
            String mount = basePath.substring(0, basePath.length() - 1);
            if (path != null && !mount.isEmpty() && path.equals(mount)) {
                // the page's links are relative: it must be loaded from the mount point with its slash
                guard.startResponse();
                exchange.getResponseHeaders().set("Location", basePath);
                exchange.sendResponseHeaders(308, -1);
                return;
            }
            // the JDK's context also matches /batonX for /baton: the API answers 404 for a path without "/"
            String relative = path == null ? "" : path.startsWith(basePath) ? path.substring(mount.length()) : "";
            HttpExchanges.ExchangeRequest request = new HttpExchanges.ExchangeRequest(exchange, relative, guard);
            try (ApiResponse response = api.handle(request)) {
                if (!guard.startResponse()) return;   // too slow: the connection is closed already
                send(exchange, response);
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("exchange {} {} ended early: {}", exchange.getRequestMethod(), exchange.getRequestURI(), e.toString());
        } catch (RuntimeException e) {
            LOG.error("exchange {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
        } finally {
            expiry.cancel(false);
            exchange.close();
        }
    }

    private static void send(HttpExchange exchange, ApiResponse response) throws IOException {
        Headers headers = exchange.getResponseHeaders();
        response.headers().forEach(headers::set);
        if (response.isStream()) {
            exchange.sendResponseHeaders(response.status(), 0);   // chunked: each flush sends the event
            try (OutputStream out = exchange.getResponseBody()) {
                response.writeTo(out);
            }
            return;
        }
        long length = response.contentLength();
        exchange.sendResponseHeaders(response.status(), length == 0 ? -1 : length);
        if (length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                response.writeTo(out);
            }
        }
    }

    private static ThreadFactory threads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(false);
            return t;
        };
    }

    /** Builder of {@link BatonHttpServer}. */
    public static final class Builder {
        private final BatonHttpApi api;
        private String host = "127.0.0.1";
        private int port = 8080;
        private String basePath = "/";
        private int threads = 32;
        private int backlog = 0;
        private Duration requestTimeout = Duration.ofSeconds(30);

        private Builder(BatonHttpApi api) {
            this.api = Objects.requireNonNull(api, "api");
        }

        /**
         * The address to bind (default 127.0.0.1: loopback only); {@code 0.0.0.0} for every interface.
         *
         * @param host a host name or address
         * @return this builder
         */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /**
         * The port (default 8080); 0 picks a free one, see {@link BatonHttpServer#port()}.
         *
         * @param port 0..65535
         * @return this builder
         * @throws InvalidOptionException ({@code port}) out of range
         */
        public Builder port(int port) {
            if (port < 0 || port > 65535) throw new InvalidOptionException("port", "must be 0..65535, was " + port);
            this.port = port;
            return this;
        }

        /**
         * Where to mount the API and the page (default {@code /}), e.g. {@code /baton/}.
         *
         * @param basePath a plain path; a missing leading or trailing slash is added
         * @return this builder
         * @throws InvalidOptionException ({@code basePath}) a path with {@code //}, dot segments or escapes
         */
        public Builder basePath(String basePath) {
            Objects.requireNonNull(basePath, "basePath");
            String p = basePath.startsWith("/") ? basePath : "/" + basePath;
            if (!p.endsWith("/")) p = p + "/";
            if (p.contains("//") || p.contains("/../") || p.contains("/./") || p.contains("%")) {
                throw new InvalidOptionException("basePath", "must be a plain path like /baton/, was '" + basePath + "'");
            }
            this.basePath = p;
            return this;
        }

        /**
         * How many requests are handled at once (default 32); each open event stream holds one.
         *
         * @param threads a positive number of handler threads
         * @return this builder
         * @throws InvalidOptionException ({@code threads}) not positive
         */
        public Builder threads(int threads) {
            if (threads < 1) throw new InvalidOptionException("threads", "must be positive, was " + threads);
            this.threads = threads;
            return this;
        }

        /**
         * The listen backlog (default 0: the system's).
         *
         * @param backlog connections queued before they are refused; 0 for the system's default
         * @return this builder
         * @throws InvalidOptionException ({@code backlog}) negative
         */
        public Builder backlog(int backlog) {
            if (backlog < 0) throw new InvalidOptionException("backlog", "must not be negative, was " + backlog);
            this.backlog = backlog;
            return this;
        }

        /**
         * How long a client may take to send its request, headers and body, once it has started
         * (default 30 s); then its connection is closed.
         *
         * @param timeout a positive duration
         * @return this builder
         * @throws InvalidOptionException ({@code requestTimeout}) zero or negative
         */
        public Builder requestTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) throw new InvalidOptionException("requestTimeout", "must be positive");
            this.requestTimeout = timeout;
            return this;
        }

        /**
         * Binds and starts serving.
         *
         * @return the running server; close it
         * @throws java.io.UncheckedIOException the address cannot be bound (the port is taken, for example)
         */
        public BatonHttpServer start() {
            try {
                return new BatonHttpServer(this);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
            }
        }
    }
}
