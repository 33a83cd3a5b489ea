package dev.baton.http;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.eclipse.jetty.util.Utf8StringBuilder;
import org.jspecify.annotations.Nullable;

/**
 * Method + path template to one handler. The path is split on {@code /} first and each segment
 * percent-decoded after, once, here: an id holding {@code %2F} stays one segment, and a bad escape
 * is a 400 before anything else looks at the request. A path no route has is a 404; a path some
 * route has, with another method, is a 405 naming the allowed ones. Routes are tried in order.
 */
final class Router {

    /** Answers one admitted request, or throws (a {@link Problem}, or an exception {@link Problem#from} maps). */
    @FunctionalInterface
    interface Handler {
        ApiResponse handle(ParsedRequest request);
    }

    /** Who may call a route: anyone (files that hold no data), or an authenticated principal. */
    enum Access { PUBLIC, AUTHENTICATED }

    /**
     * The body a route takes: none (never read), required, or optional (no bytes reads as
     * {@code {}}); when there is one, a JSON object with only these fields.
     */
    record Body(Kind kind, Set<String> fields) {
        enum Kind { NONE, REQUIRED, OPTIONAL }

        static final Body NONE = new Body(Kind.NONE, Set.of());

        Body {
            fields = Set.copyOf(fields);
        }

        static Body required(String... fields) {
            return new Body(Kind.REQUIRED, Set.of(fields));
        }

        static Body optional(String... fields) {
            return new Body(Kind.OPTIONAL, Set.of(fields));
        }
    }

    /** One route: {@code GET /agents/{agentId}/suspended-runs} and what it needs. */
    record Route(String method, String template, Access access, Body body, Handler handler) {
        Route {
            if (!template.startsWith("/")) throw new IllegalArgumentException("a template starts with /: " + template);
            Objects.requireNonNull(handler, "handler");
        }

        static Route get(String template, Access access, Handler handler) {
            return new Route("GET", template, access, Body.NONE, handler);
        }

        static Route post(String template, Body body, Handler handler) {
            return new Route("POST", template, Access.AUTHENTICATED, body, handler);
        }

        static Route delete(String template, Handler handler) {
            return new Route("DELETE", template, Access.AUTHENTICATED, Body.NONE, handler);
        }

        /** {@code METHOD /template}: how {@code openapi.json} names it. */
        String name() {
            return method + " " + template;
        }

        /** The template's segments ({@code /} has none). */
        List<String> parts() {
            return template.equals("/") ? List.of() : List.of(template.substring(1).split("/"));
        }
    }

    private final List<Route> routes;

    Router(List<Route> routes) {
        this.routes = List.copyOf(routes);
        Set<String> names = new LinkedHashSet<>();
        for (Route r : routes) {
            if (!names.add(r.name())) throw new IllegalArgumentException("two routes are " + r.name());
        }
    }

    /** Every route as {@code METHOD /template}, in order. */
    List<String> names() {
        return routes.stream().map(Route::name).toList();
    }

    /**
     * The request with its route and path parameters (not admitted yet), or a 404 / 405 / 400 (a bad escape) problem.
     *
     * @param rawPath the path below where the API is mounted, still percent-encoded
     */
    ParsedRequest match(HttpServletRequest request, String rawPath) {
        String method = request.getMethod().toUpperCase(Locale.ROOT);
        List<String> path = segments(rawPath);
        Set<String> allowed = new LinkedHashSet<>();
        for (Route route : routes) {
            Map<String, String> params = match(route.parts(), path);
            if (params == null) continue;
            allowed.add(route.method());
            if (route.method().equals(method)) return new ParsedRequest(request, route, params, null, null, Json.object());
        }
        if (!allowed.isEmpty()) {
            throw Problem.of(405, "method-not-allowed", "Method not allowed",
                            method + " is not allowed here; allowed: " + String.join(", ", allowed))
                    .withHeader("Allow", String.join(", ", allowed)).raise();
        }
        throw Problem.notFound(method, rawPath).raise();
    }

    /** The named segments of {@code template}'s parts in {@code path}, or null if it does not match. */
    private static @Nullable Map<String, String> match(List<String> template, List<String> path) {
        if (template.size() != path.size()) return null;
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < template.size(); i++) {
            String part = template.get(i);
            if (part.startsWith("{")) {
                params.put(part.substring(1, part.length() - 1), path.get(i));
            } else if (!part.equals(path.get(i))) {
                return null;
            }
        }
        return params;
    }

    /** The path's segments, each percent-decoded after splitting, so {@code %2F} stays inside its segment. */
    static List<String> segments(String rawPath) {
        List<String> out = new ArrayList<>();
        if (rawPath.equals("/")) return out;
        for (String s : rawPath.substring(1).split("/", -1)) out.add(decodePathSegment(s));
        return out;
    }

    /**
     * RFC 3986 percent-decoding of one path segment, as UTF-8 (strict: a bad escape or byte is a 400); {@code +} stays
     * {@code +}. The escaped bytes go to Jetty's {@link Utf8StringBuilder}, the characters as they are.
     */
    static String decodePathSegment(String s) {
        if (s.indexOf('%') < 0) return s;
        Utf8StringBuilder decoded = new Utf8StringBuilder(s.length());
        try {
            for (int i = 0; i < s.length(); i++) {
                if (s.charAt(i) == '%') {
                    decoded.append((byte) HexFormat.fromHexDigits(s, i + 1, i + 3));   // throws for a bad or short escape
                    i += 2;
                } else {
                    decoded.append(s.charAt(i));
                }
            }
            return decoded.build();
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw Problem.invalidOption("path", "bad percent-escape in a path segment").raise();
        } catch (CharacterCodingException e) {   // build() reports malformed or truncated UTF-8: no silent U+FFFD
            throw Problem.invalidOption("path", "a segment is not UTF-8 once percent-decoded").raise();
        }
    }
}
