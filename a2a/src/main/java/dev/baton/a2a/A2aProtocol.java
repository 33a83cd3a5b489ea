package dev.baton.a2a;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.a2a.spec.AgentCapabilities;
import io.a2a.spec.AgentCard;
import io.a2a.spec.AgentSkill;
import io.a2a.spec.Artifact;
import io.a2a.spec.DataPart;
import io.a2a.spec.EventKind;
import io.a2a.spec.Message;
import io.a2a.spec.MessageSendConfiguration;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.Part;
import io.a2a.spec.PushNotificationConfig;
import io.a2a.spec.Task;
import io.a2a.spec.TaskPushNotificationConfig;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.a2a.spec.TextPart;
import io.a2a.util.Utils;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The only place that knows the A2A SDK's types: Baton's tasks, messages and cards to and from the
 * SDK's protocol 0.3 objects, and those to and from JSON. Moving to the 1.x SDK changes this class
 * (and {@link RemoteAgent}), nothing else.
 */
final class A2aProtocol {
    /** The protocol version the SDK speaks. */
    static final String PROTOCOL_VERSION = "0.3.0";
    /** The SDK's mapper: the JSON of the protocol as the SDK writes and reads it. */
    static final ObjectMapper JSON = Utils.OBJECT_MAPPER;

    private A2aProtocol() {
    }

    /** A task as Baton sees it, protocol-neutral. */
    record TaskView(String taskId, String contextId, String state, @Nullable String text, @Nullable JsonNode data,
                    @Nullable String resultText, Instant at, Map<String, Object> metadata) {
        boolean isFinal() {
            return TaskState.fromString(state).isFinal();
        }
    }

    /** One message part as Baton reads it. */
    record InPart(@Nullable String text, @Nullable JsonNode data) {
    }

    /** A message received: what Baton needs of it. */
    record InMessage(String messageId, @Nullable String taskId, @Nullable String contextId, List<InPart> parts,
                     @Nullable JsonNode metadata, @Nullable PushConfig push) {
        /** The text parts, joined, and each data part as JSON text. */
        String prompt() {
            List<String> texts = new ArrayList<>();
            for (InPart p : parts) texts.add(p.text() != null ? p.text() : String.valueOf(p.data()));
            return String.join("\n", texts);
        }
    }

    /** A push notification config, protocol-neutral. */
    record PushConfig(String id, String url, @Nullable String token) {
    }

    static InMessage message(JsonNode params) throws JsonProcessingException {
        MessageSendParams p = JSON.treeToValue(params, MessageSendParams.class);
        Message m = p.message();
        if (m == null) throw new IllegalArgumentException("params.message is required");
        List<InPart> parts = new ArrayList<>();
        for (Part<?> part : m.getParts()) {
            if (part instanceof TextPart t) parts.add(new InPart(t.getText(), null));
            else if (part instanceof DataPart d) parts.add(new InPart(null, JSON.valueToTree(d.getData())));
            else throw new IllegalArgumentException("only text and data parts are understood, not " + part.getKind().asString());
        }
        PushConfig push = null;
        MessageSendConfiguration conf = p.configuration();
        if (conf != null && conf.pushNotificationConfig() != null) push = push(conf.pushNotificationConfig(), null);
        JsonNode metadata = m.getMetadata() == null ? null : JSON.valueToTree(m.getMetadata());
        return new InMessage(m.getMessageId(), m.getTaskId(), m.getContextId(), parts, metadata, push);
    }

    private static PushConfig push(PushNotificationConfig c, @Nullable String defaultId) {
        if (c.url() == null || c.url().isBlank()) throw new IllegalArgumentException("pushNotificationConfig.url is required");
        String id = c.id() != null ? c.id() : defaultId != null ? defaultId : UUID.randomUUID().toString();
        return new PushConfig(id, c.url(), c.token());
    }

    /** The task and config of {@code tasks/pushNotificationConfig/set}. */
    static Map.Entry<String, PushConfig> pushSet(JsonNode params) throws JsonProcessingException {
        TaskPushNotificationConfig c = JSON.treeToValue(params, TaskPushNotificationConfig.class);
        if (c.taskId() == null || c.pushNotificationConfig() == null) throw new IllegalArgumentException("taskId and pushNotificationConfig are required");
        return Map.entry(c.taskId(), push(c.pushNotificationConfig(), c.taskId()));
    }

    static JsonNode pushConfig(String taskId, PushConfig c) {
        return JSON.valueToTree(new TaskPushNotificationConfig(taskId, new PushNotificationConfig(c.url(), c.token(), null, c.id())));
    }

    static JsonNode task(TaskView v) {
        return JSON.valueToTree(toTask(v));
    }

    private static Task toTask(TaskView v) {
        List<Artifact> artifacts = v.resultText() == null ? List.of()
                : List.of(new Artifact("result", "result", null, List.of(new TextPart(v.resultText())), null, null));
        return new Task(v.taskId(), v.contextId(), status(v), artifacts, List.of(), v.metadata());
    }

    private static TaskStatus status(TaskView v) {
        Message message = null;
        if (v.text() != null || v.data() != null) {
            List<Part<?>> parts = new ArrayList<>();
            if (v.text() != null) parts.add(new TextPart(v.text()));
            if (v.data() != null) parts.add(new DataPart(map(v.data())));
            message = new Message(Message.Role.AGENT, parts, UUID.randomUUID().toString(), v.contextId(), v.taskId(),
                    null, null, null);
        }
        return new TaskStatus(TaskState.fromString(v.state()), message, OffsetDateTime.ofInstant(v.at(), ZoneOffset.UTC));
    }

    /** The last {@code status-update} event of a stream: {@code final} (the stream ends) also when the task waits for input. */
    static JsonNode lastStatusUpdate(TaskView v) {
        return JSON.valueToTree(new TaskStatusUpdateEvent(v.taskId(), status(v), v.contextId(), true, v.metadata()));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(JsonNode data) {
        if (data.isObject()) return JSON.convertValue(data, Map.class);
        Map<String, Object> wrapped = new LinkedHashMap<>();
        wrapped.put("value", JSON.convertValue(data, Object.class));
        return wrapped;
    }

    /** The agent card: one skill per tool (and one for the agent itself when it has none). */
    static JsonNode card(String name, String description, String url, String version, List<String[]> skills,
                         boolean pushNotifications) {
        List<AgentSkill> list = new ArrayList<>();
        for (String[] s : skills) {
            list.add(new AgentSkill(s[0], s[0], s[1].isBlank() ? s[0] : s[1], List.of("baton"), List.of(), List.of(), List.of(), List.of()));
        }
        AgentCard card = new AgentCard(name, description, url, null, version, null,
                new AgentCapabilities(true, pushNotifications, false, List.of()),
                List.of("text/plain", "application/json"), List.of("text/plain", "application/json"), list,
                false, Map.of(), List.of(), null, List.of(), "JSONRPC", PROTOCOL_VERSION, List.of());
        ObjectNode json = JSON.valueToTree(card);
        return json;
    }

    /** Reads any SDK event kind (a task or a message) as the client side sees it. */
    static RemoteAgent.Reply reply(EventKind kind) {
        if (kind instanceof Task t) {
            StringBuilder result = new StringBuilder();
            if (t.getArtifacts() != null) {
                for (Artifact a : t.getArtifacts()) append(result, a.parts());
            }
            StringBuilder question = new StringBuilder();
            JsonNode data = null;
            if (t.getStatus().message() != null) {
                append(question, t.getStatus().message().getParts());
                for (Part<?> p : t.getStatus().message().getParts()) {
                    if (p instanceof DataPart d) data = JSON.valueToTree(d.getData());
                }
            }
            return new RemoteAgent.Reply(t.getId(), t.getContextId(), t.getStatus().state().asString(),
                    result.toString(), question.toString(), data);
        }
        if (kind instanceof Message m) {
            StringBuilder text = new StringBuilder();
            append(text, m.getParts());
            return new RemoteAgent.Reply(null, m.getContextId(), TaskState.COMPLETED.asString(), text.toString(), "", null);
        }
        throw new IllegalStateException("unexpected A2A reply " + kind);
    }

    private static void append(StringBuilder out, List<Part<?>> parts) {
        for (Part<?> p : parts) {
            if (out.length() > 0) out.append('\n');
            if (p instanceof TextPart t) out.append(t.getText());
            else if (p instanceof DataPart d) out.append(Utils.toJsonString(d.getData()));
        }
    }

    /** The SDK's send parameters of a message from Baton's client side. */
    static MessageSendParams send(String messageId, @Nullable String taskId, @Nullable String contextId, JsonNode content) {
        Part<?> part = content.isObject() ? new DataPart(map(content)) : new TextPart(content.isTextual() ? content.asText() : content.toString());
        Message m = new Message(Message.Role.USER, List.of(part), messageId, contextId, taskId, null, null, null);
        return new MessageSendParams(m, new MessageSendConfiguration(List.of("text/plain", "application/json"), null, null, true), null);
    }

    static boolean isFinal(String state) {
        return TaskState.fromString(state).isFinal();
    }
}
