package dev.baton.http;

import static dev.baton.http.Router.Access.AUTHENTICATED;
import static dev.baton.http.Router.Access.PUBLIC;

import dev.baton.InvalidOptionException;
import dev.baton.agent.Agent;
import dev.baton.http.Router.Body;
import dev.baton.http.Router.Route;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP API and the approval inbox page over a set of agents: what {@link BatonHttpServlet} serves
 * in any servlet container, and {@link BatonHttpServer} on Jetty.
 *
 * <pre>{@code
 * BatonHttpApi api = BatonHttpApi.builder()
 *         .agents(concierge, travelDesk)
 *         .authenticator(Authenticator.bearerTokens()
 *                 .token(adminToken, Principal.unrestricted("admin"))
 *                 .token(aliceToken, Principal.limitedTo("alice", "alice"))
 *                 .build())
 *         .build();
 * try (BatonHttpServer server = BatonHttpServer.builder(api).port(8080).start()) { ... }
 * }</pre>
 *
 * <p>Endpoints (paths relative to where the API is mounted; {@code GET openapi.json} describes them):
 * <ul>
 *   <li>{@code GET /}: the inbox page (and its files); {@code GET /openapi.json}: the OpenAPI 3.1 document</li>
 *   <li>{@code GET /me}: the caller; {@code GET /agents}: the agents</li>
 *   <li>{@code GET /agents/{agentId}/suspended-runs?threadId&resourceId&fromDate&toDate&perPage&page&cursor}</li>
 *   <li>{@code POST /agents/{agentId}/runs} {@code {prompt, threadId?, resourceId?, maxSteps?}}</li>
 *   <li>{@code POST /agents/{agentId}/runs/{runId}/approve} {@code {toolCallId, args?, digest?, reason?}},
 *       {@code .../decline} {@code {toolCallId, reason?, digest?}}, {@code .../resume}
 *       {@code {toolCallId?, resumeData, digest?}}, {@code .../continue} (no body), {@code .../cancel} {@code {reason?}}</li>
 *   <li>{@code DELETE /agents/{agentId}/runs/{runId}}: discards the stored run (204)</li>
 *   <li>{@code GET /agents/{agentId}/decisions?runId&threadId&resourceId&actor&from&to&perPage&cursor}: the audit trail</li>
 * </ul>
 * Every decision (approve, decline, resume, continue, cancel, discard) is recorded with the caller's
 * {@link Principal#name()} as its actor, and may carry an {@code Idempotency-Key} header: sent again
 * with the same key, it answers the first outcome instead of an error.
 * Runs and actions answer with the run's events as Server-Sent Events, or with the drained result
 * for {@code Accept: application/json}. Every error is an RFC 9457 {@code application/problem+json}
 * without a stack trace.
 *
 * <p>Thread-safety: immutable once built and thread-safe: the servlet calls it from every request
 * thread at once. Its {@link Builder} is not thread-safe. Closing: the API holds nothing to close,
 * and it does not own the agents it serves: whoever built an agent closes it (after the server that
 * serves it, see {@link BatonHttpServer#close()}).
 */
public final class BatonHttpApi {
    /** The default limit on a request body: 256 KiB. */
    public static final int DEFAULT_MAX_BODY_BYTES = 256 * 1024;
    /** The page size when a listing names none. */
    public static final int DEFAULT_PER_PAGE = 20;
    /** The largest page a listing may ask for. */
    public static final int MAX_PER_PAGE = 200;
    /**
     * How many runs per resource a listing merged over several resources (a principal limited to
     * several, naming none) may read to answer one numbered page: {@code (page + 1) * perPage} at
     * most. Deeper pages are a 400 naming {@code page}; the cursor reads any depth at the cost of one page.
     */
    public static final int MAX_MERGED_DEPTH = 10_000;
    /** The default bound on the event streams one principal may have open at once. */
    public static final int DEFAULT_MAX_STREAMS_PER_PRINCIPAL = 8;

    private final List<Agent> agents;
    private final int maxBodyBytes;
    private final int maxStreamsPerPrincipal;
    private final Router router;
    private final RequestGuard guard;
    private final SiteGuard site;
    private final StreamLimit streams;

    private BatonHttpApi(Builder b) {
        this.agents = List.copyOf(b.agents.values());
        this.maxBodyBytes = b.maxBodyBytes;
        this.maxStreamsPerPrincipal = b.maxStreamsPerPrincipal;
        this.site = new SiteGuard(b.allowedHosts, b.trustedOrigins);
        this.guard = new RequestGuard(Objects.requireNonNull(b.authenticator), b.agents, b.maxBodyBytes);
        this.streams = new StreamLimit(b.maxStreamsPerPrincipal);
        DocumentHandler documents = new DocumentHandler(b.inbox);
        boolean details = b.agentDetailsForRestricted;   // a restricted principal sees instructions and descriptions
        ListingHandler listing = new ListingHandler();
        RunActionHandler runs = new RunActionHandler();
        DecisionHandler decide = new DecisionHandler();
        DecisionListHandler decisions = new DecisionListHandler();
        String run = "/agents/{agentId}/runs/{runId}";
        // the endpoints, in the order tried; openapi.json documents exactly these (a test holds them equal)
        this.router = new Router(List.of(
                Route.get("/", PUBLIC, documents.file("")),
                Route.get("/inbox.css", PUBLIC, documents.file("inbox.css")),
                Route.get("/inbox.js", PUBLIC, documents.file("inbox.js")),
                Route.get("/inbox/{file}", PUBLIC, documents::module),
                Route.get("/favicon.svg", PUBLIC, documents.file("favicon.svg")),
                Route.get("/openapi.json", PUBLIC, documents.file("openapi.json")),
                Route.get("/me", AUTHENTICATED, request -> ApiResponse.json(200, new Json.Me(request.caller()))),
                Route.get("/agents", AUTHENTICATED, request -> ApiResponse.json(200, Map.of("agents", agents.stream()
                        .map(a -> new Json.AgentView(a, details || !request.caller().isRestricted())).toList()))),
                Route.get("/agents/{agentId}/suspended-runs", AUTHENTICATED, ListingETag.conditional(listing::list)),
                Route.get("/agents/{agentId}/decisions", AUTHENTICATED, decisions::list),
                Route.post("/agents/{agentId}/runs", Body.required("prompt", "threadId", "resourceId", "maxSteps"),
                        streams.limit(runs::start)),
                Route.post(run + "/approve", Body.required("toolCallId", "args", "digest", "reason"), streams.limit(decide::approve)),
                Route.post(run + "/decline", Body.required("toolCallId", "reason", "digest"), streams.limit(decide::decline)),
                Route.post(run + "/resume", Body.required("toolCallId", "resumeData", "digest"), streams.limit(runs::resume)),
                Route.post(run + "/continue", Body.optional(), streams.limit(runs::continueRun)),
                Route.post(run + "/cancel", Body.optional("reason"), runs::cancel),
                Route.delete(run, runs::discard)));
    }

    /**
     * Starts building an API.
     *
     * @return an empty builder: add agents and an authenticator
     */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the agents served, unmodifiable, in the order given} */
    public List<Agent> agents() {
        return agents;
    }

    /** {@return the largest request body accepted, in bytes} */
    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    /** {@return how many event streams one principal may have open at once} */
    public int maxStreamsPerPrincipal() {
        return maxStreamsPerPrincipal;
    }

    /**
     * Where it comes from, then one route, admitted once (its body not read yet), or a problem thrown.
     *
     * @param rawPath the path below where the API is mounted, still percent-encoded
     */
    ParsedRequest admit(HttpServletRequest request, String rawPath) {
        site.check(request);
        return guard.admit(router.match(request, rawPath));
    }

    /** 413, for a body found over the limit while it was read. */
    Problem.Raised tooLarge() {
        return guard.tooLarge();
    }

    /**
     * The answer of an admitted request, given its body; never throws: every failure is a problem. Exceptions of
     * approve / decline / resume (a missing run, a run another caller claimed first) are thrown before any event
     * is streamed, so a 409 is a real 409, never a broken stream.
     */
    ApiResponse answer(ParsedRequest admitted, byte[] body) {
        try {
            return admitted.route().handler().handle(guard.parse(admitted, body));
        } catch (RuntimeException e) {
            return ApiResponse.problem(Problem.from(e));
        }
    }

    /** The event streams {@code principalName} has open now: for tests. */
    int openStreams(String principalName) {
        return streams.open(principalName);
    }

    /** Every endpoint, as {@code METHOD /template}, in the order tried. */
    List<String> routes() {
        return router.names();
    }

    /** Builder of {@link BatonHttpApi}. */
    public static final class Builder {
        private final Map<String, Agent> agents = new LinkedHashMap<>();
        private @Nullable Authenticator authenticator;
        private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
        private boolean inbox = true;
        private boolean agentDetailsForRestricted;
        private List<String> allowedHosts = SiteGuard.LOOPBACK;
        private List<String> trustedOrigins = List.of();
        private int maxStreamsPerPrincipal = DEFAULT_MAX_STREAMS_PER_PRINCIPAL;

        private Builder() {
        }

        /**
         * How many event streams one principal (by {@link Principal#name()}) may have open at once
         * (default {@value BatonHttpApi#DEFAULT_MAX_STREAMS_PER_PRINCIPAL}). Starting, approving,
         * declining, resuming or continuing a run answers a stream that holds a handler thread until
         * the run suspends or ends; one more is answered 429 {@code too-many-streams} with
         * {@code Retry-After} before anything runs. A slot is free again when its stream ends or its
         * client goes away. Requests for the drained result ({@code Accept: application/json}) are
         * not streams and not counted.
         *
         * @param max a positive number of streams
         * @return this builder
         * @throws InvalidOptionException ({@code maxStreamsPerPrincipal}) not positive
         */
        public Builder maxStreamsPerPrincipal(int max) {
            if (max < 1) throw new InvalidOptionException("maxStreamsPerPrincipal", "must be positive, was " + max);
            this.maxStreamsPerPrincipal = max;
            return this;
        }

        /**
         * The host names this API answers to, as the {@code Host} header names them (default: the
         * loopback names {@code localhost}, {@code 127.0.0.1}, {@code [::1]}, on any port). Any other
         * {@code Host} is answered 421 before anything else is looked at: it defeats DNS rebinding.
         * Set the names your users reach the server by when it is served beyond loopback (behind a
         * proxy: the {@code Host} the proxy forwards).
         *
         * @param hosts host names ({@code inbox.example.com}, any port), {@code name:port} (that port
         *              only), {@code [::1]}, or {@code *} for any host (only when a proxy in front checks it)
         * @return this builder
         * @throws InvalidOptionException ({@code allowedHosts}) none given, or one that is not a host name
         */
        public Builder allowedHosts(Collection<String> hosts) {
            if (hosts.isEmpty()) throw new InvalidOptionException("allowedHosts", "at least one host name is needed");
            for (String h : hosts) SiteGuard.host(h);
            this.allowedHosts = List.copyOf(hosts);
            return this;
        }

        /**
         * Origins whose pages may make browsers send state-changing requests here (default: none but
         * the server's own). A {@code POST} or {@code DELETE} whose {@code Origin} is another origin,
         * or whose {@code Sec-Fetch-Site} is not {@code same-origin}, is answered 403 unless its
         * origin is listed here. Trust only origins you control: their pages act with your users' cookies.
         *
         * @param origins origins as {@code scheme://host[:port]}, e.g. {@code https://app.example.com}
         * @return this builder
         * @throws InvalidOptionException ({@code trustedOrigins}) one that is not an origin
         */
        public Builder trustedOrigins(Collection<String> origins) {
            for (String o : origins) SiteGuard.origin(o);
            this.trustedOrigins = List.copyOf(origins);
            return this;
        }

        /**
         * Adds agents to serve.
         *
         * @param agents agents with distinct ids (the API does not close them)
         * @return this builder
         * @throws InvalidOptionException ({@code agents}) two agents have the same id
         */
        public Builder agents(Agent... agents) {
            return agents(List.of(agents));
        }

        /**
         * Adds agents to serve.
         *
         * @param agents agents with distinct ids (the API does not close them)
         * @return this builder
         * @throws InvalidOptionException ({@code agents}) two agents have the same id
         */
        public Builder agents(Collection<Agent> agents) {
            for (Agent a : agents) {
                if (this.agents.putIfAbsent(a.id(), a) != null) {
                    throw new InvalidOptionException("agents", "two agents are named '" + a.id() + "'");
                }
            }
            return this;
        }

        /**
         * Who may call; required (use {@link Authenticator#anonymous()} deliberately, never by default).
         *
         * @param authenticator maps each request to its principal
         * @return this builder
         */
        public Builder authenticator(Authenticator authenticator) {
            this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
            return this;
        }

        /**
         * The largest request body accepted (default 256 KiB); larger ones get 413 without being read.
         *
         * @param maxBodyBytes a positive number of bytes
         * @return this builder
         * @throws InvalidOptionException ({@code maxBodyBytes}) not positive
         */
        public Builder maxBodyBytes(int maxBodyBytes) {
            if (maxBodyBytes < 1) throw new InvalidOptionException("maxBodyBytes", "must be positive, was " + maxBodyBytes);
            this.maxBodyBytes = maxBodyBytes;
            return this;
        }

        /**
         * Whether {@code GET /agents} shows an agent's instructions and its tools' descriptions to a
         * principal limited to resources (default false: such a principal sees the agents' ids and
         * tool names, with {@code instructions} and {@code description} null). Unrestricted principals
         * always see them. Instructions often say how an agent is meant to be steered: a tenant does
         * not need them to approve its runs.
         *
         * @param show true to show them to every principal
         * @return this builder
         */
        public Builder agentDetailsForRestricted(boolean show) {
            this.agentDetailsForRestricted = show;
            return this;
        }

        /**
         * Whether to serve the inbox page at {@code /} (default true).
         *
         * @param inbox false to serve the API alone
         * @return this builder
         */
        public Builder inbox(boolean inbox) {
            this.inbox = inbox;
            return this;
        }

        /**
         * The API.
         *
         * @return an API over the agents added
         * @throws InvalidOptionException ({@code agents}) no agent, or ({@code authenticator}) none given
         */
        public BatonHttpApi build() {
            if (agents.isEmpty()) throw new InvalidOptionException("agents", "at least one agent is needed");
            if (authenticator == null) {
                throw new InvalidOptionException("authenticator", "is required: Authenticator.bearerTokens()..., your own, "
                        + "or Authenticator.anonymous() for a loopback-only server");
            }
            return new BatonHttpApi(this);
        }
    }
}
