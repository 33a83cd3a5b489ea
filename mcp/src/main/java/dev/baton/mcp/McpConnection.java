package dev.baton.mcp;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The connection to one MCP server: made when first needed, made again when it is found dead,
 * closed with the toolset. Keeps the server's tool list until the server says it changed.
 * Thread-safe: calls run concurrently on one connection; connecting and closing take a lock.
 */
final class McpConnection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);
    private static final String VERSION = versionOf();
    private static final int MAX_PAGES = 1000;

    private final McpServerConfig config;
    private final McpJsonMapper json;
    private final ReentrantLock lock = new ReentrantLock();
    private @Nullable McpSession session;
    private volatile boolean closed;

    private final AtomicLong toolsGeneration = new AtomicLong();
    private volatile @Nullable List<McpSchema.Tool> tools;
    private volatile Map<String, McpToolHints> hints = Map.of();

    McpConnection(McpServerConfig config, McpJsonMapper json) {
        this.config = config;
        this.json = json;
    }

    McpServerConfig config() {
        return config;
    }

    /** The server's tools: the cached list, or a fresh one (connecting if needed). */
    List<McpSchema.Tool> tools() throws InterruptedException {
        List<McpSchema.Tool> cached = tools;
        if (cached != null) return cached;
        try {
            liveSession();   // connecting marks the list as changed: do it before reading the generation
        } catch (McpFailure f) {
            throw listingFailed(f);
        }
        long generation = toolsGeneration.get();
        List<McpSchema.Tool> all = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            String page = cursor;
            McpSchema.ListToolsResult result;
            try {
                result = request(client -> client.listTools(page), config.connectTimeout());
            } catch (McpFailure f) {
                throw listingFailed(f);
            }
            if (result.tools() != null) all.addAll(result.tools());
            cursor = result.nextCursor();
        } while (cursor != null && !cursor.isEmpty() && ++pages < MAX_PAGES);
        List<McpSchema.Tool> listed = List.copyOf(all);
        Map<String, McpToolHints> known = new LinkedHashMap<>();
        for (McpSchema.Tool t : listed) known.put(t.name(), McpTools.hints(t));
        hints = Map.copyOf(known);
        if (toolsGeneration.get() == generation) tools = listed;   // else a change came in meanwhile: list again next time
        return listed;
    }

    private McpException listingFailed(McpFailure f) {
        return new McpException(config.name(), "Could not list the tools of the MCP server '" + config.name() + "' ("
                + config.describe() + "): " + f.getMessage() + ". " + f.advice() + ".", f, McpToolCallException.retryable(f.kind()));
    }

    /** The server's hints for a tool, from the last list (no I/O); {@link McpToolHints#NONE} if unknown. */
    McpToolHints hints(String mcpToolName, McpToolHints fallback) {
        return hints.getOrDefault(mcpToolName, fallback);
    }

    /** Forgets the tool list: the next {@link #tools()} asks the server. */
    void toolsChanged() {
        toolsGeneration.incrementAndGet();
        tools = null;
        LOG.debug("MCP server '{}' changed its tool list", config.name());
    }

    /** Calls a tool; the result as the server sent it, whether or not {@code isError}. */
    McpSchema.CallToolResult call(String mcpToolName, Map<String, Object> arguments, Map<String, Object> meta)
            throws InterruptedException, McpFailure {
        McpSchema.CallToolRequest request = new McpSchema.CallToolRequest(mcpToolName, arguments, meta);
        return request(client -> client.callTool(request), config.callTimeout());
    }

    /**
     * Runs {@code operation} on a live session. A failure that proves the request never reached the
     * server (refused connection, unknown session, exited process) is retried once on a new session;
     * any other failure after sending is reported, never retried: the server may have acted on it.
     */
    private <T> T request(Function<McpAsyncClient, Mono<T>> operation, Duration timeout) throws InterruptedException, McpFailure {
        for (int attempt = 1; ; attempt++) {
            McpSession s = liveSession();
            SendTracking tracking = new SendTracking();
            CompletableFuture<T> answer = operation.apply(s.client()).contextWrite(tracking.context()).toFuture();
            try {
                T result = await(s, answer, timeout);
                s.touch();
                return result;
            } catch (InterruptedException e) {
                answer.cancel(true);
                throw e;
            } catch (ExecutionException e) {
                answer.cancel(true);
                McpFailure failure = McpFailure.of(config, e.getCause(), tracking.sendError(Duration.ofSeconds(2)), timeout);
                switch (failure.kind()) {
                    case TIMEOUT -> s.suspect();
                    case PROTOCOL_ERROR -> s.touch();
                    default -> {
                        // a forgotten session is re-initialized by the SDK on the same client; anything else gets a new one
                        if (failure.sessionExpired()) toolsChanged();
                        else drop(s);
                    }
                }
                if (failure.kind() == McpToolCallException.Kind.UNREACHABLE && attempt == 1 && !closed) {
                    LOG.info("MCP server '{}': the request did not reach the server ({}); trying again", config.name(), failure.getMessage());
                    continue;
                }
                throw failure;
            }
        }
    }

    /**
     * Waits for {@code answer}, watching a stdio server's process: the SDK would wait for its
     * request timeout after the process died, so its exit ends the wait at once.
     */
    private <T> T await(McpSession s, CompletableFuture<T> answer, Duration timeout)
            throws InterruptedException, ExecutionException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) throw new ExecutionException(new TimeoutException("no answer within " + timeout));
            try {
                return answer.get(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                if (answer.isDone()) continue;
                Throwable notStarted = s.startFailure();
                if (notStarted != null) throw new ExecutionException(notStarted);
                if (!s.alive()) throw new ExecutionException(new McpSession.ProcessExited(config.name()));
            }
        }
    }

    /** A session that is connected, whose process is alive, and that answered a ping if it was idle. */
    private McpSession liveSession() throws InterruptedException, McpFailure {
        McpSession s = sessionOrConnect();
        if (!s.idleLongerThan(config.pingAfterIdle())) return s;
        SendTracking tracking = new SendTracking();
        CompletableFuture<Object> pong = s.client().ping().contextWrite(tracking.context()).toFuture();
        try {
            await(s, pong, config.connectTimeout());
            s.touch();
            return s;
        } catch (ExecutionException e) {
            pong.cancel(true);
            McpFailure failure = McpFailure.of(config, e.getCause(), tracking.sendError(Duration.ofSeconds(2)), config.connectTimeout());
            LOG.info("MCP server '{}' did not answer a ping ({}); connecting again", config.name(), failure.getMessage());
            if (failure.sessionExpired()) {
                toolsChanged();   // the SDK starts a new session on this client; the next request waits for it
                return s;
            }
            drop(s);
            return sessionOrConnect();
        }
    }

    private McpSession sessionOrConnect() throws InterruptedException, McpFailure {
        lock.lockInterruptibly();
        try {
            if (closed) throw McpFailure.closed(config);
            McpSession s = session;
            if (s != null && !s.alive()) {
                LOG.info("MCP server '{}': its process has exited; starting it again", config.name());
                session = null;
                s.close(config.shutdownTimeout());
                s = null;
            }
            if (s == null) {
                s = connect();
                session = s;
            }
            return s;
        } finally {
            lock.unlock();
        }
    }

    private McpSession connect() throws InterruptedException, McpFailure {
        StdioProcessTransport stdio = config.stdio() == null ? null : new StdioProcessTransport(config.name(), config.stdio(), json);
        var transport = stdio != null ? stdio : McpSession.httpTransport(config, json);
        McpAsyncClient client = McpClient.async(SendTracking.around(transport, config.name()))
                .clientInfo(new McpSchema.Implementation("baton", VERSION))
                // each request has its own deadline here (calls: callTimeout, the rest: connectTimeout); the SDK's is the longest
                .requestTimeout(max(config.callTimeout(), config.connectTimeout()).plusSeconds(5))
                .initializationTimeout(config.connectTimeout())
                .toolsChangeConsumer(changed -> Mono.fromRunnable(this::toolsChanged))
                .build();
        McpSession s = new McpSession(client, stdio);
        try {
            await(s, client.initialize().toFuture(), config.connectTimeout());
            LOG.debug("Connected to MCP server '{}' ({})", config.name(), config.describe());
            toolsChanged();   // a new session may see another tool list
            return s;
        } catch (InterruptedException e) {
            s.close(config.shutdownTimeout());
            throw e;
        } catch (ExecutionException e) {
            // the server's own reason is what it wrote on stderr (the SDK logs only its own error): name it once, at WARN
            String stderr = stdio == null ? "" : stdio.lastErrorLines(stdio.startFailure() == null ? Duration.ofSeconds(1) : Duration.ZERO);
            s.close(config.shutdownTimeout());
            McpFailure failure = McpFailure.unreachable(config, e.getCause(), stderr);
            LOG.warn("MCP server '{}' ({}) could not start: {}", config.name(), config.describe(), failure.getMessage());
            throw failure;
        }
    }

    private void drop(McpSession s) {
        lock.lock();
        try {
            if (session == s) session = null;
        } finally {
            lock.unlock();
        }
        s.close(config.shutdownTimeout());
    }

    /** Ends the session (and a stdio server's process, with its children); later calls fail. Idempotent. */
    @Override
    public void close() {
        McpSession s;
        lock.lock();
        try {
            closed = true;
            s = session;
            session = null;
        } finally {
            lock.unlock();
        }
        if (s != null) s.close(config.shutdownTimeout());
    }

    /** The stdio server's process while connected (for tests and diagnostics). */
    java.util.Optional<ProcessHandle> process() {
        McpSession s = session;
        return s == null ? java.util.Optional.empty() : s.process();
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static String versionOf() {
        String v = McpConnection.class.getPackage() == null ? null : McpConnection.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
