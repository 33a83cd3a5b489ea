package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.baton.agent.Agent;
import dev.baton.agent.NotificationEvent;
import dev.baton.agent.NotificationPolicy;
import dev.baton.model.DeterministicModel;
import dev.baton.notify.Notifier;
import dev.baton.notify.WebhookVerifier;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tool.Tool;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.spec.Message;
import io.a2a.spec.MessageSendConfiguration;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.PushNotificationConfig;
import io.a2a.spec.Task;
import io.a2a.spec.TaskState;
import io.a2a.spec.TextPart;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A task's push notification config, given with message/send, is delivered by Baton's Notifier
 * through A2aPushChannel when the task goes input-required: the task as A2A JSON, the config's token,
 * signed the Standard Webhooks way, and again with the same id after the receiver failed (at least once).
 */
class A2aPushChannelTest {
    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    record Push(String id, String token, JsonNode task) {
    }

    @Test
    void aTaskThatGoesInputRequiredIsPushedSignedWithItsTokenAndRetriedUntilDelivered() throws Exception {
        BlockingQueue<Push> pushes = new LinkedBlockingQueue<>();
        AtomicInteger attempts = new AtomicInteger();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/push", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            WebhookVerifier.of(SECRET).verify(name -> exchange.getRequestHeaders().getFirst(name), body);
            pushes.add(new Push(exchange.getRequestHeaders().getFirst("webhook-id"),
                    exchange.getRequestHeaders().getFirst(A2aPushChannel.TOKEN_HEADER), A2aProtocol.JSON.readTree(body)));
            exchange.sendResponseHeaders(attempts.incrementAndGet() == 1 ? 503 : 204, -1);   // the first attempt fails
            exchange.close();
        });
        receiver.start();
        try (SnapshotStore store = SnapshotStores.open("memory:");
             Agent agent = Agent.builder("concierge").store(store)
                     .tools(Tool.builder("refund").requireApproval(true).execute((in, ctx) -> "ok").build())
                     .model(DeterministicModel.builder().whenUserSays("refund", "refund", Map.of("order", "7")).build())
                     .notifications(NotificationPolicy.of(NotificationEvent.SUSPENDED))
                     .build();
             JettyServer server = JettyServer.start(0, "/a2a", u -> A2aServlet.builder(agent).authenticator(A2aServletTest.tenants()).publicUrl(u).build());
             Notifier notifier = Notifier.builder().agents(agent)
                     .channels(A2aPushChannel.builder(agent).secret(SECRET).build())
                     .pollInterval(Duration.ofMillis(100)).backoff(Duration.ofMillis(100), Duration.ofMillis(200))
                     .build()) {
            JSONRPCTransport client = A2aServletTest.client("http://127.0.0.1:" + server.port + "/a2a");
            PushNotificationConfig push = new PushNotificationConfig("http://127.0.0.1:" + receiver.getAddress().getPort() + "/push",
                    "the-task-token", null, null);
            Message m = new Message(Message.Role.USER, List.of(new TextPart("refund my order")), UUID.randomUUID().toString(),
                    null, null, null, null, null);
            Task task = (Task) client.sendMessage(new MessageSendParams(m, new MessageSendConfiguration(List.of("text/plain"), null, push, true), null),
                    A2aServletTest.as(A2aServletTest.ALICE));
            assertThat(task.getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);
            notifier.start();

            Push failed = pushes.poll(30, TimeUnit.SECONDS);
            Push delivered = pushes.poll(30, TimeUnit.SECONDS);
            assertThat(failed).isNotNull();
            assertThat(delivered).isNotNull();
            assertThat(delivered.id()).as("the same notification again: the receiver dedupes by it").isEqualTo(failed.id());
            assertThat(delivered.token()).isEqualTo("the-task-token");
            assertThat(delivered.task().path("id").asText()).isEqualTo(task.getId());
            assertThat(delivered.task().path("status").path("state").asText()).isEqualTo("input-required");
            assertThat(pushes.poll(500, TimeUnit.MILLISECONDS)).as("delivered: not sent again").isNull();
        } finally {
            receiver.stop(0);
        }
    }
}
