package dev.baton.notify;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;

/**
 * A webhook receiver on 127.0.0.1 (the JDK's HttpServer) whose answers a test scripts: the status
 * of the n-th request (from 1), and a delay before answering. It records what it received, and
 * checks each signature with a {@link WebhookVerifier} if it has one.
 */
final class Receiver implements AutoCloseable {
    /** One request as received. */
    record Received(String id, String timestamp, String signature, byte[] body, int answered, boolean verified) {
        String text() {
            return new String(body, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private final HttpServer server;
    private final ExecutorService pool = Executors.newFixedThreadPool(4);
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile IntUnaryOperator status = n -> 200;
    private volatile long delayMillis;
    private volatile WebhookVerifier verifier;
    /** What a failure's answer says (its body), as Slack explains a refusal; empty: no body. */
    private volatile String failureBody = "";
    /** The {@code Retry-After} header of a failure's answer, or null. */
    private volatile String retryAfter;

    Receiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/hook", exchange -> {
            try (exchange; InputStream in = exchange.getRequestBody()) {
                byte[] body = in.readAllBytes();
                int n = count.incrementAndGet();
                inFlight.incrementAndGet();
                int answer = status.applyAsInt(n);
                String id = exchange.getRequestHeaders().getFirst("webhook-id");
                String ts = exchange.getRequestHeaders().getFirst("webhook-timestamp");
                String sig = exchange.getRequestHeaders().getFirst("webhook-signature");
                boolean verified = false;
                if (verifier != null) {
                    try {
                        verifier.verify(id, ts, sig, body);
                        verified = true;
                    } catch (WebhookVerificationException e) {
                        answer = 401;
                    }
                }
                if (delayMillis > 0) Thread.sleep(delayMillis);
                received.add(new Received(id, ts, sig, body, answer, verified));
                inFlight.decrementAndGet();
                boolean failure = answer / 100 != 2;
                if (failure && retryAfter != null) exchange.getResponseHeaders().set("Retry-After", retryAfter);
                byte[] explanation = failure ? failureBody.getBytes(java.nio.charset.StandardCharsets.UTF_8) : new byte[0];
                exchange.sendResponseHeaders(answer, explanation.length == 0 ? -1 : explanation.length);
                if (explanation.length > 0) exchange.getResponseBody().write(explanation);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // the client gave up (a timeout): nothing to answer
            }
        });
        server.setExecutor(pool);
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hook");
    }

    /** The first {@code n} requests answer {@code failure}, the rest 200. */
    Receiver failFirst(int n, int failure) {
        status = k -> k <= n ? failure : 200;
        return this;
    }

    Receiver always(int answer) {
        status = k -> answer;
        return this;
    }

    /** A failure's answer carries this body (Slack's explanation, e.g. {@code invalid_blocks}). */
    Receiver explaining(String body) {
        failureBody = body;
        return this;
    }

    /** A failure's answer carries this {@code Retry-After}. */
    Receiver retryAfter(String value) {
        retryAfter = value;
        return this;
    }

    Receiver slow(long millis) {
        delayMillis = millis;
        return this;
    }

    Receiver verifying(WebhookVerifier v) {
        verifier = v;
        return this;
    }

    /** Requests received and not answered yet. */
    int inFlight() {
        return inFlight.get();
    }

    int requests() {
        return count.get();
    }

    /** The received ids that were answered 2xx. */
    List<String> deliveredIds() {
        return received.stream().filter(r -> r.answered() / 100 == 2).map(Received::id).toList();
    }

    static Map<String, String> headers(Received r) {
        return Map.of("webhook-id", r.id(), "webhook-timestamp", r.timestamp(), "webhook-signature", r.signature());
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
