package dev.baton.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.InvalidOptionException;
import dev.baton.a2a.A2aProtocol.InMessage;
import dev.baton.a2a.A2aProtocol.PushConfig;
import dev.baton.a2a.A2aProtocol.TaskView;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStream;
import dev.baton.http.Authenticator;
import dev.baton.http.Principal;
import dev.baton.tool.Tool;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Baton agent as an A2A server (protocol 0.3.0, JSON-RPC transport): a jakarta servlet to mount
 * in any Servlet 6 container (Jetty 12, Tomcat 10.1, Spring Boot's).
 *
 * <ul>
 *   <li>{@code GET <mount>/.well-known/agent-card.json}: the agent card, one skill per tool;</li>
 *   <li>{@code POST <mount>}: {@code message/send} and {@code message/stream} (Server-Sent Events) start a run
 *       (the A2A context id is its thread) or, with a task id, decide the call the task waits for;
 *       {@code tasks/get}, {@code tasks/cancel}, {@code tasks/resubscribe} (the task's current state),
 *       and {@code tasks/pushNotificationConfig/set|get|list|delete}.</li>
 * </ul>
 *
 * <p>A run that suspends is a task in {@code input-required}; its status message holds the waiting
 * calls (tool, arguments or payload, digest) as a data part. A follow-up message on the task decides:
 * a data part {@code {"decision":"approve"|"edit"|"decline"|"answer", "toolCallId", "args", "data",
 * "digest", "reason"}}, or the text {@code approve} / {@code decline} (or the answer, for a call that waits
 * for data) when one call waits. The rules are {@code approveToolCall}'s and {@code resumeStream}'s:
 * the message id is the idempotency key (scoped to the caller), a digest binds the decision to what
 * was shown, and the decision is recorded with the caller's principal as actor. See docs/a2a.md.
 *
 * <p>Security as the HTTP API's: every JSON-RPC call is authenticated by the {@link Authenticator}
 * (the agent card is public), a principal limited to resources sees only their tasks (any other is
 * "task not found"), the Host must be one the server answers to and a browser's cross-origin call is
 * refused unless its origin is allowed.
 *
 * <pre>{@code
 * A2aServlet servlet = A2aServlet.builder(agent)
 *         .authenticator(Authenticator.bearerTokens().token(token, Principal.limitedTo("acme", "acme")).build())
 *         .publicUrl(URI.create("https://agents.example.com/a2a/concierge"))
 *         .build();
 * context.addServlet(new ServletHolder(servlet), "/a2a/concierge/*");
 * }</pre>
 *
 * <p>Thread-safe; holds no state of its own beyond its configuration (tasks live in the agent's store).
 */
public final class A2aServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(A2aServlet.class);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Where the agent card is served, below the mount point. */
    public static final String AGENT_CARD_PATH = "/.well-known/agent-card.json";

    private final transient A2aTasks tasks;
    private final transient Authenticator authenticator;
    private final transient RequestChecks checks;
    private final transient JsonNode card;

    private A2aServlet(Builder b) {
        this.tasks = new A2aTasks(b.agent);
        this.authenticator = Objects.requireNonNull(b.authenticator, "authenticator");
        URI url = Objects.requireNonNull(b.publicUrl, "publicUrl");
        Set<String> hosts = new HashSet<>(b.hosts);
        hosts.add(url.getPort() < 0 ? url.getHost() : url.getHost() + ":" + url.getPort());
        this.checks = new RequestChecks(hosts, Set.copyOf(b.origins), b.maxBodyBytes);
        List<String[]> skills = new ArrayList<>();
        for (Tool t : b.agent.tools().values()) skills.add(new String[] {t.name(), t.description()});
        if (skills.isEmpty()) skills.add(new String[] {b.agent.id(), b.description});
        this.card = A2aProtocol.card(b.agent.id(), b.description, url.toString(), b.version, skills, true);
    }

    /**
     * Starts a servlet for {@code agent}. The agent's store keeps each task's log in thread memory,
     * so it needs {@code THREAD_MEMORY} (every store Baton ships has it).
     *
     * @param agent the agent to serve
     * @return a builder; {@link Builder#authenticator} and {@link Builder#publicUrl} are required
     */
    public static Builder builder(Agent agent) {
        return new Builder(Objects.requireNonNull(agent, "agent"));
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        RequestChecks.Refusal refusal = checks.check(req, false);
        if (refusal != null) {
            plain(resp, refusal.status(), refusal.message());
            return;
        }
        String path = req.getPathInfo() == null ? "" : req.getPathInfo();
        if (path.equals(AGENT_CARD_PATH) || path.equals("/.well-known/agent.json")) {
            json(resp, 200, card);
            return;
        }
        plain(resp, 404, "not found");
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        RequestChecks.Refusal refusal = checks.check(req, true);
        if (refusal != null) {
            plain(resp, refusal.status(), refusal.message());
            return;
        }
        String path = req.getPathInfo() == null ? "/" : req.getPathInfo();
        if (!path.equals("/") && !path.isEmpty()) {
            plain(resp, 404, "not found: JSON-RPC calls go to the mount point");
            return;
        }
        byte[] body = read(req.getInputStream(), checks.maxBodyBytes);
        if (body == null) {
            plain(resp, 413, "the body is larger than " + checks.maxBodyBytes + " bytes");
            return;
        }
        Optional<Principal> caller = authenticator.authenticate(req);
        if (caller.isEmpty()) {
            resp.setHeader("WWW-Authenticate", "Bearer");
            plain(resp, 401, "authentication required");
            return;
        }
        JsonNode call;
        try {
            call = A2aProtocol.JSON.readTree(body);
        } catch (IOException e) {
            json(resp, 200, error(NODES.nullNode(), new A2aError(A2aError.PARSE, "Invalid JSON payload")));
            return;
        }
        JsonNode id = call == null ? null : call.get("id");
        if (call == null || !call.isObject() || !"2.0".equals(call.path("jsonrpc").asText()) || !call.path("method").isTextual()) {
            json(resp, 200, error(id == null ? NODES.nullNode() : id, new A2aError(A2aError.INVALID_REQUEST, "Request payload validation error")));
            return;
        }
        String method = call.get("method").asText();
        JsonNode params = call.path("params");
        if (method.equals("message/stream") || method.equals("tasks/resubscribe")) {
            stream(resp, id, method, params, caller.get());
            return;
        }
        JsonNode answer;
        try {
            answer = result(id, call(method, params, caller.get()));
        } catch (A2aError e) {
            answer = error(id, e);
        } catch (RuntimeException e) {
            LOG.warn("A2A {} failed", method, e);
            answer = error(id, A2aError.of(e, params.path("id").asText(params.path("message").path("taskId").asText(""))));
        }
        json(resp, 200, answer);
    }

    private JsonNode call(String method, JsonNode params, Principal caller) {
        try {
            switch (method) {
                case "message/send": {
                    InMessage m = A2aProtocol.message(params);
                    A2aTasks.Started started = m.taskId() == null ? tasks.start(caller, m) : mapped(m.taskId(), () -> tasks.followUp(caller, m));
                    return A2aProtocol.task(mapped(started.ref().id(), () -> tasks.finish(started)));
                }
                case "tasks/get":
                    return A2aProtocol.task(tasks.get(caller, requiredText(params, "id")));
                case "tasks/cancel": {
                    String taskId = requiredText(params, "id");
                    return A2aProtocol.task(mapped(taskId, () -> tasks.cancel(caller, taskId)));
                }
                case "tasks/pushNotificationConfig/set": {
                    Map.Entry<String, PushConfig> set = A2aProtocol.pushSet(params);
                    return A2aProtocol.pushConfig(set.getKey(), tasks.setPush(caller, set.getKey(), set.getValue()));
                }
                case "tasks/pushNotificationConfig/get": {
                    String taskId = requiredText(params, "id");
                    String configId = params.path("pushNotificationConfigId").isTextual() ? params.get("pushNotificationConfigId").asText() : null;
                    TaskRef ref = tasks.access(caller, taskId);
                    for (PushConfig c : tasks.pushConfigs(ref)) {
                        if (configId == null || configId.equals(c.id())) return A2aProtocol.pushConfig(taskId, c);
                    }
                    throw A2aError.invalidParams("task " + taskId + " has no push notification config" + (configId == null ? "" : " " + configId));
                }
                case "tasks/pushNotificationConfig/list": {
                    String taskId = requiredText(params, "id");
                    var list = NODES.arrayNode();
                    for (PushConfig c : tasks.pushConfigs(tasks.access(caller, taskId))) list.add(A2aProtocol.pushConfig(taskId, c));
                    return list;
                }
                case "tasks/pushNotificationConfig/delete": {
                    String taskId = requiredText(params, "id");
                    tasks.deletePush(caller, taskId, requiredText(params, "pushNotificationConfigId"));
                    return NODES.nullNode();
                }
                case "agent/getAuthenticatedExtendedCard":
                    return card;
                default:
                    throw new A2aError(A2aError.METHOD_NOT_FOUND, "Method not found: " + method);
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            throw A2aError.invalidParams("Invalid parameters: " + e.getMessage());
        }
    }

    private static <T> T mapped(String taskId, java.util.function.Supplier<T> f) {
        return A2aTasks.mapped(taskId, f);
    }

    /** {@code message/stream} and {@code tasks/resubscribe}: Server-Sent Events, each a JSON-RPC response. */
    private void stream(HttpServletResponse resp, @Nullable JsonNode id, String method, JsonNode params, Principal caller) throws IOException {
        A2aTasks.Started started;
        TaskView current;
        try {
            if (method.equals("tasks/resubscribe")) {
                started = new A2aTasks.Started(tasks.access(caller, requiredText(params, "id")), null);
            } else {
                InMessage m;
                try {
                    m = A2aProtocol.message(params);
                } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
                    throw A2aError.invalidParams("Invalid parameters: " + e.getMessage());
                }
                started = m.taskId() == null ? tasks.start(caller, m) : mapped(m.taskId(), () -> tasks.followUp(caller, m));
            }
            current = started.stream() == null ? tasks.view(started.ref()) : null;
        } catch (A2aError e) {
            json(resp, 200, error(id, e));
            return;
        } catch (RuntimeException e) {
            LOG.warn("A2A {} failed", method, e);
            json(resp, 200, error(id, A2aError.of(e, "")));
            return;
        }
        resp.setStatus(200);
        resp.setContentType("text/event-stream");
        resp.setCharacterEncoding("UTF-8");
        resp.setHeader("Cache-Control", "no-store");
        OutputStream out = resp.getOutputStream();
        TaskRef ref = started.ref();
        if (started.stream() != null) {
            Map<String, Object> meta = Map.of("batonRunId", ref.runId(), "batonAgentId", tasks.agent.id());
            event(out, id, A2aProtocol.task(new TaskView(ref.id(), ref.contextId(), "working", null, null, null,
                    tasks.agent.clock().instant(), meta)));
            AgentResult result;
            try (AgentStream s = started.stream()) {
                for (AgentEvent ignored : s) {
                    // the run goes on while the events pass; the task's states are what the client sees
                }
                result = s.result();
            } catch (RuntimeException e) {
                LOG.warn("A2A stream of task {} failed", ref.id(), e);
                out.write(("data: " + A2aProtocol.JSON.writeValueAsString(error(id, A2aError.of(e, ref.id()))) + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                return;
            }
            tasks.record(ref, result);
            current = tasks.view(ref);
        }
        event(out, id, A2aProtocol.task(current));
        event(out, id, A2aProtocol.lastStatusUpdate(current));
    }

    private static void event(OutputStream out, @Nullable JsonNode id, JsonNode result) throws IOException {
        out.write(("data: " + A2aProtocol.JSON.writeValueAsString(result(id, result)) + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static String requiredText(JsonNode params, String name) {
        JsonNode v = params.get(name);
        if (v == null || !v.isTextual() || v.asText().isBlank()) throw A2aError.invalidParams("params." + name + " is required");
        return v.asText();
    }

    private static JsonNode result(@Nullable JsonNode id, JsonNode result) {
        ObjectNode r = NODES.objectNode().put("jsonrpc", "2.0");
        r.set("id", id == null ? NODES.nullNode() : id);
        r.set("result", result);
        return r;
    }

    private static JsonNode error(@Nullable JsonNode id, A2aError e) {
        ObjectNode r = NODES.objectNode().put("jsonrpc", "2.0");
        r.set("id", id == null ? NODES.nullNode() : id);
        r.putObject("error").put("code", e.code).put("message", e.getMessage());
        return r;
    }

    /** The body, or null when it is longer than {@code max}. */
    private static byte @Nullable [] read(InputStream in, long max) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) > 0; ) {
            out.write(buf, 0, n);
            if (out.size() > max) return null;
        }
        return out.toByteArray();
    }

    private static void json(HttpServletResponse resp, int status, JsonNode body) throws IOException {
        resp.setStatus(status);
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        resp.getOutputStream().write(A2aProtocol.JSON.writeValueAsBytes(body));
    }

    private static void plain(HttpServletResponse resp, int status, String message) throws IOException {
        resp.setStatus(status);
        resp.setContentType("text/plain");
        resp.setCharacterEncoding("UTF-8");
        resp.getOutputStream().write((message + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Builder of {@link A2aServlet}: not thread-safe. */
    public static final class Builder {
        private final Agent agent;
        private @Nullable Authenticator authenticator;
        private @Nullable URI publicUrl;
        private final List<String> hosts = new ArrayList<>();
        private final List<String> origins = new ArrayList<>();
        private long maxBodyBytes = 1 << 20;
        private String description = "";
        private String version = "1.0.0";

        private Builder(Agent agent) {
            this.agent = agent;
            this.description = agent.instructions() == null ? "" : agent.instructions();
        }

        /**
         * Who calls (required): the HTTP API's authenticators as they are ({@link Authenticator#bearerTokens()},
         * {@link Authenticator#jwt()}, your own). The principal's name is the actor of every decision.
         *
         * @param authenticator the authenticator
         * @return this builder
         */
        public Builder authenticator(Authenticator authenticator) {
            this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
            return this;
        }

        /**
         * The URL clients post to (required): the agent card's {@code url}; its host and port are a Host the
         * server answers to.
         *
         * @param url the servlet's public URL
         * @return this builder
         */
        public Builder publicUrl(URI url) {
            Objects.requireNonNull(url, "url");
            if (url.getAuthority() == null || !(url.getScheme().equals("http") || url.getScheme().equals("https"))) {
                throw new InvalidOptionException("publicUrl", "must be an absolute http or https URL, was " + url);
            }
            this.publicUrl = url;
            return this;
        }

        /**
         * More Host header values the server answers to ({@code host} or {@code host:port}), besides the public URL's.
         *
         * @param hosts the hosts
         * @return this builder
         */
        public Builder allowedHosts(String... hosts) {
            this.hosts.addAll(List.of(hosts));
            return this;
        }

        /**
         * Browser origins allowed to call ({@code https://app.example.com}) besides the server's own; by
         * default none: a browser's request from a page of another origin is refused, as by the HTTP API
         * ({@code SiteGuard}).
         *
         * @param origins the origins
         * @return this builder
         */
        public Builder allowedOrigins(String... origins) {
            this.origins.addAll(List.of(origins));
            return this;
        }

        /**
         * The largest request body, in bytes (default 1 MiB); a larger one answers 413.
         *
         * @param bytes at least 1024
         * @return this builder
         */
        public Builder maxBodyBytes(long bytes) {
            if (bytes < 1024) throw new InvalidOptionException("maxBodyBytes", "must be at least 1024, was " + bytes);
            this.maxBodyBytes = bytes;
            return this;
        }

        /**
         * The agent card's description (default: the agent's instructions).
         *
         * @param description the description
         * @return this builder
         */
        public Builder description(String description) {
            this.description = Objects.requireNonNull(description, "description");
            return this;
        }

        /**
         * The agent card's version (default {@code 1.0.0}).
         *
         * @param version the version
         * @return this builder
         */
        public Builder version(String version) {
            this.version = Objects.requireNonNull(version, "version");
            return this;
        }

        /**
         * {@return the servlet}
         *
         * @throws InvalidOptionException without an authenticator or a public URL, or when the agent's store
         *                                keeps no thread memory
         */
        public A2aServlet build() {
            if (authenticator == null) throw new InvalidOptionException("authenticator", "is required (Authenticator.anonymous() only behind a proxy that authenticates)");
            if (publicUrl == null) throw new InvalidOptionException("publicUrl", "is required: the URL clients post to");
            return new A2aServlet(this);
        }
    }
}
