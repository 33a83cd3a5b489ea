package dev.baton.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.agent.Agent;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Request admission: the one place a request is checked before any handler sees it, in two steps
 * ({@link #admit} before the body is read, {@link #parse} after). A route
 * without credentials ({@link Router.Access#PUBLIC}) is admitted as it is; any other, in this order:
 * <ol>
 *   <li>for every {@code POST}, {@code PUT} or {@code PATCH}, whatever its route and body (none
 *       included): {@code Content-Type} JSON ({@code application/json} or {@code *+json}), else 415.
 *       A browser sends no such request for a page of another origin without a CORS preflight,
 *       which this API never answers: no form, {@code sendBeacon} or {@code no-cors} fetch;</li>
 *   <li>credentials, through the {@link Authenticator} (401, with {@code WWW-Authenticate});</li>
 *   <li>the agent named by {@code {agentId}} (404 {@code agent-not-found});</li>
 *   <li>the body, for a route that takes one: {@code Content-Type} JSON (415), at most
 *       {@code maxBodyBytes} (413: the servlet checks the declared length before reading, then the
 *       bytes as they come), a JSON object (400 {@code body}) with only the route's fields (400
 *       naming the field). An optional body may be empty: no bytes is {@code {}}.</li>
 * </ol>
 * Where a request comes from ({@code Host}, {@code Origin}, {@code Sec-Fetch-Site}) is checked before
 * it is routed, by {@link SiteGuard}.
 */
final class RequestGuard {
    private static final Set<String> BODY_METHODS = Set.of("POST", "PUT", "PATCH");
    private final Authenticator authenticator;
    private final Map<String, Agent> agents;
    private final int maxBodyBytes;

    RequestGuard(Authenticator authenticator, Map<String, Agent> agents, int maxBodyBytes) {
        this.authenticator = authenticator;
        this.agents = Map.copyOf(agents);
        this.maxBodyBytes = maxBodyBytes;
    }

    /** The routed request, admitted (who calls, which agent; its body not read yet), or a problem. */
    ParsedRequest admit(ParsedRequest routed) {
        HttpServletRequest request = routed.http();
        if (BODY_METHODS.contains(request.getMethod().toUpperCase(Locale.ROOT))) requireJson(request);
        if (routed.route().access() == Router.Access.PUBLIC) return routed;
        Principal principal = authenticate(request);
        String agentId = routed.params().get("agentId");
        return new ParsedRequest(request, routed.route(), routed.params(), principal, agentId == null ? null : agent(agentId),
                routed.body());
    }

    /** The admitted request with its body ({@code bytes}, read within the limit; empty for none), or a problem. */
    ParsedRequest parse(ParsedRequest a, byte[] bytes) {
        Router.Body spec = a.route().body();
        if (!a.takesBody() || (spec.kind() == Router.Body.Kind.OPTIONAL && bytes.length == 0)) return a;
        return new ParsedRequest(a.http(), a.route(), a.params(), a.principal(), a.agent(), parse(spec, bytes));
    }

    private Principal authenticate(HttpServletRequest request) {
        Optional<Principal> p = authenticator.authenticate(request);
        if (p.isPresent()) return p.get();
        boolean sent = request.getHeader("Authorization") != null;
        String challenge = sent ? "Bearer realm=\"baton\", error=\"invalid_token\"" : "Bearer realm=\"baton\"";
        throw Problem.of(401, "unauthorized", "Unauthorized",
                        sent ? "The credentials were not accepted." : "This endpoint needs credentials: Authorization: Bearer <token>.")
                .withHeader("WWW-Authenticate", challenge).raise();
    }

    private Agent agent(String id) {
        Agent a = agents.get(id);
        if (a == null) throw Problem.agentNotFound(id).raise();
        return a;
    }

    // ---- bodies ------------------------------------------------------------------------------

    /** 415 unless the request says its body (even an empty one) is JSON. */
    private static void requireJson(HttpServletRequest request) {
        String contentType = request.getHeader("Content-Type");
        String type = contentType == null ? "" : contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
        if (!type.equals(ParsedRequest.JSON) && !(type.startsWith("application/") && type.endsWith("+json"))) {
            throw Problem.of(415, "unsupported-media-type", "Unsupported media type",
                            "Content-Type must be application/json on every POST, an empty body included; was "
                                    + (type.isEmpty() ? "none" : type) + ".")
                    .with("option", "Content-Type").withHeader("Accept-Post", ParsedRequest.JSON).raise();
        }
    }

    private static ObjectNode parse(Router.Body spec, byte[] bytes) {
        ObjectNode body = Json.parseObject(bytes);
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!spec.fields().contains(name)) {
                throw Problem.invalidOption(name, "unknown field; this request takes " + new TreeSet<>(spec.fields())).raise();
            }
        }
        return body;
    }

    /** 413, for a body declared or found over the limit (the servlet reads it). */
    Problem.Raised tooLarge() {
        return Problem.of(413, "body-too-large", "Request body too large",
                        "The body is larger than the limit of " + maxBodyBytes + " bytes.")
                .with("option", "body").with("maxBodyBytes", maxBodyBytes)
                .withHeader("Connection", "close").raise();
    }
}
