package dev.baton.mcp;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The SDK's stdio transport, plus what Baton needs of the process it starts: its handle (to see it
 * exit during a call, and to end it and its children on close) and a working directory.
 *
 * <p>The SDK keeps its {@code Process} to itself, so the handle is found as the child of this JVM
 * that appeared while the transport connected. Baton's stdio transports connect one at a time
 * (a JVM-wide semaphore held for the few milliseconds the start takes); if other code started a
 * process at the same moment, only a candidate that runs the configured program is taken. If no single candidate is found the handle stays unknown: the SDK still stops the process on
 * close, only its children are not looked after (logged).
 */
final class StdioProcessTransport extends StdioClientTransport {
    private static final Logger LOG = LoggerFactory.getLogger(StdioProcessTransport.class);
    private static final Semaphore STARTING = new Semaphore(1);
    private static final int ERROR_LINES_KEPT = 10;

    private final String serverName;
    private final String program;
    private final @Nullable Path directory;
    private volatile @Nullable ProcessHandle process;
    private volatile @Nullable Throwable startFailure;
    /** The server's last lines on stderr, for the reason a start failed. */
    private final Deque<String> lastErrorLines = new ArrayDeque<>();

    StdioProcessTransport(String serverName, McpServerConfig.Stdio stdio, McpJsonMapper json) {
        super(parameters(stdio), json);
        this.serverName = serverName;
        this.program = stdio.command().get(0);
        this.directory = stdio.directory();
        setStdErrorHandler(line -> {
            LOG.info("[mcp {}] {}", serverName, line);
            synchronized (lastErrorLines) {
                if (lastErrorLines.size() == ERROR_LINES_KEPT) lastErrorLines.removeFirst();
                lastErrorLines.addLast(line.length() > 500 ? line.substring(0, 500) + "..." : line);
            }
        });
    }

    private static ServerParameters parameters(McpServerConfig.Stdio stdio) {
        List<String> line = stdio.command();
        return ServerParameters.builder(line.get(0)).args(line.subList(1, line.size())).env(stdio.environment()).build();
    }

    @Override
    protected ProcessBuilder getProcessBuilder() {
        ProcessBuilder builder = new ProcessBuilder();
        if (directory != null) builder.directory(directory.toFile());
        return builder;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return Mono.defer(() -> {
            STARTING.acquireUninterruptibly();
            Set<Long> before = childPids();
            return super.connect(handler)
                    .doOnSuccess(ignored -> process = newChild(before))
                    .doOnError(e -> startFailure = e)
                    .doFinally(signal -> STARTING.release());
        });
    }

    /** Why the process could not be started (the SDK only logs it), or null. */
    @Nullable Throwable startFailure() {
        return startFailure;
    }

    /**
     * The server's last lines on stderr (at most ten), joined by " | ", or "" if it wrote none. Waits up to
     * {@code wait} for a first line, since the SDK reads stderr on a thread of its own.
     */
    String lastErrorLines(java.time.Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            synchronized (lastErrorLines) {
                if (!lastErrorLines.isEmpty() || System.nanoTime() >= deadline) return String.join(" | ", lastErrorLines);
            }
            Thread.sleep(20);
        }
    }

    /** The server's process, if it was found. */
    Optional<ProcessHandle> process() {
        return Optional.ofNullable(process);
    }

    private static Set<Long> childPids() {
        return ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    private @Nullable ProcessHandle newChild(Set<Long> before) {
        List<ProcessHandle> fresh = ProcessHandle.current().children().filter(p -> !before.contains(p.pid())).toList();
        if (fresh.size() > 1) {
            // someone else started a process at the same moment: keep those that run our program
            fresh = fresh.stream().filter(p -> p.info().command().map(this::runsProgram).orElse(false)).toList();
        }
        if (fresh.size() == 1) return fresh.get(0);
        LOG.warn("MCP server '{}': cannot tell its process among {} new child processes; close() leaves its children to "
                + "the SDK, which stops only the process itself", serverName, fresh.size());
        return null;
    }

    private boolean runsProgram(String executable) {
        return fileName(executable).equals(fileName(program));
    }

    private static String fileName(String path) {
        Path p = Path.of(path).getFileName();
        return p == null ? path : p.toString();
    }
}
