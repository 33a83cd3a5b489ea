package dev.baton.http;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.Approver;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jetty.util.UrlEncoded;
import org.jspecify.annotations.Nullable;

/**
 * {@code GET /agents/{agentId}/suspended-runs}: the query's parameters, validated as core validates
 * them, then one listing, scoped to the caller's resources. A principal limited to several
 * resources who names none gets one page over all of them ({@link ResourceMerge}). {@code waitingFor=me}
 * filters it to the runs the caller (its name and roles, as a decision over HTTP is taken) may decide now.
 */
final class ListingHandler {
    private static final Set<String> PARAMETERS = Set.of("threadId", "resourceId", "fromDate", "toDate", "perPage", "page",
            "cursor", "waitingFor");
    /** The one value of {@code waitingFor}: the authenticated caller. */
    static final String ME = "me";

    ApiResponse list(ParsedRequest request) {
        Agent agent = request.target();
        Principal principal = request.caller();
        Query q = Query.of(request.rawQuery(), PARAMETERS);
        int perPage = q.integer("perPage", BatonHttpApi.DEFAULT_PER_PAGE);
        if (perPage > BatonHttpApi.MAX_PER_PAGE) {
            throw Problem.invalidOption("perPage", "must be at most " + BatonHttpApi.MAX_PER_PAGE + ", was " + perPage).raise();
        }
        String cursor = q.get("cursor");
        Integer page = q.has("page") ? Integer.valueOf(q.integer("page", 0)) : cursor == null ? Integer.valueOf(0) : null;
        // core checks the options here, before a merged listing changes the page into per-resource queries
        AgentListSuspendedRunsOptions options = AgentListSuspendedRunsOptions.builder().threadId(q.get("threadId"))
                .fromDate(q.date("fromDate", false)).toDate(q.date("toDate", true)).perPage(perPage).page(page).cursor(cursor)
                .waitingFor(q.has("waitingFor") ? waitingFor(q.get("waitingFor"), request) : null).build();
        String resourceId = resource(principal, q.get("resourceId"));
        if (resourceId == null && principal.isRestricted()) {
            return page(merged(agent, new TreeSet<>(principal.resourceIds()), options), page, perPage, agent, request);
        }
        AgentListSuspendedRunsResult found = agent.listSuspendedRuns(options.toBuilder().resourceId(resourceId).build());
        // someone else's resource: exactly as if it had no runs (read all the same: a bad cursor is a 400)
        return page(principal.mayAccess(resourceId) ? found : new AgentListSuspendedRunsResult(List.of(), 0, null),
                page, perPage, agent, request);
    }

    /**
     * The one resource a request of {@code caller} reads or starts a run for: the one named, else the caller's
     * only one; null for any (an unrestricted caller naming none) or for the caller's several (a listing
     * merges them). A named resource the caller may not see is returned too: its caller checks it.
     */
    static @Nullable String resource(Principal caller, @Nullable String named) {
        Set<String> mine = caller.resourceIds();
        return named != null || mine == null || mine.size() > 1 ? named : mine.iterator().next();
    }

    private static ApiResponse page(AgentListSuspendedRunsResult found, @Nullable Integer page, int perPage, Agent agent,
                                    ParsedRequest request) {
        return ApiResponse.json(200, new RunJson.Page(agent, found, page, perPage, DecisionHandler.approver(request)));
    }

    /**
     * {@code waitingFor=me}: the caller as the approver its decisions are taken as; a 400 for any other value, and for a
     * caller the server does not know by name (the anonymous authenticator's).
     */
    private static Approver waitingFor(String value, ParsedRequest request) {
        if (!ME.equals(value)) {
            throw Problem.invalidOption("waitingFor", "must be 'me' (the runs you may decide now), was '"
                    + (value.length() > 60 ? value.substring(0, 60) + "..." : value) + "'").raise();
        }
        Principal caller = request.caller();
        if (caller == Principal.ANONYMOUS || caller.name().isBlank()) {
            throw Problem.invalidOption("waitingFor", "needs a named caller, and this request is anonymous (the server lets "
                    + "everyone in as '" + caller.name() + "'): authenticate (a bearer token, a JWT) to list the runs waiting for you").raise();
        }
        return DecisionHandler.approver(request);
    }

    /** One page over the caller's resources; numbered pages deeper than {@link BatonHttpApi#MAX_MERGED_DEPTH} are a 400. */
    private static AgentListSuspendedRunsResult merged(Agent agent, Set<String> resources, AgentListSuspendedRunsOptions l) {
        if (ResourceMerge.depth(l.perPage(), l.page()) > BatonHttpApi.MAX_MERGED_DEPTH) {
            throw Problem.invalidOption("page", "too deep for a listing over your " + resources.size() + " resources ("
                    + "(page + 1) * perPage must be at most " + BatonHttpApi.MAX_MERGED_DEPTH + "): follow nextCursor instead, "
                    + "or name one resourceId").raise();
        }
        // each resource's first n runs from where the listing starts: after the cursor, or from the first run
        return ResourceMerge.page(resources, l.perPage(), l.page(), (resourceId, n) -> agent.listSuspendedRuns(
                l.toBuilder().resourceId(resourceId).perPage(n).page(l.cursor() == null ? Integer.valueOf(0) : null).build()));
    }

    // ---- the query -----------------------------------------------------------------------------

    /** A listing's query parameters, form-decoded (by Jetty's decoder): unknown or repeated ones are a 400, and so are empty values. */
    record Query(Map<String, String> values) {
        static Query of(@Nullable String rawQuery, Set<String> known) {
            Map<String, String> out = new LinkedHashMap<>();
            try {
                UrlEncoded.decodeTo(rawQuery == null ? "" : rawQuery, (name, value) -> {
                    if (!known.contains(name)) {
                        throw Problem.invalidOption(name, "unknown query parameter; known: " + new TreeSet<>(known)).raise();
                    }
                    if (out.containsKey(name)) throw Problem.invalidOption(name, "given twice").raise();
                    // an empty value would mean "any" by accident (a form's blank field): leave the parameter out for that
                    if (value.isEmpty()) throw Problem.invalidOption(name, "is empty; leave the parameter out to mean any").raise();
                    out.put(name, value);
                }, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {   // Jetty's decoder: a bad escape, or bytes that are not UTF-8
                throw Problem.invalidOption("query", "bad percent-escape, or not UTF-8 once decoded").raise();
            }
            return new Query(out);
        }

        boolean has(String name) {
            return values.containsKey(name);
        }

        @Nullable String get(String name) {
            return values.get(name);
        }

        int integer(String name, int fallback) {
            String v = values.get(name);
            if (v == null) return fallback;
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw Problem.invalidOption(name, "must be an integer, was '" + v + "'").raise();
            }
        }

        /** {@code yyyy-MM-dd} (UTC; {@code endOfDay}: the whole day, inclusive) or an ISO-8601 date-time with offset; null if absent. */
        @Nullable Instant date(String name, boolean endOfDay) {
            String text = values.get(name);
            if (text == null) return null;
            try {
                if (text.length() == 10) {
                    LocalDate day = LocalDate.parse(text);
                    return endOfDay ? day.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC).minusMillis(1)
                            : day.atStartOfDay().toInstant(ZoneOffset.UTC);
                }
                return OffsetDateTime.parse(text).toInstant();
            } catch (DateTimeException e) {
                throw Problem.invalidOption(name, "expected yyyy-MM-dd or an ISO-8601 date-time with offset "
                        + "(2026-06-01T09:00:00Z), was '" + text + "'").raise();
            }
        }
    }
}
