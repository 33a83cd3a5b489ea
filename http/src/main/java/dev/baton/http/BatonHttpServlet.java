package dev.baton.http;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BatonHttpApi} as one Jakarta Servlet (6.0): the API and the inbox page in any servlet
 * container. {@link BatonHttpServer} serves it on Jetty; the Spring Boot starter registers it in
 * Tomcat. Map it at {@code /*} or under a prefix ({@code /baton/*}); the path below the mapping goes
 * to the API as it came, still percent-encoded, so an id holding {@code %2F} stays one segment.
 *
 * <p>Every check of the API (Host, cross-origin, Content-Type, credentials, the agent) runs before
 * the body is read. The body is then read asynchronously (a {@link ReadListener}): no thread waits
 * for a client that sends it slowly. A declared length over the limit is a 413 at once; a body not
 * read within the request time ({@link #BatonHttpServlet(BatonHttpApi, Duration)}, default 30 s)
 * is a 408, and the connection is closed. The answer is then written on a container thread (an
 * {@code ASYNC} dispatch, so the container's filters, e.g. a security context, apply again); an event
 * stream holds that thread until the run suspends or ends, or the client goes away.
 *
 * <p>Thread-safety: thread-safe, as the container requires. Closing: {@link #destroy()} (the
 * container calls it at shutdown) interrupts the event streams still open, so their runs stop where
 * they are and are kept (suspended, or interrupted: {@code continueRun} goes on later). It never
 * closes the agents the API serves.
 */
public final class BatonHttpServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(BatonHttpServlet.class);
    private static final String PENDING = BatonHttpServlet.class.getName() + ".pending";
    private static final byte[] NO_BODY = new byte[0];

    private final transient BatonHttpApi api;
    /** How long a request body may take to arrive, in milliseconds. */
    private final long requestTimeoutMillis;
    private final transient Set<Thread> streaming = ConcurrentHashMap.newKeySet();

    /**
     * A servlet over {@code api}, with a request time of 30 s for bodies.
     *
     * @param api the API (the servlet does not close its agents)
     */
    public BatonHttpServlet(BatonHttpApi api) {
        this(api, Duration.ofSeconds(30));
    }

    /**
     * A servlet over {@code api}.
     *
     * @param api            the API (the servlet does not close its agents)
     * @param requestTimeout how long a client may take to send a request's body once its headers are in
     */
    public BatonHttpServlet(BatonHttpApi api, Duration requestTimeout) {
        this.api = Objects.requireNonNull(api, "api");
        this.requestTimeoutMillis = Math.max(1, requestTimeout.toMillis());
    }

    /** {@return the API this servlet serves} */
    public BatonHttpApi api() {
        return api;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        if (req.getDispatcherType() == DispatcherType.ASYNC && req.getAttribute(PENDING) instanceof Pending p) {
            req.removeAttribute(PENDING);
            write(req, resp, api.answer(p.admitted(), p.body()));   // the body is in: answer on this thread
            return;
        }
        String mount = req.getContextPath() + prefix(req.getHttpServletMapping().getPattern());
        String uri = req.getRequestURI();
        String below = uri.startsWith(mount) ? uri.substring(mount.length()) : null;
        if (below != null && below.isEmpty()) {
            // the page's links are relative: it must be loaded from the mount point with its slash
            String query = req.getQueryString();
            resp.setStatus(308);
            resp.setHeader("Location", mount + "/" + (query == null ? "" : "?" + query));
            return;
        }
        ParsedRequest admitted;
        try {
            if (below == null || !below.startsWith("/")) throw Problem.notFound(req.getMethod(), uri).raise();
            admitted = api.admit(req, below);
            if (admitted.takesBody() && req.getContentLengthLong() > api.maxBodyBytes()) throw api.tooLarge();
        } catch (RuntimeException e) {
            write(req, resp, ApiResponse.problem(Problem.from(e)));
            return;
        }
        if (!admitted.takesBody() || req.getContentLengthLong() == 0) {
            write(req, resp, api.answer(admitted, NO_BODY));
        } else {
            readBody(req, resp, admitted);
        }
    }

    /** Reads the body without holding a thread, then dispatches to {@link #service} to answer. */
    private void readBody(HttpServletRequest req, HttpServletResponse resp, ParsedRequest admitted) throws IOException {
        AsyncContext async = req.startAsync();
        async.setTimeout(requestTimeoutMillis);
        AtomicBoolean done = new AtomicBoolean();
        ServletInputStream in = req.getInputStream();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        async.addListener(new AsyncListener() {
            @Override
            public void onTimeout(AsyncEvent event) throws IOException {
                if (!done.compareAndSet(false, true)) return;
                LOG.debug("body of {} {} not read within the time limit", req.getMethod(), req.getRequestURI());
                fail(async, Problem.of(408, "request-timeout", "Request timeout",
                        "The request body did not arrive within the time limit; the connection is closed."));
            }

            @Override
            public void onError(AsyncEvent event) {
                done.set(true);
            }

            @Override
            public void onComplete(AsyncEvent event) {
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
            }
        });
        in.setReadListener(new ReadListener() {
            private final byte[] buffer = new byte[8192];

            @Override
            public void onDataAvailable() throws IOException {
                while (!done.get() && in.isReady()) {
                    int n = in.read(buffer);
                    if (n < 0) return;
                    body.write(buffer, 0, n);
                    if (body.size() > api.maxBodyBytes() && done.compareAndSet(false, true)) {
                        fail(async, api.tooLarge().problem());
                        return;
                    }
                }
            }

            @Override
            public void onAllDataRead() {
                if (!done.compareAndSet(false, true)) return;
                req.setAttribute(PENDING, new Pending(admitted, body.toByteArray()));
                async.dispatch();
            }

            @Override
            public void onError(Throwable t) {
                LOG.debug("reading the body of {} {} failed: {}", req.getMethod(), req.getRequestURI(), t.toString());
                if (done.compareAndSet(false, true)) async.complete();
            }
        });
    }

    /** Answers a body that failed (too large, too slow) and closes the connection: the rest is never read. */
    private void fail(AsyncContext async, Problem problem) {
        try {
            write((HttpServletRequest) async.getRequest(), (HttpServletResponse) async.getResponse(),
                    ApiResponse.problem(problem.withHeader("Connection", "close")));
        } finally {
            async.complete();
        }
    }

    private void write(HttpServletRequest req, HttpServletResponse resp, ApiResponse answer) {
        boolean stream = answer.isStream();
        if (stream) streaming.add(Thread.currentThread());
        try {
            answer.send(resp);
        } catch (IOException e) {
            LOG.debug("{} {} ended early: {}", req.getMethod(), req.getRequestURI(), e.toString());
        } finally {
            if (stream) {
                streaming.remove(Thread.currentThread());
                Thread.interrupted();   // an interrupt of destroy() must not reach the container's next task
            }
        }
    }

    /** Interrupts the event streams still open: each run stops where it is and is kept. */
    @Override
    public void destroy() {
        streaming.forEach(Thread::interrupt);
    }

    /**
     * Writes a Baton problem ({@code application/problem+json}, with the API's security headers) for
     * an error a container found before the servlet ran (a bad escape, an over-long URI or header, an
     * unsupported method): for a container's error page or valve.
     *
     * @param status   the HTTP status the container chose
     * @param response where to write it (not committed yet)
     * @throws IOException the client went away
     */
    public static void writeContainerError(int status, HttpServletResponse response) throws IOException {
        ApiResponse.problem(Problem.container(status)).send(response);
    }

    /**
     * The whole HTTP/1.1 response (status line, the API's security headers, the problem document,
     * {@code Connection: close}) to an error a container found, for a connection on which it cannot
     * answer the usual way (an HTTP/0.9 request, request headers that never completed): write the bytes
     * as they are, then close the connection.
     *
     * @param status the HTTP status
     * @return the bytes of the response
     */
    public static byte[] containerErrorBytes(int status) {
        return ApiResponse.problem(Problem.container(status)).http11Bytes();
    }

    /** {@code /baton} of the mapping {@code /baton/*}; the empty string for {@code /*}, {@code /} and the like. */
    private static String prefix(@Nullable String pattern) {
        if (pattern == null || !pattern.endsWith("/*")) return "";
        return pattern.substring(0, pattern.length() - 2);
    }

    /** An admitted request whose body has been read, waiting for its answer on the async dispatch. */
    private record Pending(ParsedRequest admitted, byte[] body) {
    }
}
