package dev.baton.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.baton.agent.Agent;
import dev.baton.tool.Tool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
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

    /** How deep a body may nest (a bomb of brackets is refused before it costs anything). */
    private static final int MAX_NESTING = 64;

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build());
    }

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Json() {
    }

    static ObjectNode object() {
        return NODES.objectNode();
    }

    static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(JsonNode node) {
        return new String(bytes(node), java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * What is wrong with a body, in the API's words: the parser's message without the names of its
     * own classes and settings (a client cannot enable {@code JsonReadFeature}s or raise
     * {@code StreamReadConstraints}).
     */
    static String inApiWords(JsonProcessingException e) {
        if (e instanceof com.fasterxml.jackson.core.exc.StreamConstraintsException) {
            String m = String.valueOf(e.getOriginalMessage());
            if (m.contains("nesting depth")) return "nested deeper than " + MAX_NESTING + " levels";
            return "over the parser's limits (length of a number, a string or a name)";
        }
        String m = String.valueOf(e.getOriginalMessage());
        java.util.regex.Matcher nonNumeric = NON_NUMERIC.matcher(m);
        if (nonNumeric.find()) return "'" + nonNumeric.group(1) + "' is not a JSON value (NaN and Infinity are not JSON numbers)";
        // "...: enable `JsonReadFeature.X` to allow", "(..., from `StreamReadConstraints...`)": Jackson's advice to a programmer
        m = m.replaceAll("\\s*\\([^()]*`[^`]*`[^()]*\\)", "").replaceAll(";?\\s*(?:enable|disable|use|set) `[^`]*`[^;.]*", "");
        return m.replace("`", "'").trim();
    }

    private static final java.util.regex.Pattern NON_NUMERIC = java.util.regex.Pattern.compile("Non-standard token '([^']*)'");

    /** The body as a JSON object, or a 400 naming {@code body}. */
    static ObjectNode parseObject(byte[] body) {
        if (body.length == 0) throw Problem.invalidOption("body", "a JSON object is required, the body is empty").raise();
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw Problem.invalidOption("body", "not valid JSON: " + inApiWords(e)).raise();
        } catch (IOException e) {
            throw Problem.invalidOption("body", "unreadable: " + e.getMessage()).raise();
        }
        if (node == null || !node.isObject()) {
            throw Problem.invalidOption("body", "must be a JSON object, was " + (node == null ? "nothing" : node.getNodeType().name().toLowerCase(java.util.Locale.ROOT))).raise();
        }
        return (ObjectNode) node;
    }

    // ---- values the API writes ---------------------------------------------------------------

    /** {@code GET /me}: the caller, the resources it may see (null: all), its roles. */
    record Me(String name, @Nullable Set<String> resourceIds, Set<String> roles) {
        Me(Principal p) {
            this(p.name(), p.resourceIds(), p.roles());
        }
    }

    /** An agent of {@code GET /agents}, its tools by name; without {@code details}, instructions and descriptions are null. */
    record AgentView(String id, @Nullable String instructions, List<ToolView> tools) {
        AgentView(Agent a, boolean details) {
            this(a.id(), details ? a.instructions() : null, a.tools().values().stream().sorted(Comparator.comparing(Tool::name))
                    .map(t -> new ToolView(t.name(), details ? t.description() : null)).toList());
        }
    }

    /** A tool of an {@link AgentView}. */
    record ToolView(String name, @Nullable String description) {
    }
}
