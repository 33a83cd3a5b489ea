package dev.baton.model.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A model provider on loopback, for tests: a JDK {@link HttpServer} on 127.0.0.1 that records each
 * request (path, headers, JSON body) and answers with the next scripted {@link Answer}. It speaks
 * whatever wire format the answers write (OpenAI chat completions, Anthropic messages).
 */
final class StubProvider implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    /** Upper bound for anything the stub waits on; a test that needs longer is broken. */
    static final Duration PATIENCE = Duration.ofSeconds(20);

    /** One request as received. */
    record Received(String method, String path, Map<String, List<String>> headers, JsonNode body) {
        String header(String name) {
            for (Map.Entry<String, List<String>> e : headers.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) return e.getValue().get(0);
            }
            return null;
        }
    }

    /** How the stub answers one request. */
    @FunctionalInterface
    interface Answer {
        void write(Received request, Reply reply) throws IOException;
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final BlockingQueue<Answer> answers = new LinkedBlockingQueue<>();
    private final List<Received> received = Collections.synchronizedList(new ArrayList<>());
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    /** Counted down on close: releases answers that hold a request open. */
    private final CountDownLatch closing = new CountDownLatch(1);

    private StubProvider() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "stub-provider");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    static StubProvider start() {
        try {
            return new StubProvider();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the stub provider on loopback", e);
        }
    }

    /** {@code http://127.0.0.1:<port><path>}. */
    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** Queues the answer to the next request. */
    StubProvider then(Answer answer) {
        answers.add(answer);
        return this;
    }

    List<Received> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    Received request(int index) {
        List<Received> all = received();
        if (index >= all.size()) throw new AssertionError("the stub received " + all.size() + " requests, not " + (index + 1) + "; problems: " + problems);
        return all.get(index);
    }

    /** What went wrong on the stub's side (an unscripted request, a failed write). */
    List<String> problems() {
        synchronized (problems) {
            return List.copyOf(problems);
        }
    }

    /** Released when the stub closes; answers that hold a request open wait on it. */
    CountDownLatch closing() {
        return closing;
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] bytes = exchange.getRequestBody().readAllBytes();
            JsonNode body;
            String text = new String(bytes, StandardCharsets.UTF_8);
            try {
                body = text.isBlank() ? JSON.nullNode() : JSON.readTree(text);
            } catch (IOException notJson) {
                body = TextNode.valueOf(text);
            }
            Received request = new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    Map.copyOf(exchange.getRequestHeaders()), body);
            received.add(request);
            Answer answer = answers.poll();
            if (answer == null) {
                problems.add("no answer scripted for request " + received.size() + " to " + request.path());
                new Reply(exchange).json(500, "{\"error\":{\"message\":\"stub: no answer scripted\"}}");
                return;
            }
            answer.write(request, new Reply(exchange));
        } catch (IOException | RuntimeException e) {
            problems.add("answer failed: " + e);
            throw e;
        }
    }

    /** Writes one answer. */
    static final class Reply {
        private final HttpExchange exchange;
        private OutputStream sse;

        Reply(HttpExchange exchange) {
            this.exchange = exchange;
        }

        void json(int status, String body, String... headerPairs) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i + 1 < headerPairs.length; i += 2) exchange.getResponseHeaders().add(headerPairs[i], headerPairs[i + 1]);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }

        /** Starts a server-sent event stream (chunked). */
        Reply startEvents() throws IOException {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            sse = exchange.getResponseBody();
            return this;
        }

        /** Sends one event (an optional {@code event:} name, then its data) and flushes it to the client. */
        Reply event(String name, String data) throws IOException {
            String frame = (name == null ? "" : "event: " + name + "\n") + "data: " + data + "\n\n";
            sse.write(frame.getBytes(StandardCharsets.UTF_8));
            sse.flush();
            return this;
        }

        Reply data(String data) throws IOException {
            return event(null, data);
        }

        void endEvents() throws IOException {
            sse.close();
        }

        /**
         * Keeps the stream open with SSE comments until writing fails because the client went away,
         * for at most {@link #PATIENCE}; true if it went away. A dropped TCP connection cannot be
         * awaited with a latch, so this polls, pausing a few milliseconds between writes.
         */
        boolean awaitClientGone() {
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (System.nanoTime() < deadline) {
                try {
                    sse.write(": still here\n\n".getBytes(StandardCharsets.UTF_8));
                    sse.flush();
                } catch (IOException gone) {
                    return true;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
            return false;
        }
    }

    /** Waits for {@code latch} at most {@link #PATIENCE}; true if it was counted down. */
    static boolean await(CountDownLatch latch) {
        try {
            return latch.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
