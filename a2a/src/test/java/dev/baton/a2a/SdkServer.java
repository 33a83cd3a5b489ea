package dev.baton.a2a;

import io.a2a.server.ServerCallContext;
import io.a2a.server.agentexecution.AgentExecutor;
import io.a2a.server.agentexecution.RequestContext;
import io.a2a.server.auth.UnauthenticatedUser;
import io.a2a.server.events.EventQueue;
import io.a2a.server.events.InMemoryQueueManager;
import io.a2a.server.requesthandlers.DefaultRequestHandler;
import io.a2a.server.tasks.BasePushNotificationSender;
import io.a2a.server.tasks.InMemoryPushNotificationConfigStore;
import io.a2a.server.tasks.InMemoryTaskStore;
import io.a2a.server.tasks.TaskUpdater;
import io.a2a.spec.AgentCapabilities;
import io.a2a.spec.AgentCard;
import io.a2a.spec.GetTaskRequest;
import io.a2a.spec.JSONRPCError;
import io.a2a.spec.NonStreamingJSONRPCRequest;
import io.a2a.spec.SendMessageRequest;
import io.a2a.spec.TaskState;
import io.a2a.spec.TextPart;
import io.a2a.transport.jsonrpc.handler.JSONRPCHandler;
import io.a2a.util.Utils;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A remote agent built on the A2A SDK's own server side (DefaultRequestHandler, JSONRPCHandler), as
 * its reference servers wire it, in a servlet: a billing agent that asks "Which invoice?" and then
 * refunds the invoice it is told.
 */
final class SdkServer extends HttpServlet {
    private static final long serialVersionUID = 1L;
    final transient AtomicInteger refunds = new AtomicInteger();
    private final transient ExecutorService executor = Executors.newCachedThreadPool();
    private final transient JSONRPCHandler handler;

    SdkServer(String url) {
        AgentExecutor billing = new AgentExecutor() {
            @Override
            public void execute(RequestContext context, EventQueue queue) throws JSONRPCError {
                TaskUpdater updater = new TaskUpdater(context, queue);
                if (context.getTask() == null) updater.submit();
                if (context.getTask() == null || context.getTask().getStatus().state() != TaskState.INPUT_REQUIRED) {
                    updater.requiresInput(updater.newAgentMessage(List.of(new TextPart("Which invoice?")), null), true);
                    return;
                }
                String invoice = context.getUserInput(" ").trim();
                updater.addArtifact(List.of(new TextPart("refunded invoice " + invoice + " #" + refunds.incrementAndGet())));
                updater.complete();
            }

            @Override
            public void cancel(RequestContext context, EventQueue queue) throws JSONRPCError {
                new TaskUpdater(context, queue).cancel();
            }
        };
        InMemoryTaskStore tasks = new InMemoryTaskStore();
        InMemoryPushNotificationConfigStore push = new InMemoryPushNotificationConfigStore();
        DefaultRequestHandler requests = DefaultRequestHandler.create(billing, tasks, new InMemoryQueueManager(tasks), push,
                new BasePushNotificationSender(push), executor);
        AgentCard card = new AgentCard("billing", "Refunds invoices", url, null, "1.0.0", null,
                new AgentCapabilities(false, false, false, List.of()), List.of("text/plain"), List.of("text/plain"), List.of(),
                false, Map.of(), List.of(), null, List.of(), "JSONRPC", "0.3.0", List.of());
        this.handler = new JSONRPCHandler(card, requests, executor);
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        NonStreamingJSONRPCRequest<?> request = Utils.OBJECT_MAPPER.readValue(req.getInputStream().readAllBytes(), NonStreamingJSONRPCRequest.class);
        ServerCallContext context = new ServerCallContext(UnauthenticatedUser.INSTANCE, Map.of(), Set.of());
        Object answer;
        if (request instanceof SendMessageRequest send) answer = handler.onMessageSend(send, context);
        else if (request instanceof GetTaskRequest get) answer = handler.onGetTask(get, context);
        else throw new IOException("this test server answers message/send and tasks/get only");
        resp.setContentType("application/json");
        resp.getOutputStream().write(Utils.OBJECT_MAPPER.writeValueAsBytes(answer));
    }

    @Override
    public void destroy() {
        executor.shutdownNow();
    }
}
