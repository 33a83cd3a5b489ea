package dev.baton.http;

import dev.baton.InvalidOptionException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.CustomRequestLog;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.HostPort;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a {@link BatonHttpApi} ({@link BatonHttpServlet}) on Eclipse Jetty 12: HTTP/1.1, HTTP/2
 * (over TLS by ALPN, and {@code h2c} in clear text), TLS from a PKCS#12 key store.
 *
 * <pre>{@code
 * try (BatonHttpServer server = BatonHttpServer.builder(api).port(8080).start()) {
 *     System.out.println("inbox at " + server.uri());
 *     Thread.currentThread().join();
 * }
 * }</pre>
 *
 * <p>Limits (see docs/security.md): Jetty reads headers and bodies without holding a thread, so a
 * client that dribbles them costs a connection, not a thread. On top of that:
 * <ul>
 *   <li><b>Request time</b> ({@link Builder#requestTimeout}, default 30 s): request headers or a
 *       body not in within it are answered 408, and the connection is closed.</li>
 *   <li><b>Idle time</b> ({@link Builder#idleTimeout}, default 30 s): a connection that sends and
 *       receives nothing is closed (an event stream sends a comment when it opens, then its events).</li>
 *   <li><b>Connections</b> ({@link Builder#maxConnections}, default 1024): beyond them, new
 *       connections wait in the listen queue until one closes.</li>
 *   <li><b>Threads</b> ({@link Builder#threads}, default 200): requests are answered on that many;
 *       an open event stream holds one. Headers are at most 8 KiB (431), URIs too (414); the body
 *       limit is the API's {@link BatonHttpApi#maxBodyBytes()} (413).</li>
 * </ul>
 * Every error, those Jetty answers itself included (a bad percent-escape, an over-long URI or
 * header), is a problem document with the API's security headers. Requests are logged in the NCSA
 * format to the logger {@code org.eclipse.jetty.server.RequestLog}. Binds to 127.0.0.1 unless told
 * otherwise; beyond loopback, use TLS ({@link Builder#tls}) or a proxy that terminates it.
 *
 * <p>Thread-safety: thread-safe; {@link #close()} may be called from any thread. Its {@link Builder}
 * is not thread-safe.
 *
 * <p>Who closes what: the caller closes the server (try-with-resources). The server owns Jetty and
 * its threads ({@code baton-http-*}, not daemon threads: an open server keeps the JVM alive). It
 * does not own the {@link BatonHttpApi} nor the agents it serves: close the server first, then the
 * agents (and the stores you opened).
 */
public final class BatonHttpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BatonHttpServer.class);

    private final Server server;
    private final ServerConnector connector;
    private final BatonHttpServlet servlet;
    private final String basePath;
    private final boolean tls;
    private final int port;
    private final AtomicBoolean closed = new AtomicBoolean();

    private BatonHttpServer(Builder b) {
        this.basePath = b.basePath;
        this.tls = b.keyStore != null;
        QueuedThreadPool pool = new QueuedThreadPool(b.threads + 4, 4);   // + the acceptor and selectors
        pool.setName("baton-http");
        pool.setReservedThreads(0);
        this.server = new Server(pool);
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false);
        // ids may hold %2F, "..", "%2e": the API splits the raw path and decodes each segment itself, and serves no
        // file by its path (a segment that is not UTF-8 is its 400 naming the path; core refuses ids with control characters).
        // Jetty's parser refuses a bad escape and %00 itself; that 400, like its 414 and 431, is a problem document too.
        config.setUriCompliance(UriCompliance.DEFAULT.with("baton", UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR,
                UriCompliance.Violation.AMBIGUOUS_PATH_SEGMENT, UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING,
                UriCompliance.Violation.AMBIGUOUS_EMPTY_SEGMENT, UriCompliance.Violation.SUSPICIOUS_PATH_CHARACTERS,
                UriCompliance.Violation.ILLEGAL_PATH_CHARACTERS, UriCompliance.Violation.BAD_UTF8_ENCODING,
                UriCompliance.Violation.TRUNCATED_UTF8_ENCODING));
        HttpConnectionFactory http1 = new HttpConnectionFactory(config);
        HeaderDeadline deadline = new HeaderDeadline(b.requestTimeout.toMillis());
        http1.addBean(deadline);   // HTTP/1 connections only: HTTP/2 streams come with their headers whole
        if (b.keyStore != null) {
            config.addCustomizer(new SecureRequestCustomizer());
            SslContextFactory.Server ssl = new SslContextFactory.Server();
            ssl.setKeyStorePath(b.keyStore.toString());   // PKCS#12, Jetty's default type
            ssl.setKeyStorePassword(b.keyStorePassword);
            HTTP2ServerConnectionFactory h2 = new HTTP2ServerConnectionFactory(config);
            ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
            alpn.setDefaultProtocol(http1.getProtocol());
            connector = new ServerConnector(server, 1, 1, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn, h2, http1);
        } else {
            connector = new ServerConnector(server, 1, 1, http1, new HTTP2CServerConnectionFactory(config));
        }
        connector.setHost(b.host);
        connector.setPort(b.port);
        connector.setIdleTimeout(b.idleTimeout.toMillis());
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(b.maxConnections, server));

        this.servlet = new BatonHttpServlet(b.api, b.requestTimeout);
        String mount = basePath.substring(0, basePath.length() - 1);
        ServletContextHandler context = new ServletContextHandler(mount.isEmpty() ? "/" : mount);
        context.setAllowNullPathInContext(true);   // the servlet sends /baton to /baton/ with a 308
        context.getServletHandler().setDecodeAmbiguousURIs(true);
        context.addServlet(new ServletHolder("baton", servlet), "/*");
        server.setErrorHandler(new ProblemErrors());
        deadline.setHandler(context);
        server.setHandler(new GracefulHandler(deadline));
        server.setRequestLog(new CustomRequestLog());   // NCSA (extended) to the SLF4J logger org.eclipse.jetty.server.RequestLog
        try {
            server.start();
        } catch (Exception e) {
            try {
                server.stop();
            } catch (Exception ignored) {
                // already failing
            }
            throw new IllegalStateException("the HTTP server did not start on " + b.host + ":" + b.port + ": " + e.getMessage(), e);
        }
        this.port = connector.getLocalPort();
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
        return port;
    }

    /** {@return where the inbox page is, e.g. {@code http://127.0.0.1:8080/}} */
    public URI uri() {
        String host = HostPort.normalizeHost(connector.getHost());   // an IPv6 address in brackets, once
        return URI.create((tls ? "https" : "http") + "://" + host + ":" + port() + basePath);
    }

    /** {@return the API this server serves} */
    public BatonHttpApi api() {
        return servlet.api();
    }

    /**
     * Stops listening at once and ends the open requests: each open event stream is interrupted and
     * its run's stream closed, so the run stops where it is and is kept (suspended if only calls
     * waiting for a person are left, else interrupted: {@code continueRun} goes on later), as when a
     * client goes away. Does not close the agents served nor their stores. Calling it again does
     * nothing more. The same as {@code close(Duration.ZERO)}.
     */
    @Override
    public void close() {
        close(Duration.ZERO);
    }

    /**
     * Drains, then closes: stops listening at once (new connections are refused), lets the requests
     * under way finish for up to {@code drain}, then ends what is left as {@link #close()} does. For a
     * graceful shutdown, drain the server first, then close the agents ({@code Agent.close()} hands
     * back the runs they still hold).
     *
     * @param drain how long requests under way may take to finish; zero or positive
     * @throws InvalidOptionException if {@code drain} is negative
     */
    public void close(Duration drain) {
        Objects.requireNonNull(drain, "drain");
        if (drain.isNegative()) throw new InvalidOptionException("drain", "must not be negative, was " + drain);
        if (!closed.compareAndSet(false, true)) return;
        server.setStopTimeout(drain.toMillis());   // Jetty's graceful stop: no new connection, requests under way finish
        if (drain.isZero()) servlet.destroy();     // end the event streams now, not when their next event is due
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("stopping the HTTP server failed", e);
        }
    }

    /** Every error Jetty answers itself (a bad URI, over-long headers), as a problem document. */
    private static final class ProblemErrors extends ErrorHandler {
        @Override
        public boolean errorPageForMethod(String method) {
            return true;
        }

        @Override
        protected void generateResponse(Request request, Response response, int code, @Nullable String message,
                                        @Nullable Throwable cause, Callback callback) {
            ApiResponse answer = ApiResponse.problem(Problem.container(code));
            answer.headers().forEach((name, value) -> response.getHeaders().put(name, value));
            // a request Jetty refused itself leaves its HTTP/1 connection unusable: say so, so that a client does not send
            // its next request on it while Jetty closes it (HTTP/2 has no Connection header; its stream alone ends)
            if (request.getConnectionMetaData().getHttpVersion().getVersion() < 20) {
                response.getHeaders().put("Connection", "close");
            }
            response.write(true, ByteBuffer.wrap(answer.body()), callback);
        }
    }

    /**
     * Closes an HTTP/1 connection whose request headers are not in within the request time: Jetty
     * holds no thread for them, but its idle timeout restarts on every byte, so a client that
     * dribbles them would hold its connection for as long as it keeps sending (Jetty 12 has no header
     * timeout of its own). A connection is checked four times per request time; it is cut when, two
     * checks apart at least a request time, the same request has begun (its line or first bytes read)
     * and not reached the servlet.
     */
    private static final class HeaderDeadline extends Handler.Wrapper implements Connection.Listener {
        /** The whole answer to headers that came too late: no response has begun on the connection. */
        private static final byte[] HEADERS_LATE = BatonHttpServlet.containerErrorBytes(408);
        private final long timeoutNanos;
        /** Per open connection: the requests it handed to the servlet. */
        private final Map<Connection, AtomicLong> handled = new ConcurrentHashMap<>();

        HeaderDeadline(long timeoutMillis) {
            this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            AtomicLong n = handled.get(request.getConnectionMetaData().getConnection());
            if (n != null) n.incrementAndGet();
            return super.handle(request, response, callback);
        }

        @Override
        public void onOpened(Connection connection) {
            handled.put(connection, new AtomicLong());
            check(connection, -1, 0);
        }

        @Override
        public void onClosed(Connection connection) {
            handled.remove(connection);
        }

        /** {@code waiting}: the request seen begun and not handed over at the last check (-1: none), since {@code since}. */
        private void check(Connection connection, long waiting, long since) {
            AtomicLong n = handled.get(connection);
            Server server = getServer();
            if (n == null || server == null || !server.isRunning()) return;
            long in = connection.getMessagesIn();
            // begun and not handed over: a request line parsed (in > handled), or the first bytes of the first one
            long now = System.nanoTime();
            long begun = in > n.get() || (in == 0 && connection.getBytesIn() > 0) ? in : -1;
            if (begun >= 0 && begun == waiting && now - since >= timeoutNanos) {
                LOG.debug("request headers not in within {} ms: connection {} closed", timeoutNanos / 1_000_000, connection);
                // a 408 problem, then the connection closed; not connection.close(), whose request fails as a 500
                EndPoint end = connection.getEndPoint();
                end.write(Callback.from(end::close), ByteBuffer.wrap(HEADERS_LATE));
                return;
            }
            long from = begun >= 0 && begun == waiting ? since : now;
            server.getScheduler().schedule(() -> check(connection, begun, from), Math.max(1, timeoutNanos / 4), TimeUnit.NANOSECONDS);
        }
    }

    /** Builder of {@link BatonHttpServer}. */
    public static final class Builder {
        private final BatonHttpApi api;
        private String host = "127.0.0.1";
        private int port = 8080;
        private String basePath = "/";
        private int threads = 200;
        private int maxConnections = 1024;
        private Duration requestTimeout = Duration.ofSeconds(30);
        private Duration idleTimeout = Duration.ofSeconds(30);
        private @Nullable Path keyStore;
        private @Nullable String keyStorePassword;

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
         * How many requests are answered at once (default 200); each open event stream holds one.
         *
         * @param threads a positive number of threads
         * @return this builder
         * @throws InvalidOptionException ({@code threads}) not positive
         */
        public Builder threads(int threads) {
            if (threads < 1) throw new InvalidOptionException("threads", "must be positive, was " + threads);
            this.threads = threads;
            return this;
        }

        /**
         * How many connections are open at once (default 1024); more wait in the listen queue.
         *
         * @param max a positive number of connections
         * @return this builder
         * @throws InvalidOptionException ({@code maxConnections}) not positive
         */
        public Builder maxConnections(int max) {
            if (max < 1) throw new InvalidOptionException("maxConnections", "must be positive, was " + max);
            this.maxConnections = max;
            return this;
        }

        /**
         * How long a client may take to send a request's headers, and then its body (default 30 s):
         * then its connection is closed (a late body is answered 408 first).
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
         * How long a connection may send and receive nothing before it is closed (default 30 s).
         *
         * @param timeout a positive duration
         * @return this builder
         * @throws InvalidOptionException ({@code idleTimeout}) zero or negative
         */
        public Builder idleTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) throw new InvalidOptionException("idleTimeout", "must be positive");
            this.idleTimeout = timeout;
            return this;
        }

        /**
         * Serves HTTPS (HTTP/2 by ALPN, else HTTP/1.1) with the key and certificate of a PKCS#12 key store.
         *
         * @param keyStore a PKCS#12 file ({@code .p12}) holding the server's key and certificate chain
         * @param password its password
         * @return this builder
         * @throws InvalidOptionException ({@code tlsKeyStore}) no such readable file
         */
        public Builder tls(Path keyStore, String password) {
            if (!Files.isReadable(keyStore)) throw new InvalidOptionException("tlsKeyStore", "no readable file " + keyStore);
            this.keyStore = keyStore;
            this.keyStorePassword = Objects.requireNonNull(password, "password");
            return this;
        }

        /**
         * Starts the server.
         *
         * @return the running server
         * @throws IllegalStateException the server did not start (the port is taken, the key store unreadable)
         */
        public BatonHttpServer start() {
            return new BatonHttpServer(this);
        }
    }
}
