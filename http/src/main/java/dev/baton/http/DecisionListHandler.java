package dev.baton.http;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.StoreCapability;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * {@code GET /agents/{agentId}/decisions}: the audit trail, newest first ({@code decidedAt}, then
 * {@code decisionId}, descending), filtered by run, thread, resource, actor and a time range, a page
 * at a time by the cursor. Scoped like the listing of runs: a principal limited to resources sees
 * only their decisions (another resource answers as one without decisions; naming none, the
 * decisions of all of them, merged: a decision cursor is a position in that order, so each
 * resource's page starts at the same cursor and the merge cuts one page). A store without
 * {@link StoreCapability#DECISIONS} answers 501.
 */
final class DecisionListHandler {
    private static final Set<String> PARAMETERS = Set.of("runId", "threadId", "resourceId", "actor", "from", "to", "perPage",
            "cursor");

    ApiResponse list(ParsedRequest request) {
        Agent agent = request.target();
        if (!agent.store().capabilities().contains(StoreCapability.DECISIONS)) throw DecisionProblems.unsupported(agent.id()).raise();
        Principal principal = request.caller();
        ListingHandler.Query q = ListingHandler.Query.of(request.rawQuery(), PARAMETERS);
        int perPage = q.integer("perPage", BatonHttpApi.DEFAULT_PER_PAGE);
        if (perPage < 1 || perPage > BatonHttpApi.MAX_PER_PAGE) {
            throw Problem.invalidOption("perPage", "must be 1.." + BatonHttpApi.MAX_PER_PAGE + ", was " + perPage).raise();
        }
        // "to" is inclusive, as in the listing of runs and in core; core checks the options as they are built
        AgentListDecisionsOptions.Builder options = AgentListDecisionsOptions.builder().runId(q.get("runId"))
                .threadId(q.get("threadId")).actor(q.get("actor")).from(q.date("from", false)).to(q.date("to", true))
                .limit(perPage).cursor(q.get("cursor"));
        String resourceId = ListingHandler.resource(principal, q.get("resourceId"));
        DecisionPage page;
        if (resourceId == null && principal.isRestricted()) {
            page = merged(agent, new TreeSet<>(principal.resourceIds()), options, perPage);
        } else if (principal.mayAccess(resourceId)) {
            page = agent.listDecisions(options.resourceId(resourceId).build());
        } else {
            options.resourceId(resourceId).build();   // a bad option is still a 400
            page = new DecisionPage(List.of(), false);   // another's resource: as one without decisions
        }
        return ApiResponse.json(200, new Page(page, perPage, agent.clock().instant()));
    }

    /** One page over several resources: the same cursor for each, merged in the listing order and cut to {@code n}. */
    private static DecisionPage merged(Agent agent, Set<String> resources, AgentListDecisionsOptions.Builder options, int n) {
        List<DecisionRecord> all = new ArrayList<>();
        boolean more = false;
        for (String resourceId : resources) {
            DecisionPage p = agent.listDecisions(options.resourceId(resourceId).build());
            all.addAll(p.items());
            more |= p.hasMore();
        }
        all.sort(DecisionQuery.ORDER);
        return new DecisionPage(all.subList(0, Math.min(n, all.size())), more || all.size() > n);
    }

    /** A page of the audit trail ({@code DecisionPage} in openapi.json). */
    record Page(List<Decision> decisions, int perPage, @Nullable String nextCursor, Instant asOf) {
        Page(DecisionPage page, int perPage, Instant asOf) {
            this(page.items().stream().map(Decision::new).toList(), perPage, page.nextCursor().orElse(null), asOf);
        }
    }

    /** A decision as recorded ({@code Decision} in openapi.json); its idempotency key stays on the server. */
    record Decision(String decisionId, String kind, String runId, @Nullable String threadId, @Nullable String resourceId,
                    @Nullable String toolCallId, @Nullable String toolName, String actor, Instant decidedAt, String instanceId,
                    @Nullable String reason, @Nullable String argsDigestBefore, @Nullable String argsDigestAfter) {
        Decision(DecisionRecord r) {
            this(r.decisionId(), r.kind().wireName(), r.runId(), r.threadId(), r.resourceId(), r.toolCallId(), r.toolName(),
                    r.actor(), r.decidedAt(), r.instanceId(), r.reason(), r.argsDigestBefore(), r.argsDigestAfter());
        }
    }
}
