package dev.baton.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.agent.Agent;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A request with its route: what a handler works with, once {@link RequestGuard} admitted it. Its
 * principal is authenticated, the agent named by the path exists, and its body (if the route takes
 * one) is a JSON object with only the route's fields.
 *
 * @param http      the request as it came (headers, raw query)
 * @param route     the route it matched
 * @param params    the path parameters, decoded
 * @param principal who calls; null only on a public route
 * @param agent     the agent named by {@code {agentId}}, or null if the route names none
 * @param body      the body ({@code {}} when the route takes none, or an optional one was empty)
 */
record ParsedRequest(HttpServletRequest http, Router.Route route, Map<String, String> params, @Nullable Principal principal,
                     @Nullable Agent agent, ObjectNode body) {

    static final String JSON = "application/json";
    static final String EVENT_STREAM = "text/event-stream";

    ParsedRequest {
        params = Map.copyOf(params);
    }

    /** Whether the route takes a body (to be read, within the limit, before {@link RequestGuard#parse}). */
    boolean takesBody() {
        return route.body().kind() != Router.Body.Kind.NONE;
    }

    /** The caller (every route but the public ones has one). */
    Principal caller() {
        return Objects.requireNonNull(principal, "a public route has no principal");
    }

    /** The agent of the path (every route with {@code {agentId}} has one). */
    Agent target() {
        return Objects.requireNonNull(agent, "this route names no agent");
    }

    /** The {@code {runId}} of the path. */
    String runId() {
        return Objects.requireNonNull(params.get("runId"), "this route names no run");
    }

    /** The query string without {@code ?}, still percent-encoded, or null. */
    @Nullable String rawQuery() {
        return http.getQueryString();
    }

    /** The first value of a header, or null. */
    @Nullable String header(String name) {
        return http.getHeader(name);
    }

    /**
     * True if the caller asked for the drained result instead of events: {@code Accept} names
     * {@code application/json} before (or without) {@code text/event-stream}.
     */
    boolean wantsJson() {
        String accept = header("Accept");
        for (String range : accept == null ? new String[0] : accept.split(",")) {
            String type = range.split(";")[0].trim().toLowerCase(Locale.ROOT);
            if (type.equals(EVENT_STREAM)) return false;
            if (type.equals(JSON)) return true;
        }
        return false;
    }

    /** A string field of the body: absent or null is null (or a 400 if required); another type is a 400. */
    @Nullable String string(String field, boolean required) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) {
            if (required) throw Problem.invalidOption(field, "is required").raise();
            return null;
        }
        if (!v.isTextual()) throw Problem.invalidOption(field, "must be a string").raise();
        String s = v.asText();
        if (required && s.isBlank()) throw Problem.invalidOption(field, "must not be blank").raise();
        return s;
    }

    /** A required, non-blank string field of the body. */
    String requiredString(String field) {
        return Objects.requireNonNull(string(field, true));
    }
}
