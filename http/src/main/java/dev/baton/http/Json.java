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
import dev.baton.tool.Tool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The API's JSON: one mapper, reading a request body, and the shapes of the agents and the caller.
 * Runs are written by {@link RunJson}, events and results by {@link EventJson}, problems by
 * {@link Problem#toJson}. The shapes and the schemas in {@code openapi.json} describe the same
 * thing; {@code OpenApiConformanceTest} checks real responses against the schemas.
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

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

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

    static void putNullable(ObjectNode n, String field, @Nullable String value) {
        if (value == null) n.putNull(field);
        else n.put(field, value);
    }

    static String instant(Instant t) {
        return t.toString();
    }
}
