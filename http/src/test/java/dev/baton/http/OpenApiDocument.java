package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The API's {@code openapi.json}, used to check real responses: the operation must document the
 * status and the content type, and the body must validate (JSON Schema 2020-12, networknt) against
 * the documented schema. Event streams are checked event by event.
 */
final class OpenApiDocument {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final OpenApiDocument INSTANCE = load();

    final JsonNode root;
    private final String defs;
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    private OpenApiDocument(JsonNode root) {
        this.root = root;
        this.defs = root.path("components").path("schemas").toString().replace("#/components/schemas/", "#/$defs/");
    }

    static OpenApiDocument get() {
        return INSTANCE;
    }

    private static OpenApiDocument load() {
        try (InputStream in = BatonHttpApi.class.getResourceAsStream("openapi.json")) {
            return new OpenApiDocument(JSON.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The documented path template matching {@code rawPath}, or null. */
    @Nullable String template(String rawPath) {
        List<String> segments = Router.segments(rawPath);
        for (Iterator<String> it = root.path("paths").fieldNames(); it.hasNext(); ) {
            String t = it.next();
            List<String> parts = t.equals("/") ? List.of() : List.of(t.substring(1).split("/"));
            if (parts.size() != segments.size()) continue;
            boolean ok = true;
            for (int i = 0; i < parts.size() && ok; i++) {
                ok = parts.get(i).startsWith("{") || parts.get(i).equals(segments.get(i));
            }
            if (ok) return t;
        }
        return null;
    }

    /** The errors of {@code json} against {@code schema} (an OpenAPI schema object, refs into components). */
    List<String> errors(JsonNode schema, String json) {
        Schema s = schemas.computeIfAbsent(schema.toString(), key -> {
            ObjectNode wrapper = JSON.createObjectNode();
            wrapper.put("$schema", "https://json-schema.org/draft/2020-12/schema");
            try {
                wrapper.set("$defs", JSON.readTree(defs));
                ObjectNode own = (ObjectNode) JSON.readTree(key.replace("#/components/schemas/", "#/$defs/"));
                wrapper.setAll(own);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return REGISTRY.getSchema(wrapper.toString(), InputFormat.JSON);
        });
        List<String> out = new ArrayList<>();
        for (Error e : s.validate(json, InputFormat.JSON)) out.add(e.getInstanceLocation() + ": " + e.getMessage());
        return out;
    }

    JsonNode component(String name) {
        JsonNode n = root.path("components").path("schemas").path(name);
        assertThat(n.isMissingNode()).as("schema " + name).isFalse();
        return JSON.createObjectNode().put("$ref", "#/components/schemas/" + name);
    }

    /** Checks one real response against the document; unknown paths are checked as problems only. */
    void check(String method, String rawPath, ApiClient.Response r) {
        String where = method + " " + rawPath + " -> " + r.status() + " " + r.contentType() + "\n" + r.body();
        String template = template(rawPath.contains("?") ? rawPath.substring(0, rawPath.indexOf('?')) : rawPath);
        JsonNode operation = template == null ? null : root.path("paths").path(template).path(method.toLowerCase(Locale.ROOT));
        if (operation == null || operation.isMissingNode()) {
            // not an endpoint (404 / 405): still a problem document
            assertThat(r.status()).as(where).isIn(404, 405, 400);
            assertValid(component("Problem"), r.body(), where);
            return;
        }
        JsonNode response = operation.path("responses").path(String.valueOf(r.status()));
        assertThat(response.isMissingNode()).as("status documented for " + where).isFalse();
        if (response.has("$ref")) {
            String ref = response.get("$ref").asText();
            response = root.path("components").path("responses").path(ref.substring(ref.lastIndexOf('/') + 1));
        }
        if (!response.has("content")) {
            // documented without a body (204)
            assertThat(r.body()).as("no body for " + where).isEmpty();
            assertThat(r.contentType()).as("no content type for " + where).isNull();
            return;
        }
        String type = r.contentType() == null ? "" : r.contentType().split(";")[0].trim();
        JsonNode media = response.path("content").path(type);
        assertThat(media.isMissingNode()).as("content type documented for " + where).isFalse();
        if (type.equals("text/event-stream")) {
            for (ApiClient.Event e : r.events()) {
                String schema = switch (e.name()) {
                    case "outcome" -> "StreamOutcome";
                    case "problem" -> "Problem";
                    default -> "AgentEvent";
                };
                assertValid(component(schema), e.data(), where + "\nevent " + e.name());
                if (schema.equals("AgentEvent")) assertThat(e.json().path("type").asText()).as(where).isEqualTo(e.name());
            }
        } else if (type.endsWith("json")) {
            assertValid(media.path("schema"), r.body(), where);
        }
    }

    void assertValid(JsonNode schema, String json, String where) {
        assertThat(errors(schema, json)).as("schema errors of " + where).isEmpty();
    }
}
