package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.http.Authenticator;
import dev.baton.http.Principal;
import dev.baton.model.DeterministicModel;
import dev.baton.store.DecisionRecord;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tool.Tool;
import io.a2a.client.http.A2ACardResolver;
import io.a2a.client.http.JdkA2AHttpClient;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.client.transport.spi.interceptors.ClientCallContext;
import io.a2a.spec.A2AClientException;
import io.a2a.spec.AgentCard;
import io.a2a.spec.DataPart;
import io.a2a.spec.EventKind;
import io.a2a.spec.Message;
import io.a2a.spec.MessageSendConfiguration;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.Part;
import io.a2a.spec.StreamingEventKind;
import io.a2a.spec.Task;
import io.a2a.spec.TaskIdParams;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.a2a.spec.TextPart;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Baton's A2A server against the A2A SDK's own client (JSON-RPC transport), in an embedded Jetty 12:
 * a suspended run is a task in input-required, a follow-up message decides it with the rules of
 * approveToolCall / resumeStream, a tenant sees only its tasks, and Host and Origin are checked.
 */
class A2aServletTest {
    static final String ALICE = "token-alice-0123456789";
    static final String BOB = "token-bob-0123456789ab";

    private SnapshotStore store;
    private Agent agent;
    private JettyServer server;
    private String url;
    private final AtomicInteger refunds = new AtomicInteger();

    static Agent agent(SnapshotStore store, AtomicInteger refunds) {
        Tool refund = Tool.builder("refund").description("Refunds an order").requireApproval(true)
                .execute((input, ctx) -> "refunded order " + input.path("order").asText() + " #" + refunds.incrementAndGet()).build();
        Tool askCity = Tool.builder("askCity").description("Asks the user for a city")
                .execute((input, ctx) -> ctx.isResumed() ? "city " + ctx.resumeData().asText() : ctx.suspend(Map.of("question", "Which city?"))).build();
        return Agent.builder("concierge").store(store).tools(refund, askCity)
                .model(DeterministicModel.builder()
                        .whenUserSays("refund", "refund", Map.of("order", "7"))
                        .whenUserSays("city", "askCity", Map.of())
                        .build())
                .build();
    }

    static Authenticator tenants() {
        return Authenticator.bearerTokens()
                .token(ALICE, Principal.limitedTo("alice", "acme"))
                .token(BOB, Principal.limitedTo("bob", "globex"))
                .build();
    }

    @BeforeEach
    void start() throws Exception {
        store = SnapshotStores.open("memory:");
        agent = agent(store, refunds);
        server = JettyServer.start(0, "/a2a", u -> A2aServlet.builder(agent).authenticator(tenants()).publicUrl(u).build());
        url = "http://127.0.0.1:" + server.port + "/a2a";
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        agent.close();
        store.close();
    }

    static JSONRPCTransport client(String url) {
        return new JSONRPCTransport(new JdkA2AHttpClient(), null, url, List.of());
    }

    static ClientCallContext as(String token) {
        return new ClientCallContext(Map.of(), Map.of("Authorization", "Bearer " + token));
    }

    static MessageSendParams text(String text, String taskId, String contextId) {
        return params(new TextPart(text), taskId, contextId, UUID.randomUUID().toString());
    }

    static MessageSendParams params(Part<?> part, String taskId, String contextId, String messageId) {
        Message m = new Message(Message.Role.USER, List.of(part), messageId, contextId, taskId, null, null, null);
        return new MessageSendParams(m, new MessageSendConfiguration(List.of("text/plain"), null, null, true), null);
    }

    static JsonNode waitingCall(Task task) {
        for (Part<?> p : task.getStatus().message().getParts()) {
            if (p instanceof DataPart d) return A2aProtocol.JSON.valueToTree(d.getData()).path("toolCalls").get(0);
        }
        throw new AssertionError("no data part in " + task.getStatus());
    }

    static String resultText(Task task) {
        StringBuilder s = new StringBuilder();
        task.getArtifacts().forEach(a -> a.parts().forEach(p -> s.append(((TextPart) p).getText())));
        return s.toString();
    }

    @Nested
    class Tasks {
        @Test
        void theAgentCardListsTheToolsAsSkillsAndSpeaksProtocol030() throws Exception {
            AgentCard card = new A2ACardResolver(new JdkA2AHttpClient(), url + "/", ".well-known/agent-card.json").getAgentCard();
            assertThat(card.name()).isEqualTo("concierge");
            assertThat(card.protocolVersion()).isEqualTo("0.3.0");
            assertThat(card.url()).isEqualTo(url);
            assertThat(card.skills()).extracting(s -> s.id()).containsExactlyInAnyOrder("refund", "askCity");
            assertThat(card.capabilities().streaming()).isTrue();
        }

        @Test
        void aRunWaitingForApprovalIsAnInputRequiredTaskAndAFollowUpApprovesItOnceAsTheCaller() throws Exception {
            JSONRPCTransport client = client(url);
            Task task = (Task) client.sendMessage(text("refund my order", null, null), as(ALICE));
            assertThat(task.getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);
            JsonNode call = waitingCall(task);
            assertThat(call.path("toolName").asText()).isEqualTo("refund");
            assertThat(call.path("args").path("order").asText()).isEqualTo("7");
            assertThat(call.path("digest").asText()).isNotBlank();
            assertThat(client.getTask(new TaskQueryParams(task.getId()), as(ALICE)).getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);
            assertThat(refunds).hasValue(0);

            String messageId = UUID.randomUUID().toString();
            DataPart approve = new DataPart(Map.of("decision", "approve", "digest", call.path("digest").asText()));
            Task done = (Task) client.sendMessage(params(approve, task.getId(), task.getContextId(), messageId), as(ALICE));
            assertThat(done.getStatus().state()).isEqualTo(TaskState.COMPLETED);
            assertThat(resultText(done)).contains("refunded order 7 #1");
            assertThat(done.getId()).isEqualTo(task.getId());

            // the same message again (a retry): answered as the task ended, the tool ran once
            Task again = (Task) client.sendMessage(params(approve, task.getId(), task.getContextId(), messageId), as(ALICE));
            assertThat(again.getStatus().state()).isEqualTo(TaskState.COMPLETED);
            assertThat(refunds).hasValue(1);
            assertThat(client.getTask(new TaskQueryParams(task.getId()), as(ALICE)).getStatus().state()).isEqualTo(TaskState.COMPLETED);

            List<DecisionRecord> decisions = agent.listDecisions(AgentListDecisionsOptions.builder().build()).items();
            assertThat(decisions).hasSize(1);
            assertThat(decisions.get(0).actor()).isEqualTo("alice");
            assertThat(decisions.get(0).resourceId()).isEqualTo("acme");
        }

        /** Approver rules hold over A2A: the caller's roles decide, the requester may not approve their own call. */
        @Test
        void theAgentsApproverRulesDecideWhoMayApproveOverA2a() throws Exception {
            AtomicInteger paid = new AtomicInteger();
            try (SnapshotStore ruled = SnapshotStores.open("memory:");
                 Agent finance = Agent.builder("concierge").store(ruled)
                         .tools(Tool.builder("refund").requireApproval(true).execute((input, ctx) -> "paid #" + paid.incrementAndGet()).build())
                         .model(DeterministicModel.builder().whenUserSays("refund", "refund", Map.of("order", "7")).build())
                         .approverRules(dev.baton.agent.ApproverRule.builder("refunds by finance").tool("refund").roles("finance").build())
                         .build()) {
                Authenticator auth = Authenticator.bearerTokens()
                        .token(ALICE, Principal.limitedTo("alice", "acme"))
                        .token(BOB, Principal.builder().name("maria").resourceIds(List.of("acme")).roles(List.of("finance")).build())
                        .build();
                JettyServer s = JettyServer.start(0, "/a2a", u -> A2aServlet.builder(finance).authenticator(auth).publicUrl(u).build());
                try {
                    JSONRPCTransport client = client("http://127.0.0.1:" + s.port + "/a2a");
                    Task task = (Task) client.sendMessage(text("refund my order", null, null), as(ALICE));
                    String digest = waitingCall(task).path("digest").asText();
                    DataPart approve = new DataPart(Map.of("decision", "approve", "digest", digest));
                    assertThatThrownBy(() -> client.sendMessage(params(approve, task.getId(), null, UUID.randomUUID().toString()), as(ALICE)))
                            .isInstanceOf(A2AClientException.class).hasMessageContaining("refunds by finance");
                    assertThat(client.getTask(new TaskQueryParams(task.getId()), as(ALICE)).getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);
                    assertThat(paid).hasValue(0);

                    Task done = (Task) client.sendMessage(params(approve, task.getId(), null, UUID.randomUUID().toString()), as(BOB));
                    assertThat(done.getStatus().state()).isEqualTo(TaskState.COMPLETED);
                    assertThat(paid).hasValue(1);
                    assertThat(finance.listDecisions(AgentListDecisionsOptions.builder().build()).items())
                            .extracting(DecisionRecord::actor).containsExactly("maria");
                } finally {
                    s.close();
                }
            }
        }

        @Test
        void aDecisionBoundToAnotherDigestIsRefusedAndTheTaskStillWaits() throws Exception {
            JSONRPCTransport client = client(url);
            Task task = (Task) client.sendMessage(text("refund it", null, null), as(ALICE));
            DataPart approve = new DataPart(Map.of("decision", "approve", "digest", "not-what-was-shown"));
            assertThatThrownBy(() -> client.sendMessage(params(approve, task.getId(), null, UUID.randomUUID().toString()), as(ALICE)))
                    .isInstanceOf(A2AClientException.class);
            assertThat(client.getTask(new TaskQueryParams(task.getId()), as(ALICE)).getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);
            assertThat(refunds).hasValue(0);
        }

        @Test
        void aDeclineEndsTheTaskWithoutRunningTheTool() throws Exception {
            JSONRPCTransport client = client(url);
            Task task = (Task) client.sendMessage(text("refund it", null, null), as(ALICE));
            Task done = (Task) client.sendMessage(text("decline", task.getId(), task.getContextId()), as(ALICE));
            assertThat(done.getStatus().state()).isEqualTo(TaskState.COMPLETED);
            assertThat(refunds).hasValue(0);
        }

        @Test
        void aCallWaitingForDataIsAnsweredWithTheFollowUpsText() throws Exception {
            JSONRPCTransport client = client(url);
            Task task = (Task) client.sendMessage(text("which city", null, null), as(ALICE));
            assertThat(task.getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);
            assertThat(waitingCall(task).path("payload").path("question").asText()).isEqualTo("Which city?");
            Task done = (Task) client.sendMessage(text("Paris", task.getId(), null), as(ALICE));
            assertThat(done.getStatus().state()).isEqualTo(TaskState.COMPLETED);
            assertThat(resultText(done)).contains("city Paris");
        }

        @Test
        void theContextIdIsTheThreadAndASecondTaskOfTheContextRunsOnIt() throws Exception {
            JSONRPCTransport client = client(url);
            Task first = (Task) client.sendMessage(text("hello", null, "ctx-1"), as(ALICE));
            assertThat(first.getContextId()).isEqualTo("ctx-1");
            assertThat(first.getStatus().state()).isEqualTo(TaskState.COMPLETED);
            Task second = (Task) client.sendMessage(text("refund", null, "ctx-1"), as(ALICE));
            assertThat(second.getContextId()).isEqualTo("ctx-1");
            assertThat(second.getId()).isNotEqualTo(first.getId());
            assertThat(agent.memory().or(() -> java.util.Optional.of(dev.baton.memory.Memory.builder().store(store).build())).get()
                    .findThread("acme", "ctx-1")).isPresent();
        }

        @Test
        void cancelingAWaitingTaskEndsItAndAFinishedTaskCannotBeCanceled() throws Exception {
            JSONRPCTransport client = client(url);
            Task task = (Task) client.sendMessage(text("refund it", null, null), as(ALICE));
            Task canceled = client.cancelTask(new TaskIdParams(task.getId()), as(ALICE));
            assertThat(canceled.getStatus().state()).isEqualTo(TaskState.CANCELED);
            assertThat(client.getTask(new TaskQueryParams(task.getId()), as(ALICE)).getStatus().state()).isEqualTo(TaskState.CANCELED);
            assertThatThrownBy(() -> client.cancelTask(new TaskIdParams(task.getId()), as(ALICE))).isInstanceOf(A2AClientException.class);
        }

        @Test
        void aTasksPushConfigsAreSetReadListedAndDeletedByItsTenantOnly() throws Exception {
            JSONRPCTransport client = client(url);
            Task task = (Task) client.sendMessage(text("refund it", null, null), as(ALICE));
            io.a2a.spec.PushNotificationConfig config = new io.a2a.spec.PushNotificationConfig("https://hooks.example.com/a2a", "tok", null, "c1");
            client.setTaskPushNotificationConfiguration(new io.a2a.spec.TaskPushNotificationConfig(task.getId(), config), as(ALICE));
            io.a2a.spec.TaskPushNotificationConfig read = client.getTaskPushNotificationConfiguration(
                    new io.a2a.spec.GetTaskPushNotificationConfigParams(task.getId(), "c1"), as(ALICE));
            assertThat(read.pushNotificationConfig().url()).isEqualTo("https://hooks.example.com/a2a");
            assertThat(read.pushNotificationConfig().token()).isEqualTo("tok");
            assertThat(client.listTaskPushNotificationConfigurations(new io.a2a.spec.ListTaskPushNotificationConfigParams(task.getId()), as(ALICE)))
                    .hasSize(1);
            assertThatThrownBy(() -> client.getTaskPushNotificationConfiguration(
                    new io.a2a.spec.GetTaskPushNotificationConfigParams(task.getId(), "c1"), as(BOB)))
                    .isInstanceOf(A2AClientException.class).hasMessageContaining("Task not found");
            client.deleteTaskPushNotificationConfigurations(new io.a2a.spec.DeleteTaskPushNotificationConfigParams(task.getId(), "c1"), as(ALICE));
            assertThat(client.listTaskPushNotificationConfigurations(new io.a2a.spec.ListTaskPushNotificationConfigParams(task.getId()), as(ALICE)))
                    .isEmpty();
        }

        @Test
        void messageStreamSendsTheTaskThenItsFinalStatus() throws Exception {
            JSONRPCTransport client = client(url);
            List<StreamingEventKind> events = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(1);
            client.sendMessageStreaming(text("refund it", null, null), e -> {
                events.add(e);
                if (e instanceof TaskStatusUpdateEvent u && u.isFinal()) done.countDown();
            }, t -> done.countDown(), as(ALICE));
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(events.get(0)).isInstanceOf(Task.class);
            assertThat(((Task) events.get(0)).getStatus().state()).isEqualTo(TaskState.WORKING);
            TaskStatusUpdateEvent last = (TaskStatusUpdateEvent) events.get(events.size() - 1);
            assertThat(last.getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);
            assertThat(last.isFinal()).isTrue();
        }
    }

    @Nested
    class Security {
        @Test
        void oneTenantsTaskIsInvisibleToAnotherTenant() throws Exception {
            JSONRPCTransport client = client(url);
            Task task = (Task) client.sendMessage(text("refund it", null, null), as(ALICE));
            assertThatThrownBy(() -> client.getTask(new TaskQueryParams(task.getId()), as(BOB)))
                    .isInstanceOf(A2AClientException.class).hasMessageContaining("Task not found");
            assertThatThrownBy(() -> client.sendMessage(text("approve", task.getId(), null), as(BOB)))
                    .isInstanceOf(A2AClientException.class).hasMessageContaining("Task not found");
            assertThatThrownBy(() -> client.cancelTask(new TaskIdParams(task.getId()), as(BOB)))
                    .isInstanceOf(A2AClientException.class).hasMessageContaining("Task not found");
            // a forged id naming bob's resource with alice's run is not found either
            TaskRef ref = TaskRef.parse(task.getId()).orElseThrow();
            String forged = new TaskRef(ref.runId(), "globex", ref.contextId()).id();
            assertThatThrownBy(() -> client.getTask(new TaskQueryParams(forged), as(BOB)))
                    .isInstanceOf(A2AClientException.class).hasMessageContaining("Task not found");
            assertThat(client.getTask(new TaskQueryParams(task.getId()), as(ALICE)).getStatus().state()).isEqualTo(TaskState.INPUT_REQUIRED);
            assertThat(refunds).hasValue(0);
        }

        @Test
        void aCallWithoutCredentialsIsRefused() throws Exception {
            String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{\"id\":\"x\"}}";
            assertThat(raw("127.0.0.1:" + server.port, null, "application/json", body, "")).startsWith("HTTP/1.1 401");
        }

        @Test
        void aForeignHostIsRefused() throws Exception {
            String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{\"id\":\"x\"}}";
            assertThat(raw("evil.example:" + server.port, null, "application/json", body, "Authorization: Bearer " + ALICE + "\r\n"))
                    .startsWith("HTTP/1.1 421");
        }

        @Test
        void aCrossOriginCallIsRefusedUnlessItsOriginIsAllowed() throws Exception {
            String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{\"id\":\"x\"}}";
            assertThat(raw("127.0.0.1:" + server.port, "https://evil.example", "application/json", body, "Authorization: Bearer " + ALICE + "\r\n"))
                    .startsWith("HTTP/1.1 403");
            assertThat(raw("127.0.0.1:" + server.port, "http://127.0.0.1:" + server.port, "application/json", body,
                    "Authorization: Bearer " + ALICE + "\r\n")).as("the server's own origin").startsWith("HTTP/1.1 200");
            assertThat(raw("127.0.0.1:" + server.port, null, "text/plain", body, "Authorization: Bearer " + ALICE + "\r\n"))
                    .startsWith("HTTP/1.1 415");
        }

        @Test
        void aBodyOverTheLimitIsRefused() throws Exception {
            String body = "{\"x\":\"" + "a".repeat(1 << 20) + "\"}";
            assertThat(raw("127.0.0.1:" + server.port, null, "application/json", body, "Authorization: Bearer " + ALICE + "\r\n"))
                    .startsWith("HTTP/1.1 413");
        }

        /** One request over a socket: the Host and Origin a browser or a rebinding page would send. */
        private String raw(String host, String origin, String type, String body, String extra) throws Exception {
            try (Socket s = new Socket("127.0.0.1", server.port)) {
                byte[] b = body.getBytes(StandardCharsets.UTF_8);
                String head = "POST /a2a HTTP/1.1\r\nHost: " + host + "\r\n" + (origin == null ? "" : "Origin: " + origin + "\r\n")
                        + "Content-Type: " + type + "\r\nContent-Length: " + b.length + "\r\nConnection: close\r\n" + extra + "\r\n";
                OutputStream out = s.getOutputStream();
                out.write(head.getBytes(StandardCharsets.UTF_8));
                try {
                    out.write(b);
                    out.flush();
                } catch (java.io.IOException closedEarly) {
                    // the server answered before reading the whole body
                }
                InputStream in = s.getInputStream();
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
    }

    static EventKind send(JSONRPCTransport client, MessageSendParams p, String token) throws Exception {
        return client.sendMessage(p, as(token));
    }
}
