package dev.baton.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.agent.Agent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Request admission: the one place a request is checked before any handler sees it. A route
 * without credentials ({@link Router.Access#PUBLIC}) is admitted as it is; any other, in this order:
 * <ol>
 *   <li>credentials, through the {@link Authenticator} (401, with {@code WWW-Authenticate});</li>
 *   <li>the agent named by {@code {agentId}} (404 {@code agent-not-found});</li>
 *   <li>the body, for a route that takes one: {@code Content-Type} JSON (415), at most
 *       {@code maxBodyBytes} (413, by the declared length before reading, then while reading), a JSON
 *       object (400 {@code body}) with only the route's fields (400 naming the field). An optional
 *       body is read first: no bytes is {@code {}}, whatever its type.</li>
 * </ol>
 * Checks of where a request comes from ({@code Origin}, {@code Host}) belong here too.
 */
final class RequestGuard {
    private final Authenticator authenticator;
    private final Map<String, Agent> agents;
    private final int maxBodyBytes;

    RequestGuard(Authenticator authenticator, Map<String, Agent> agents, int maxBodyBytes) {
        this.authenticator = authenticator;
        this.agents = Map.copyOf(agents);
        this.maxBodyBytes = maxBodyBytes;
    }

    /** The request, admitted for {@code match}'s route, or a problem. */
    ParsedRequest admit(ApiRequest request, Router.Match match) {
        Router.Route route = match.route();
        if (route.access() == Router.Access.PUBLIC) {
            return new ParsedRequest(request, match.params(), null, null, Json.object());
        }
        Principal principal = authenticate(request);
        String agentId = match.params().get("agentId");
        Agent agent = agentId == null ? null : agent(agentId);
        return new ParsedRequest(request, match.params(), principal, agent, body(request, route.body()));
    }

    private Principal authenticate(ApiRequest request) {
        Optional<Principal> p = authenticator.authenticate(request);
        if (p.isPresent()) return p.get();
        boolean sent = request.header("Authorization") != null;
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

    private ObjectNode body(ApiRequest request, Router.Body spec) {
        switch (spec.kind()) {
            case NONE:
                return Json.object();   // never read: the adapter drains or closes it
            case REQUIRED:
                return parse(request, spec, null);
            case OPTIONAL:
                byte[] bytes = read(request);
                return bytes.length == 0 ? Json.object() : parse(request, spec, bytes);
            default:
                throw new IllegalStateException("body kind " + spec.kind());
        }
    }

    private ObjectNode parse(ApiRequest request, Router.Body spec, byte @Nullable [] read) {
        String contentType = request.header("Content-Type");
        if (contentType != null) {
            String type = contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
            if (!type.equals(ParsedRequest.JSON) && !type.endsWith("+json")) {
                throw Problem.of(415, "unsupported-media-type", "Unsupported media type",
                        "The body must be application/json, was " + type + ".").with("option", "Content-Type").raise();
            }
        }
        ObjectNode body = Json.parseObject(read != null ? read : read(request));
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!spec.fields().contains(name)) {
                throw Problem.invalidOption(name, "unknown field; this request takes " + new TreeSet<>(spec.fields())).raise();
            }
        }
        return body;
    }

    private byte[] read(ApiRequest request) {
        String length = request.header("Content-Length");
        if (length != null) {
            long declared;
            try {
                declared = Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                throw Problem.invalidOption("Content-Length", "not a number").raise();
            }
            if (declared > maxBodyBytes) throw tooLarge();
        }
        try (InputStream in = request.body()) {
            byte[] bytes = in.readNBytes(maxBodyBytes + 1);
            if (bytes.length > maxBodyBytes) throw tooLarge();
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("reading the request body failed", e);
        }
    }

    private Problem.Raised tooLarge() {
        return Problem.of(413, "body-too-large", "Request body too large",
                        "The body is larger than the limit of " + maxBodyBytes + " bytes.")
                .with("option", "body").with("maxBodyBytes", maxBodyBytes)
                .withHeader("Connection", "close").raise();
    }
}
