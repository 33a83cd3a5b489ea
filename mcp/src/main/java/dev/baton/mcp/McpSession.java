package dev.baton.mcp;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One connected SDK client (and, for stdio, its process): what {@link McpConnection} replaces when it dies. */
final class McpSession {
    private static final Logger LOG = LoggerFactory.getLogger(McpSession.class);

    /** The server's process exited while a request waited for its answer. */
    static final class ProcessExited extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ProcessExited(String serverName) {
            super("the process of MCP server '" + serverName + "' exited");
        }
    }

    private final McpAsyncClient client;
    private final @Nullable StdioProcessTransport stdio;
    private volatile long lastUsed = System.nanoTime();
    private volatile boolean suspect;

    McpSession(McpAsyncClient client, @Nullable StdioProcessTransport stdio) {
        this.client = client;
        this.stdio = stdio;
    }

    McpAsyncClient client() {
        return client;
    }

    Optional<ProcessHandle> process() {
        return stdio == null ? Optional.empty() : stdio.process();
    }

    /** Why a stdio server's process could not be started, or null. */
    @Nullable Throwable startFailure() {
        return stdio == null ? null : stdio.startFailure();
    }

    /** False once a stdio server's process has exited; an HTTP session is judged by its requests. */
    boolean alive() {
        return process().map(ProcessHandle::isAlive).orElse(true);
    }

    /** The session just worked. */
    void touch() {
        lastUsed = System.nanoTime();
        suspect = false;
    }

    /** A request timed out: check the session before the next one. */
    void suspect() {
        suspect = true;
    }

    boolean idleLongerThan(Duration idle) {
        return suspect || idle.isZero() || System.nanoTime() - lastUsed > idle.toNanos();
    }

    /**
     * Closes the client and makes sure a stdio server's process and its children are gone: the
     * SDK ends the process (SIGTERM) and waits for it; whatever of the process tree is still alive
     * after {@code timeout} is killed.
     */
    void close(Duration timeout) {
        List<ProcessHandle> tree = new ArrayList<>();
        process().ifPresent(p -> {
            p.descendants().forEach(tree::add);   // before the process ends: orphans are no longer its descendants
            tree.add(p);
        });
        try {
            client.closeGracefully().toFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.debug("Closing an MCP client: {}", e.toString());
        } finally {
            try {
                client.close();
            } catch (RuntimeException e) {
                LOG.debug("Closing an MCP client: {}", e.toString());
            }
        }
        end(tree, timeout);
    }

    /** Asks every process of {@code tree} to stop, waits up to {@code timeout}, kills the rest. */
    static void end(List<ProcessHandle> tree, Duration timeout) {
        for (ProcessHandle p : tree) if (p.isAlive()) p.destroy();
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ProcessHandle p : tree) {
            long left = deadline - System.nanoTime();
            if (left <= 0) break;
            try {
                p.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
                break;
            }
        }
        for (ProcessHandle p : tree) {
            if (p.isAlive()) {
                LOG.warn("MCP server process {} did not stop within {}; killing it", p.pid(), timeout);
                p.destroyForcibly();
            }
        }
    }

    /** The SDK's streamable-HTTP transport for the configured URL and headers. */
    static McpClientTransport httpTransport(McpServerConfig config, McpJsonMapper json) {
        McpServerConfig.Http http = java.util.Objects.requireNonNull(config.http());
        URI url = http.url();
        String base = url.getScheme() + "://" + url.getRawAuthority();
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String endpoint = url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
        Map<String, String> headers = http.headers();
        Supplier<Map<String, String>> computed = http.headerSupplier();
        return HttpClientStreamableHttpTransport.builder(base)
                .endpoint(endpoint)
                .jsonMapper(json)
                .connectTimeout(config.connectTimeout())
                .httpRequestCustomizer((request, method, uri, body, context) -> {
                    headers.forEach(request::setHeader);
                    if (computed != null) computed.get().forEach(request::setHeader);
                })
                .build();
    }
}
