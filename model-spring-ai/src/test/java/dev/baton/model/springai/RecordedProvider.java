package dev.baton.model.springai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A model provider on 127.0.0.1 that replays recorded HTTP exchanges: each request gets the next
 * queued recording (status, headers, body as the provider sent it, an SSE stream included), and
 * is kept (path, headers, JSON body) for the test to look at. The recordings are files under
 * {@code src/test/resources/exchanges/}: a status line {@code HTTP 200}, header lines, a blank
 * line, the body. A streamed body is written event by event, flushed, so the client reads it as
 * it comes; {@link #holdAfter} holds the rest of one until the test lets it go.
 */
final class RecordedProvider implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /** One request as received. */
    record Received(String method, String path, Map<String, String> headers, JsonNode body) { }

    /** A recorded answer. */
    record Recording(String name, int status, Map<String, String> headers, String body) {
        boolean isEventStream() {
            return headers.getOrDefault("content-type", "").startsWith("text/event-stream");
        }
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final BlockingQueue<Recording> queue = new LinkedBlockingQueue<>();
    private final List<Received> received = Collections.synchronizedList(new ArrayList<>());
    private volatile int holdAfterEvents = -1;
    private volatile CountDownLatch release = new CountDownLatch(0);
    final CountDownLatch disconnected = new CountDownLatch(1);

    private RecordedProvider() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "recorded-provider");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    static RecordedProvider start() {
        try {
            return new RecordedProvider();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@return {@code http://127.0.0.1:<port><path>}} */
    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** Queues recordings, answered in order. */
    RecordedProvider then(String... names) {
        for (String name : names) queue.add(load(name));
        return this;
    }

    /** The next streamed answer stops after {@code events} events until {@code latch} is counted down. */
    void holdAfter(int events, CountDownLatch latch) {
        this.release = latch;
        this.holdAfterEvents = events;
    }

    List<Received> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    Received lastRequest() {
        List<Received> all = received();
        if (all.isEmpty()) throw new AssertionError("the provider received no request");
        return all.get(all.size() - 1);
    }

    static Recording load(String name) {
        String resource = "/exchanges/" + name;
        try (InputStream in = RecordedProvider.class.getResourceAsStream(resource)) {
            Objects.requireNonNull(in, () -> "no recording " + resource);
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
            int headEnd = text.indexOf("\n\n");
            String[] head = text.substring(0, headEnd).split("\n");
            int status = Integer.parseInt(head[0].split(" ")[1]);
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < head.length; i++) {
                int colon = head[i].indexOf(':');
                headers.put(head[i].substring(0, colon).strip().toLowerCase(java.util.Locale.ROOT), head[i].substring(colon + 1).strip());
            }
            return new Recording(name, status, headers, text.substring(headEnd + 2));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), v.isEmpty() ? "" : v.get(0)));
            JsonNode json = body.length == 0 ? JSON.nullNode() : JSON.readTree(body);
            received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers, json));
            Recording r;
            try {
                r = queue.poll(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (r == null) {
                byte[] none = "{\"error\":{\"message\":\"no recording queued\"}}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(599, none.length);
                exchange.getResponseBody().write(none);
                return;
            }
            r.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            if (!r.isEventStream()) {
                byte[] bytes = r.body().getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(r.status(), bytes.length == 0 ? -1 : bytes.length);
                exchange.getResponseBody().write(bytes);
                return;
            }
            exchange.sendResponseHeaders(r.status(), 0);
            OutputStream out = exchange.getResponseBody();
            String[] events = r.body().split("\n\n");
            int hold = holdAfterEvents;
            holdAfterEvents = -1;
            try {
                for (int i = 0; i < events.length; i++) {
                    if (events[i].isBlank()) continue;
                    if (i == hold) {
                        if (!release.await(20, TimeUnit.SECONDS)) return;
                    }
                    out.write((events[i] + "\n\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (IOException e) {
                disconnected.countDown(); // the client went away (a cancelled stream)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
