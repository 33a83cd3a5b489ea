package dev.baton.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.InvalidOptionException;
import dev.baton.RunNotFoundException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentStream;
import dev.baton.agent.ResumeOptions;
import dev.baton.agent.RunOptions;
import dev.baton.store.RunSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP API and the approval inbox page over a set of agents, independent of any web server.
 * An adapter turns its request into an {@link ApiRequest}, calls {@link #handle}, and writes the
 * {@link ApiResponse}; {@link BatonHttpServer} is that adapter for the JDK's own server.
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
 *   <li>{@code GET /}: the inbox page; {@code GET /openapi.json}: the OpenAPI 3.1 document</li>
 *   <li>{@code GET /me}: the caller; {@code GET /agents}: the agents</li>
 *   <li>{@code GET /agents/{agentId}/suspended-runs?threadId&resourceId&fromDate&toDate&perPage&page&cursor}</li>
 *   <li>{@code POST /agents/{agentId}/runs} {@code {prompt, threadId?, resourceId?, maxSteps?}}</li>
 *   <li>{@code POST /agents/{agentId}/runs/{runId}/approve} {@code {toolCallId}},
 *       {@code .../decline} {@code {toolCallId, reason?}}, {@code .../resume} {@code {toolCallId?, resumeData}},
 *       {@code .../continue} (no body), {@code .../cancel} {@code {reason?}}</li>
 *   <li>{@code DELETE /agents/{agentId}/runs/{runId}}: discards the stored run (204)</li>
 * </ul>
 * Runs and actions answer with the run's events as Server-Sent Events, or with the drained result
 * for {@code Accept: application/json}. Every error is an RFC 9457 {@code application/problem+json}
 * without a stack trace. Thread-safe.
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
    /** How often a merged listing is read again when the runs changed between its queries. */
    static final int MERGE_ATTEMPTS = 5;

    static final String JSON = "application/json";
    static final String PROBLEM_JSON = "application/problem+json";
    static final String EVENT_STREAM = "text/event-stream";

    /**
     * Every endpoint, as {@code METHOD /template}: the router's table, and what
     * {@code openapi.json} must document (a test holds them equal).
     */
    static final List<String> ROUTES = List.of(
            "GET /",
            "GET /inbox.css",
            "GET /inbox.js",
            "GET /openapi.json",
            "GET /me",
            "GET /agents",
            "GET /agents/{agentId}/suspended-runs",
            "POST /agents/{agentId}/runs",
            "POST /agents/{agentId}/runs/{runId}/approve",
            "POST /agents/{agentId}/runs/{runId}/decline",
            "POST /agents/{agentId}/runs/{runId}/resume",
            "POST /agents/{agentId}/runs/{runId}/continue",
            "POST /agents/{agentId}/runs/{runId}/cancel",
            "DELETE /agents/{agentId}/runs/{runId}");

    /** Routes anyone may read: they hold no data. */
    private static final Set<String> PUBLIC = Set.of("GET /", "GET /inbox.css", "GET /inbox.js", "GET /openapi.json");

    private static final Set<String> LIST_PARAMETERS = Set.of("threadId", "resourceId", "fromDate", "toDate", "perPage", "page",
            "cursor");

    private final Map<String, Agent> agents;
    private final List<Agent> agentOrder;
    private final Authenticator authenticator;
    private final int maxBodyBytes;
    private final boolean inbox;
    private final Map<String, StaticAsset> assets;

    private BatonHttpApi(Builder b) {
        this.agents = Map.copyOf(b.agents);
        this.authenticator = b.authenticator;
        this.maxBodyBytes = b.maxBodyBytes;
        this.inbox = b.inbox;
        this.assets = StaticAsset.load();
        this.agentOrder = List.copyOf(b.agents.values());
    }

    /** Starts building an API. */
    public static Builder builder() {
        return new Builder();
    }

    /** The agents served, in the order given. */
    public List<Agent> agents() {
        return agentOrder;
    }

    /** The largest request body accepted, in bytes. */
    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    /**
     * Answers one request. Never throws: every failure is a problem response. Exceptions of
     * approve / decline / resume (a missing run, a run another caller claimed first) are answered
     * before any event is streamed, so a 409 is a real 409, never a broken stream.
     */
    public ApiResponse handle(ApiRequest request) {
        try {
            return dispatch(request);
        } catch (RuntimeException e) {
            return problem(Problem.from(e));
        }
    }

    // ---- routing ------------------------------------------------------------------------------

    private ApiResponse dispatch(ApiRequest request) {
        String method = request.method().toUpperCase(Locale.ROOT);
        List<String> path = segments(request.rawPath());
        String matched = null;
        Set<String> allowed = new LinkedHashSet<>();
        Map<String, String> params = Map.of();
        for (String route : ROUTES) {
            int space = route.indexOf(' ');
            Map<String, String> p = match(route.substring(space + 1), path);
            if (p == null) continue;
            String routeMethod = route.substring(0, space);
            allowed.add(routeMethod);
            if (routeMethod.equals(method)) {
                matched = route;
                params = p;
                break;
            }
        }
        if (matched == null) {
            if (!allowed.isEmpty()) {
                throw Problem.of(405, "method-not-allowed", "Method not allowed",
                        method + " is not allowed here; allowed: " + String.join(", ", allowed))
                        .withHeader("Allow", String.join(", ", allowed)).raise();
            }
            throw Problem.notFound(method, request.rawPath()).raise();
        }
        if (PUBLIC.contains(matched)) return asset(matched.substring(matched.indexOf(' ') + 2));

        Principal principal = authenticate(request);
        switch (matched) {
            case "GET /me":
                return json(200, Json.principal(principal));
            case "GET /agents":
                return json(200, Json.agents(agentOrder));
            case "GET /agents/{agentId}/suspended-runs":
                return list(request, agent(params), principal);
            case "POST /agents/{agentId}/runs":
                return start(request, agent(params), principal);
            case "POST /agents/{agentId}/runs/{runId}/approve":
                return approve(request, agent(params), params.get("runId"), principal);
            case "POST /agents/{agentId}/runs/{runId}/decline":
                return decline(request, agent(params), params.get("runId"), principal);
            case "POST /agents/{agentId}/runs/{runId}/resume":
                return resume(request, agent(params), params.get("runId"), principal);
            case "POST /agents/{agentId}/runs/{runId}/continue":
                return continueRun(request, agent(params), params.get("runId"), principal);
            case "POST /agents/{agentId}/runs/{runId}/cancel":
                return cancel(request, agent(params), params.get("runId"), principal);
            case "DELETE /agents/{agentId}/runs/{runId}":
                return discard(agent(params), params.get("runId"), principal);
            default:
                throw new IllegalStateException("route without a handler: " + matched);
        }
    }

    /** The path's segments, each percent-decoded after splitting, so {@code %2F} stays inside its segment. */
    static List<String> segments(String rawPath) {
        if (!rawPath.startsWith("/")) throw Problem.notFound("", rawPath).raise();
        List<String> out = new ArrayList<>();
        if (rawPath.equals("/")) return out;
        for (String s : rawPath.substring(1).split("/", -1)) out.add(decodePathSegment(s));
        return out;
    }

    /** {@code template} is {@code /a/{x}/b}; returns the named segments, or null if it does not match. */
    private static @Nullable Map<String, String> match(String template, List<String> path) {
        List<String> t = template.equals("/") ? List.of() : List.of(template.substring(1).split("/"));
        if (t.size() != path.size()) return null;
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < t.size(); i++) {
            String part = t.get(i);
            if (part.startsWith("{")) {
                params.put(part.substring(1, part.length() - 1), path.get(i));
            } else if (!part.equals(path.get(i))) {
                return null;
            }
        }
        return params;
    }

    /** RFC 3986 percent-decoding of one path segment, as UTF-8; {@code +} stays {@code +}. */
    static String decodePathSegment(String s) {
        if (s.indexOf('%') < 0) return s;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) throw badEscape(s);
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) throw badEscape(s);
                bytes.write(hi << 4 | lo);
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw Problem.invalidOption("path", "a segment is not UTF-8 once percent-decoded").raise();
        }
    }

    private static Problem.Raised badEscape(String segment) {
        return Problem.invalidOption("path", "bad percent-escape in a path segment").raise();
    }

    private Agent agent(Map<String, String> params) {
        String id = params.get("agentId");
        Agent a = agents.get(id);
        if (a == null) throw Problem.agentNotFound(Objects.requireNonNull(id)).raise();
        return a;
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

    // ---- listing -------------------------------------------------------------------------------

    /**
     * One listing request, validated as core validates it.
     *
     * @param page   the zero-based page, or null when the listing continues after {@code cursor}
     * @param cursor a {@code nextCursor} of an earlier page, or null
     */
    private record Listing(@Nullable String threadId, @Nullable Instant from, @Nullable Instant to, int perPage,
                           @Nullable Integer page, @Nullable String cursor) {

        /** This listing's options, for one resource (or all). */
        AgentListSuspendedRunsOptions options(@Nullable String resourceId) {
            return AgentListSuspendedRunsOptions.builder()
                    .threadId(threadId).resourceId(resourceId).fromDate(from).toDate(to)
                    .perPage(perPage).page(page).cursor(cursor)
                    .build();
        }

        /** The first {@code n} runs of one resource from where this listing starts: after the cursor, or from the first run. */
        AgentListSuspendedRunsOptions fromStart(String resourceId, int n) {
            return AgentListSuspendedRunsOptions.builder()
                    .threadId(threadId).resourceId(resourceId).fromDate(from).toDate(to)
                    .perPage(n).page(cursor == null ? Integer.valueOf(0) : null).cursor(cursor)
                    .build();
        }
    }

    /** Listing order: newest creation first, ties by runId descending, as core and every store order them. */
    static final Comparator<AgentRun> LISTING_ORDER = Comparator.comparing(AgentRun::createdAt).reversed()
            .thenComparing(AgentRun::runId, Comparator.reverseOrder());

    private ApiResponse list(ApiRequest request, Agent agent, Principal principal) {
        Map<String, String> q = query(request.rawQuery(), LIST_PARAMETERS);
        int perPage = intParameter(q, "perPage", DEFAULT_PER_PAGE);
        if (perPage > MAX_PER_PAGE) {
            throw Problem.invalidOption("perPage", "must be at most " + MAX_PER_PAGE + ", was " + perPage).raise();
        }
        String cursor = q.get("cursor");
        Integer page = q.containsKey("page") ? Integer.valueOf(intParameter(q, "page", 0)) : cursor == null ? Integer.valueOf(0) : null;
        Listing listing = new Listing(q.get("threadId"),
                q.containsKey("fromDate") ? date("fromDate", q.get("fromDate"), false) : null,
                q.containsKey("toDate") ? date("toDate", q.get("toDate"), true) : null,
                perPage, page, cursor);
        checkListing(listing);
        String resourceId = q.get("resourceId");
        if (principal.isRestricted()) {
            Set<String> mine = Objects.requireNonNull(principal.resourceIds());
            if (resourceId == null) {
                if (mine.size() > 1) {
                    return json(200, Json.page(merged(agent, new TreeSet<>(mine), listing), page, perPage, agent.clock().instant()));
                }
                resourceId = mine.iterator().next();
            } else if (!mine.contains(resourceId)) {
                // someone else's resource: exactly as if it had no runs (a bad cursor is still a 400)
                agent.listSuspendedRuns(listing.options(resourceId));
                return json(200, Json.page(new AgentListSuspendedRunsResult(List.of(), 0, null), page, perPage,
                        agent.clock().instant()));
            }
        }
        AgentListSuspendedRunsResult found = agent.listSuspendedRuns(listing.options(resourceId));
        return json(200, Json.page(found, page, perPage, agent.clock().instant()));
    }

    /** The checks core makes, made before a merged listing changes the page into per-resource queries. */
    private static void checkListing(Listing l) {
        if (l.perPage() < 1) throw new InvalidOptionException("perPage", "must be a positive integer, was " + l.perPage());
        if (l.page() != null && l.page() < 0) {
            throw new InvalidOptionException("page", "must be a non-negative integer (pages are zero-based), was " + l.page());
        }
        if (l.from() != null && l.to() != null && l.from().isAfter(l.to())) {
            throw new InvalidOptionException("fromDate", "must not be after toDate (" + l.from() + " > " + l.to() + ")");
        }
        if (l.cursor() != null && l.page() != null) {
            throw new InvalidOptionException("cursor", "cannot be combined with page: a cursor continues after its own page");
        }
    }

    /**
     * One page over several resources, exactly as the store would page them together: each
     * resource's runs are read in listing order (one query each, from the same start: the cursor,
     * or the first run), merged by (createdAt, runId) descending, and cut to the page; the totals
     * add up, as a run has one resource. The next cursor must name the page's last run: it is
     * core's own cursor of the resource that run came from, read with a page that ends on it (one
     * more query unless that resource's page ended there already). If that resource's runs changed
     * between the queries, the page is read again.
     */
    private static AgentListSuspendedRunsResult merged(Agent agent, Set<String> resources, Listing l) {
        long depth = l.cursor() != null ? l.perPage() : ((long) Objects.requireNonNull(l.page()) + 1) * l.perPage();
        if (depth > MAX_MERGED_DEPTH) {
            throw Problem.invalidOption("page", "too deep for a listing over your " + resources.size() + " resources ("
                    + "(page + 1) * perPage must be at most " + MAX_MERGED_DEPTH + "): follow nextCursor instead, "
                    + "or name one resourceId").raise();
        }
        for (int attempt = 1; ; attempt++) {
            AgentListSuspendedRunsResult page = mergeOnce(agent, resources, l, (int) depth);
            if (page != null) return page;
            if (attempt == MERGE_ATTEMPTS) {
                throw Problem.of(503, "listing-changed", "Listing changed while read",
                                "Runs of your resources were created or ended while this page was read, "
                                        + MERGE_ATTEMPTS + " times in a row. Try again.")
                        .withHeader("Retry-After", "1").raise();
            }
        }
    }

    /** A run of a merged listing, with where it came from. */
    private record Source(AgentRun run, String resourceId, AgentListSuspendedRunsResult of, int index) {
    }

    /** The merged page, or null if a resource's runs changed between the queries (read it again). */
    private static @Nullable AgentListSuspendedRunsResult mergeOnce(Agent agent, Set<String> resources, Listing l, int depth) {
        List<Source> all = new ArrayList<>();
        long total = 0;
        for (String resourceId : resources) {
            AgentListSuspendedRunsResult found = agent.listSuspendedRuns(l.fromStart(resourceId, depth));
            total += found.total();
            for (int i = 0; i < found.runs().size(); i++) all.add(new Source(found.runs().get(i), resourceId, found, i));
        }
        all.sort(Comparator.comparing(Source::run, LISTING_ORDER));
        int from = l.cursor() != null ? 0 : Objects.requireNonNull(l.page()) * l.perPage();
        List<Source> cut = all.subList(Math.min(from, all.size()), Math.min(from + l.perPage(), all.size()));
        String next = null;
        if (cut.size() == l.perPage()) {
            // a full page has a next cursor, as core's pages do: the position of its last run
            Source last = cut.get(cut.size() - 1);
            if (last.index() == last.of().runs().size() - 1 && last.of().nextCursor() != null) {
                next = last.of().nextCursor();
            } else {
                AgentListSuspendedRunsResult upTo = agent.listSuspendedRuns(l.fromStart(last.resourceId(), last.index() + 1));
                List<AgentRun> runs = upTo.runs();
                if (runs.size() != last.index() + 1 || !runs.get(last.index()).runId().equals(last.run().runId())
                        || upTo.nextCursor() == null) {
                    return null;
                }
                next = upTo.nextCursor();
            }
        }
        return new AgentListSuspendedRunsResult(cut.stream().map(Source::run).toList(), total, next);
    }

    /** {@code yyyy-MM-dd} (UTC; {@code toDate}: the whole day, inclusive) or an ISO-8601 date-time with offset. */
    static Instant date(String option, String text, boolean endOfDay) {
        try {
            if (text.length() == 10) {
                LocalDate day = LocalDate.parse(text);
                return endOfDay ? day.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC).minusMillis(1)
                        : day.atStartOfDay().toInstant(ZoneOffset.UTC);
            }
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeException e) {
            throw Problem.invalidOption(option, "expected yyyy-MM-dd or an ISO-8601 date-time with offset "
                    + "(2026-06-01T09:00:00Z), was '" + text + "'").raise();
        }
    }

    private static int intParameter(Map<String, String> q, String name, int fallback) {
        String v = q.get(name);
        if (v == null) return fallback;
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw Problem.invalidOption(name, "must be an integer, was '" + v + "'").raise();
        }
    }

    /** The query's parameters (form-decoded); unknown or repeated ones are a 400; empty values count as absent. */
    static Map<String, String> query(@Nullable String rawQuery, Set<String> known) {
        Map<String, String> out = new LinkedHashMap<>();
        Set<String> seen = new LinkedHashSet<>();
        if (rawQuery == null || rawQuery.isEmpty()) return out;
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) continue;
            int eq = pair.indexOf('=');
            String name = formDecode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : formDecode(pair.substring(eq + 1));
            if (!known.contains(name)) {
                throw Problem.invalidOption(name, "unknown query parameter; known: " + new TreeSet<>(known)).raise();
            }
            if (!seen.add(name)) throw Problem.invalidOption(name, "given twice").raise();
            if (!value.isEmpty()) out.put(name, value);
        }
        return out;
    }

    private static String formDecode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw Problem.invalidOption("query", "bad percent-escape").raise();
        }
    }

    // ---- runs and actions ----------------------------------------------------------------------

    private ApiResponse start(ApiRequest request, Agent agent, Principal principal) {
        ObjectNode body = body(request, Set.of("prompt", "threadId", "resourceId", "maxSteps"));
        String prompt = string(body, "prompt", true);
        String resourceId = string(body, "resourceId", false);
        if (principal.isRestricted()) {
            Set<String> mine = Objects.requireNonNull(principal.resourceIds());
            if (resourceId == null) {
                if (mine.size() > 1) {
                    throw Problem.invalidOption("resourceId", "required: you may start runs for " + new TreeSet<>(mine)).raise();
                }
                resourceId = mine.iterator().next();
            } else if (!mine.contains(resourceId)) {
                throw Problem.of(403, "forbidden-resource", "Forbidden resource",
                        "You may not start runs for resource '" + resourceId + "'.").with("option", "resourceId").raise();
            }
        }
        RunOptions.Builder options = RunOptions.builder().threadId(string(body, "threadId", false)).resourceId(resourceId);
        JsonNode maxSteps = body.get("maxSteps");
        if (maxSteps != null && !maxSteps.isNull()) {
            if (!maxSteps.canConvertToInt() || !maxSteps.isIntegralNumber()) {
                throw Problem.invalidOption("maxSteps", "must be an integer").raise();
            }
            options.maxSteps(maxSteps.intValue());
        }
        return streamOrResult(request, agent.stream(Objects.requireNonNull(prompt), options.build()));
    }

    private ApiResponse approve(ApiRequest request, Agent agent, String runId, Principal principal) {
        ObjectNode body = body(request, Set.of("toolCallId"));
        String toolCallId = Objects.requireNonNull(string(body, "toolCallId", true));
        checkAccess(agent, runId, principal);
        return streamOrResult(request, agent.approveToolCall(runId, toolCallId));
    }

    private ApiResponse decline(ApiRequest request, Agent agent, String runId, Principal principal) {
        ObjectNode body = body(request, Set.of("toolCallId", "reason"));
        String toolCallId = Objects.requireNonNull(string(body, "toolCallId", true));
        String reason = string(body, "reason", false);
        checkAccess(agent, runId, principal);
        return streamOrResult(request, agent.declineToolCall(runId, toolCallId, reason));
    }

    private ApiResponse resume(ApiRequest request, Agent agent, String runId, Principal principal) {
        ObjectNode body = body(request, Set.of("toolCallId", "resumeData"));
        String toolCallId = string(body, "toolCallId", false);
        if (!body.has("resumeData")) throw Problem.invalidOption("resumeData", "is required (any JSON value)").raise();
        JsonNode data = body.get("resumeData");
        checkAccess(agent, runId, principal);
        ResumeOptions options = toolCallId == null ? ResumeOptions.of(runId) : ResumeOptions.of(runId, toolCallId);
        return streamOrResult(request, agent.resumeStream(data, options));
    }

    private ApiResponse continueRun(ApiRequest request, Agent agent, String runId, Principal principal) {
        optionalBody(request, Set.of());
        checkAccess(agent, runId, principal);
        return streamOrResult(request, agent.continueRun(runId));
    }

    private ApiResponse cancel(ApiRequest request, Agent agent, String runId, Principal principal) {
        ObjectNode body = optionalBody(request, Set.of("reason"));
        String reason = string(body, "reason", false);
        checkAccess(agent, runId, principal);
        AgentResult result = agent.cancelRun(runId, reason);
        if (wantsJson(request.header("Accept"))) return json(200, Json.result(result));
        return new ApiResponse(200, eventStreamHeaders(), EventStreamBody.bytes(result), null);
    }

    private ApiResponse discard(Agent agent, String runId, Principal principal) {
        checkAccess(agent, runId, principal);
        agent.discardRun(runId);
        return new ApiResponse(204, headers(null), null, null);
    }

    /**
     * A principal limited to resources may act only on their runs; any other run answers exactly
     * like a missing one. (The run's resource never changes, so checking before the claim is safe.)
     */
    private static void checkAccess(Agent agent, String runId, Principal principal) {
        if (!principal.isRestricted()) return;   // the agent itself answers 404 for another agent's run
        Optional<RunSnapshot> run = agent.store().find(runId);
        if (run.isEmpty() || !run.get().agentId().equals(agent.id()) || !principal.mayAccess(run.get().resourceId())) {
            throw new RunNotFoundException(agent.id(), runId);
        }
    }

    /** The stream as Server-Sent Events, or drained into JSON for {@code Accept: application/json}. */
    private static ApiResponse streamOrResult(ApiRequest request, AgentStream stream) {
        if (wantsJson(request.header("Accept"))) {
            AgentResult result;
            try (stream) {
                result = stream.result();
            }
            return json(200, Json.result(result));
        }
        return new ApiResponse(200, eventStreamHeaders(), null, new EventStreamBody(stream));
    }

    private static Map<String, String> eventStreamHeaders() {
        Map<String, String> headers = headers(EVENT_STREAM + "; charset=utf-8");
        headers.put("X-Accel-Buffering", "no");   // nginx: pass each event through at once
        return headers;
    }

    /** True if {@code Accept} names {@code application/json} before (or without) {@code text/event-stream}. */
    static boolean wantsJson(@Nullable String accept) {
        if (accept == null) return false;
        for (String range : accept.split(",")) {
            String type = range.split(";")[0].trim().toLowerCase(Locale.ROOT);
            if (type.equals(EVENT_STREAM)) return false;
            if (type.equals(JSON)) return true;
        }
        return false;
    }

    // ---- request bodies ------------------------------------------------------------------------

    private ObjectNode body(ApiRequest request, Set<String> fields) {
        return body(request, fields, null);
    }

    private ObjectNode body(ApiRequest request, Set<String> fields, byte @Nullable [] read) {
        String contentType = request.header("Content-Type");
        if (contentType != null) {
            String type = contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
            if (!type.equals(JSON) && !type.endsWith("+json")) {
                throw Problem.of(415, "unsupported-media-type", "Unsupported media type",
                        "The body must be application/json, was " + type + ".").with("option", "Content-Type").raise();
            }
        }
        ObjectNode body = Json.parseObject(read != null ? read : readBody(request));
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!fields.contains(name)) {
                throw Problem.invalidOption(name, "unknown field; this request takes " + new TreeSet<>(fields)).raise();
            }
        }
        return body;
    }

    /** A body that may be absent (no bytes: as {@code {}}); if present, as {@link #body}. */
    private ObjectNode optionalBody(ApiRequest request, Set<String> fields) {
        byte[] bytes = readBody(request);
        if (bytes.length == 0) return Json.object();
        return body(request, fields, bytes);
    }

    private byte[] readBody(ApiRequest request) {
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

    private static @Nullable String string(ObjectNode body, String field, boolean required) {
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

    // ---- responses -----------------------------------------------------------------------------

    private ApiResponse asset(String name) {
        StaticAsset a = assets.get(name.isEmpty() ? "index.html" : name);
        if (a == null || (!inbox && !name.equals("openapi.json"))) {
            throw Problem.notFound("GET", "/" + name).raise();
        }
        Map<String, String> h = headers(a.contentType());
        h.put("Cache-Control", "no-cache");
        if (a.contentType().startsWith("text/html")) {
            h.put("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                    + "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
        }
        return new ApiResponse(200, h, a.bytes(), null);
    }

    static ApiResponse json(int status, JsonNode body) {
        return new ApiResponse(status, headers(JSON), Json.bytes(body), null);
    }

    static ApiResponse problem(Problem p) {
        Map<String, String> h = headers(PROBLEM_JSON);
        h.putAll(p.headers());
        return new ApiResponse(p.status(), h, Json.bytes(Json.problem(p)), null);
    }

    private static Map<String, String> headers(@Nullable String contentType) {
        Map<String, String> h = new LinkedHashMap<>();
        if (contentType != null) h.put("Content-Type", contentType);
        h.put("Cache-Control", "no-store");
        h.put("X-Content-Type-Options", "nosniff");
        h.put("Referrer-Policy", "no-referrer");
        h.put("X-Frame-Options", "DENY");
        return h;
    }

    /** Builder of {@link BatonHttpApi}. */
    public static final class Builder {
        private final Map<String, Agent> agents = new LinkedHashMap<>();
        private @Nullable Authenticator authenticator;
        private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
        private boolean inbox = true;

        private Builder() {
        }

        /** Adds agents to serve; ids must be distinct. */
        public Builder agents(Agent... agents) {
            return agents(List.of(agents));
        }

        /** Adds agents to serve; ids must be distinct. */
        public Builder agents(Collection<Agent> agents) {
            for (Agent a : agents) {
                if (this.agents.putIfAbsent(a.id(), a) != null) {
                    throw new InvalidOptionException("agents", "two agents are named '" + a.id() + "'");
                }
            }
            return this;
        }

        /** Who may call; required (use {@link Authenticator#anonymous()} deliberately, never by default). */
        public Builder authenticator(Authenticator authenticator) {
            this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
            return this;
        }

        /** The largest request body accepted (default 256 KiB); larger ones get 413 without being read. */
        public Builder maxBodyBytes(int maxBodyBytes) {
            if (maxBodyBytes < 1) throw new InvalidOptionException("maxBodyBytes", "must be positive, was " + maxBodyBytes);
            this.maxBodyBytes = maxBodyBytes;
            return this;
        }

        /** Whether to serve the inbox page at {@code /} (default true). */
        public Builder inbox(boolean inbox) {
            this.inbox = inbox;
            return this;
        }

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
