package dev.baton.examples;

import com.sun.net.httpserver.HttpServer;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentRun;
import dev.baton.agent.NotificationEvent;
import dev.baton.agent.NotificationPolicy;
import dev.baton.agent.RunOptions;
import dev.baton.model.DeterministicModel;
import dev.baton.notify.Notifier;
import dev.baton.notify.WebhookChannel;
import dev.baton.notify.WebhookVerificationException;
import dev.baton.notify.WebhookVerifier;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tool.Tool;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A webhook receives a run that waits: a refund of 250 EUR waits for approval, the store keeps the
 * obligation to notify, a {@link Notifier} delivers it to a receiver on 127.0.0.1 that checks the
 * signature with {@link WebhookVerifier} and drops duplicates by id, then the refund is approved.
 *
 * <pre>
 * java -cp examples/target/baton-examples.jar dev.baton.examples.WebhookNotifications [STORE_URL]
 * </pre>
 * The store defaults to {@code memory:}; any store with NOTIFICATIONS works.
 */
public final class WebhookNotifications {
    private static final String SECRET = "whsec_ZXhhbXBsZS1zZWNyZXQtb2YtdGhlLWRlbW8tMDEyMzQ1";

    private WebhookNotifications() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args.length > 0 ? args[0] : "memory:", System.out));
    }

    /** Runs the story; 0 when the webhook arrived, was verified, and the refund was approved. */
    static int run(String storeUrl, PrintStream out) throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        Set<String> seen = ConcurrentHashMap.newKeySet();
        WebhookVerifier verifier = WebhookVerifier.of(SECRET);
        HttpServer receiver = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        receiver.createContext("/hooks/baton", exchange -> {
            try (exchange; InputStream in = exchange.getRequestBody()) {
                byte[] body = in.readAllBytes();
                try {
                    verifier.verify(exchange.getRequestHeaders()::getFirst, body);
                } catch (WebhookVerificationException e) {
                    out.println("receiver: refused: " + e.getMessage());
                    exchange.sendResponseHeaders(401, -1);
                    return;
                }
                String id = exchange.getRequestHeaders().getFirst("webhook-id");
                if (seen.add(id)) {
                    out.println("receiver: verified webhook " + id);
                    out.println("receiver: " + new String(body, StandardCharsets.UTF_8));
                    received.countDown();
                } else {
                    out.println("receiver: duplicate " + id + ", dropped");
                }
                exchange.sendResponseHeaders(204, -1);
            } catch (IOException e) {
                out.println("receiver: " + e);
            }
        });
        receiver.start();
        URI hook = URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks/baton");
        try (SnapshotStore store = SnapshotStores.open(storeUrl);
             Agent agent = refunds(store);
             Notifier notifier = Notifier.builder()
                     .agents(agent)
                     .channels(WebhookChannel.builder(hook).secret(SECRET).build())
                     .inboxUrl(URI.create("http://127.0.0.1:8080/"))
                     .pollInterval(Duration.ofMillis(200))
                     .build()
                     .start()) {
            String runId = agent.generate("Refund 250 EUR for order A-1001",
                    RunOptions.builder().resourceId("bob").threadId("bob-orders").build()).runId();
            out.println("agent: run " + runId + " waits for an approval of the refund");
            if (!received.await(20, TimeUnit.SECONDS)) {
                out.println("no webhook arrived in 20 s; dead letters: " + notifier.deadLetters());
                return 1;
            }
            AgentRun run = agent.listSuspendedRuns().runs().get(0);
            String text = agent.approveToolCall(run.runId(), run.toolCalls().get(0).toolCallId()).result().text();
            out.println("approver: approved; the run says: " + text);
            // the receiver counts a webhook when it answers; the notifier counts it once it has read that answer
            for (int i = 0; i < 100 && notifier.stats().sent() == 0; i++) Thread.sleep(50);
            out.println("notifier: " + notifier.stats());
            return 0;
        } finally {
            receiver.stop(0);
        }
    }

    private static Agent refunds(SnapshotStore store) {
        return Agent.builder("refunds")
                .instructions("You refund orders.")
                .model(DeterministicModel.builder()
                        .whenUserSays("refund", "refund", text -> Map.of("amount", 250, "order", "A-1001"))
                        .build())
                .tools(Tool.builder("refund")
                        .description("Refunds an order; above 100 EUR it waits for approval.")
                        .requireApproval(input -> input.path("amount").asInt() > 100)
                        .execute((input, ctx) -> Map.of("refunded", input.path("amount").asInt()))
                        .build())
                .store(store)
                .notifications(NotificationPolicy.of(NotificationEvent.SUSPENDED))
                .build();
    }
}
