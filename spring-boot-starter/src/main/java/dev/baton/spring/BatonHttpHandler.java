package dev.baton.spring;

import dev.baton.http.ApiRequest;
import dev.baton.http.ApiResponse;
import dev.baton.http.BatonHttpApi;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.HttpRequestHandler;

/**
 * Serves {@link BatonHttpApi} in Spring MVC under a base path (default {@code /baton}): the request's
 * raw path below the base path goes to the API as it came (still percent-encoded, so an id holding
 * {@code %2F} stays one segment), and the API's answer is written back, event streams unbuffered
 * and flushed after every event. The stream is written on the request's thread, as the JDK server
 * adapter does: no async timeout cuts a long run short, and the request's observation and security
 * context stay current while the run works.
 *
 * <p>Thread-safe (immutable; each request is handled on its own thread); nothing to close: each
 * {@link ApiResponse} is closed after it is written.
 */
public final class BatonHttpHandler implements HttpRequestHandler {
    private static final Logger LOG = LoggerFactory.getLogger(BatonHttpHandler.class);

    private final BatonHttpApi api;
    private final String mount;

    /**
     * A handler for one API.
     *
     * @param api      the API to serve
     * @param basePath where it is mounted, e.g. {@code /baton} (a trailing slash is ignored)
     */
    public BatonHttpHandler(BatonHttpApi api, String basePath) {
        this.api = Objects.requireNonNull(api, "api");
        this.mount = normalize(basePath);
    }

    /** {@return the base path without its trailing slash, e.g. {@code /baton} (empty for the root)} */
    public String mount() {
        return mount;
    }

    /** {@code /baton}, {@code baton/} and {@code /baton/} all give {@code /baton}; {@code /} gives the empty string. */
    static String normalize(String basePath) {
        Objects.requireNonNull(basePath, "basePath");
        String p = basePath.trim();
        if (!p.startsWith("/")) p = "/" + p;
        while (p.endsWith("/")) p = p.substring(0, p.length() - 1);
        if (p.contains("//") || p.contains("/../") || p.endsWith("/..") || p.contains("/./") || p.endsWith("/.")
                || p.contains("%") || p.contains("*") || p.contains("{")) {
            throw new IllegalArgumentException("baton.http.base-path must be a plain path like /baton, was '" + basePath + "'");
        }
        return p;
    }

    @Override
    public void handleRequest(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String uri = request.getRequestURI();
        String context = request.getContextPath();
        String path = uri.startsWith(context) ? uri.substring(context.length()) : uri;
        if (!path.startsWith(mount)) {
            response.sendError(404);
            return;
        }
        String below = path.substring(mount.length());
        if (below.isEmpty()) {
            // the page's links are relative: it must be loaded from the mount point with its slash
            String query = request.getQueryString();
            response.setStatus(308);
            response.setHeader("Location", context + mount + "/" + (query == null ? "" : "?" + query));
            return;
        }
        if (!below.startsWith("/")) {
            response.sendError(404);
            return;
        }
        try (ApiResponse answer = api.handle(new ServletApiRequest(request, below))) {
            response.setStatus(answer.status());
            answer.headers().forEach(response::setHeader);
            if (answer.isStream()) {
                OutputStream out = response.getOutputStream();
                response.flushBuffer();   // the status and headers go now; the events follow as the run makes them
                answer.writeTo(out);
            } else {
                byte[] body = answer.body();
                response.setContentLength(body.length);
                if (body.length > 0) answer.writeTo(response.getOutputStream());
            }
        } catch (IOException e) {
            LOG.debug("{} {} ended early: {}", request.getMethod(), uri, e.toString());
        }
    }

    /** The servlet request as the API sees it. */
    private static final class ServletApiRequest implements ApiRequest {
        private final HttpServletRequest request;
        private final String rawPath;

        ServletApiRequest(HttpServletRequest request, String rawPath) {
            this.request = request;
            this.rawPath = rawPath;
        }

        @Override
        public String method() {
            return request.getMethod().toUpperCase(Locale.ROOT);
        }

        @Override
        public String rawPath() {
            return rawPath;
        }

        @Override
        public @Nullable String rawQuery() {
            return request.getQueryString();
        }

        @Override
        public @Nullable String header(String name) {
            String value = request.getHeader(name);
            if (value == null && name.equalsIgnoreCase("Host")) {
                // a request without Host (HTTP/1.0): the name the container resolved for it
                int port = request.getServerPort();
                String host = request.getServerName();
                return host == null ? null : port > 0 ? host + ":" + port : host;
            }
            return value;
        }

        @Override
        public InputStream body() {
            try {
                return request.getInputStream();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
