package dev.baton.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.tool.Tool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The API's JSON: one mapper, and the shape of every value the API writes. The shapes here and the
 * schemas in {@code openapi.json} describe the same thing; {@code OpenApiConformanceTest} checks
 * real responses against the schemas.
 */
final class Json {
    static final JsonMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build());
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Json() {
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The body as a JSON object, or a 400 naming {@code body}. */
    static ObjectNode parseObject(byte[] body) {
        if (body.length == 0) throw Problem.invalidOption("body", "a JSON object is required, the body is empty").raise();
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw Problem.invalidOption("body", "not valid JSON: " + e.getOriginalMessage()).raise();
        } catch (IOException e) {
            throw Problem.invalidOption("body", "unreadable: " + e.getMessage()).raise();
        }
        if (node == null || !node.isObject()) {
            throw Problem.invalidOption("body", "must be a JSON object, was " + (node == null ? "nothing" : node.getNodeType().name().toLowerCase(java.util.Locale.ROOT))).raise();
        }
        return (ObjectNode) node;
    }

    // ---- values the API writes ---------------------------------------------------------------

    static ObjectNode problem(Problem p) {
        ObjectNode n = object();
        n.put("type", p.type());
        n.put("title", p.title());
        n.put("status", p.status());
        n.put("detail", p.detail());
        for (Map.Entry<String, Object> e : p.extensions().entrySet()) n.set(e.getKey(), MAPPER.valueToTree(e.getValue()));
        return n;
    }

    static ObjectNode agent(Agent agent) {
        ObjectNode n = object();
        n.put("id", agent.id());
        n.put("instructions", agent.instructions());
        ArrayNode tools = n.putArray("tools");
        for (Tool t : agent.tools().values().stream().sorted(java.util.Comparator.comparing(Tool::name)).toList()) {
            ObjectNode tool = tools.addObject();
            tool.put("name", t.name());
            tool.put("description", t.description());
        }
        return n;
    }

    /**
     * A listing page.
     *
     * @param page  the zero-based page asked for, or null when the page continued after a cursor
     * @param asOf  the agent's clock when the page was read: what {@code expiresAt} compares with
     */
    static ObjectNode page(AgentListSuspendedRunsResult found, @Nullable Integer page, int perPage, Instant asOf) {
        ObjectNode n = object();
        ArrayNode runs = n.putArray("runs");
        for (AgentRun r : found.runs()) runs.add(run(r));
        n.put("total", found.total());
        if (page == null) n.putNull("page");
        else n.put("page", page.intValue());
        n.put("perPage", perPage);
        putNullable(n, "nextCursor", found.nextCursor());
        n.put("asOf", instant(asOf));
        return n;
    }

    static ObjectNode run(AgentRun r) {
        ObjectNode n = object();
        n.put("runId", r.runId());
        n.put("status", r.status().name());
        putNullable(n, "threadId", r.threadId());
        putNullable(n, "resourceId", r.resourceId());
        n.put("createdAt", instant(r.createdAt()));
        n.put("suspendedAt", instant(r.suspendedAt()));
        putNullable(n, "expiresAt", r.expiresAt() == null ? null : instant(r.expiresAt()));
        n.put("interrupted", r.interrupted());
        putNullable(n, "interruption", r.interruption());
        putNullable(n, "parentRunId", r.parentRunId());
        ArrayNode calls = n.putArray("toolCalls");
        for (AgentRunToolCall c : r.toolCalls()) calls.add(call(c));
        return n;
    }

    static ObjectNode call(AgentRunToolCall c) {
        ObjectNode n = object();
        n.put("toolCallId", c.toolCallId());
        n.put("toolName", c.toolName());
        n.put("requiresApproval", c.requiresApproval());
        n.set("args", c.args() == null ? NODES.nullNode() : c.args());
        n.set("suspendPayload", c.suspendPayload() == null ? NODES.nullNode() : c.suspendPayload());
        putNullable(n, "expiresAt", c.expiresAt() == null ? null : instant(c.expiresAt()));
        return n;
    }

    /** An event: {@code type}, {@code runId}, then the fields of its kind. A failure's exception is never written. */
    static ObjectNode event(AgentEvent e) {
        ObjectNode n = object();
        n.put("type", e.type());
        n.put("runId", e.runId());
        if (e instanceof AgentEvent.StepStart s) {
            n.put("step", s.step());
        } else if (e instanceof AgentEvent.TextDelta t) {
            n.put("text", t.text());
        } else if (e instanceof AgentEvent.ToolCall c) {
            toolCall(n, c.toolCallId(), c.toolName());
            n.set("args", c.args());
        } else if (e instanceof AgentEvent.ToolCallApproval a) {
            toolCall(n, a.toolCallId(), a.toolName());
            n.set("args", a.args());
        } else if (e instanceof AgentEvent.ToolCallSuspended s) {
            toolCall(n, s.toolCallId(), s.toolName());
            n.set("args", s.args());
            n.set("suspendPayload", s.suspendPayload());
        } else if (e instanceof AgentEvent.ToolResult r) {
            toolCall(n, r.toolCallId(), r.toolName());
            n.set("result", r.result());
        } else if (e instanceof AgentEvent.ToolError r) {
            toolCall(n, r.toolCallId(), r.toolName());
            n.put("error", r.error());
        } else if (e instanceof AgentEvent.ToolOutputDenied d) {
            toolCall(n, d.toolCallId(), d.toolName());
            n.put("reason", d.reason());
        } else if (e instanceof AgentEvent.StepFinish f) {
            n.put("step", f.step());
            n.put("finishReason", f.finishReason());
        } else if (e instanceof AgentEvent.Finish f) {
            n.put("finishReason", f.finishReason());
            n.put("text", f.text());
        } else if (e instanceof AgentEvent.Cancelled c) {
            n.put("reason", c.reason());
        } else if (e instanceof AgentEvent.Error err) {
            n.put("message", err.message());
        }
        return n;
    }

    private static void toolCall(ObjectNode n, String toolCallId, String toolName) {
        n.put("toolCallId", toolCallId);
        n.put("toolName", toolName);
    }

    /**
     * How a stream ended: the drained result without its events (the closing {@code outcome} event).
     * {@code error} is the message of what stopped a {@code FAILED} or {@code INTERRUPTED} run (for an
     * interrupted one, a {@link dev.baton.RunInterruptedException}'s, naming its cause); never a stack trace.
     */
    static ObjectNode outcome(AgentResult r) {
        ObjectNode n = object();
        n.put("runId", r.runId());
        n.put("outcome", r.outcome().name());
        n.put("text", r.text());
        ArrayNode waiting = n.putArray("waitingCalls");
        for (AgentRunToolCall c : r.waitingCalls()) waiting.add(call(c));
        putNullable(n, "error", r.error() == null ? null : String.valueOf(r.error().getMessage()));
        return n;
    }

    /** A drained result: the outcome and every event. */
    static ObjectNode result(AgentResult r) {
        ObjectNode n = outcome(r);
        ArrayNode events = NODES.arrayNode();
        for (AgentEvent e : r.events()) events.add(event(e));
        n.set("events", events);
        return n;
    }

    static ObjectNode principal(Principal p) {
        ObjectNode n = object();
        n.put("name", p.name());
        if (p.resourceIds() == null) {
            n.putNull("resourceIds");
        } else {
            ArrayNode ids = n.putArray("resourceIds");
            p.resourceIds().stream().sorted().forEach(ids::add);
        }
        return n;
    }

    static ObjectNode agents(List<Agent> agents) {
        ObjectNode n = object();
        ArrayNode list = n.putArray("agents");
        for (Agent a : agents) list.add(agent(a));
        return n;
    }

    private static void putNullable(ObjectNode n, String field, @Nullable String value) {
        if (value == null) n.putNull(field);
        else n.put(field, value);
    }

    static String instant(Instant t) {
        return t.toString();
    }
}
