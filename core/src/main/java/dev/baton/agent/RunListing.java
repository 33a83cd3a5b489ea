package dev.baton.agent;

import dev.baton.InvalidOptionException;
import dev.baton.internal.CallState;
import dev.baton.internal.CallState.Status;
import dev.baton.internal.RunState;
import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.internal.RunSummary;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.QueryFeature;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The discovery rules: options validated here, filtering, order, count and paging done by the store. */
final class RunListing {
    private static final Logger LOG = LoggerFactory.getLogger(RunListing.class);

    private RunListing() {
    }

    static AgentListSuspendedRunsResult list(Agent agent, AgentListSuspendedRunsOptions options) {
        java.util.Objects.requireNonNull(options, "options");   // validated when it was built
        RunQuery.After after = options.cursor() == null ? null : decodeCursor(options.cursor());
        Instant now = agent.clock().instant();
        RunQuery.Builder q = RunQuery.forAgent(agent.id(), now)
                .status(RunStatus.SUSPENDED)
                .threadId(options.threadId())
                .resourceId(options.resourceId())
                .createdFrom(options.fromDate())
                .createdTo(options.toDate())
                .withPayload(false);   // listing reads the summary beside the payload, never the payload
        if (options.waitingFor() != null) {
            if (!agent.store().queryFeatures().contains(QueryFeature.DECIDERS)) {
                throw new InvalidOptionException("waitingFor", agent.store().describe() + " does not declare the query feature "
                        + QueryFeature.DECIDERS + " (it declares " + agent.store().queryFeatures() + "): it cannot list the runs"
                        + " waiting for someone; use a store version that implements it");
            }
            q.deciders(DeciderLabels.asking(options.waitingFor()));
        }
        if (options.paginated()) q.page((long) options.page() * options.perPage(), options.perPage());
        if (after != null) q.after(after, options.perPage());
        RunPage page = query(agent.store(), q.build());
        List<AgentRun> runs = new ArrayList<>(page.items().size());
        for (RunSnapshot s : page.items()) runs.add(toAgentRun(s, agent));
        String next = null;
        boolean paged = options.paginated() || after != null;
        if (paged && !page.items().isEmpty() && page.items().size() == options.perPage()) {
            RunSnapshot last = page.items().get(page.items().size() - 1);
            next = encodeCursor(last.createdAt(), last.runId());
        }
        return new AgentListSuspendedRunsResult(runs, page.total(), next);
    }

    /**
     * Every listing goes through here: a query that uses a feature the store did not declare is
     * refused before the store is called, so no filter is ever silently ignored.
     */
    static RunPage query(SnapshotStore store, RunQuery query) {
        java.util.Set<QueryFeature> declared = store.queryFeatures();
        for (QueryFeature f : query.features()) {
            if (!declared.contains(f)) {
                throw new InvalidOptionException("query", store.describe() + " does not declare the query feature " + f
                        + " (it declares " + declared + "); use a store version that implements it");
            }
        }
        return store.list(query);
    }

    private static final String CURSOR_PREFIX = "c1.";

    /** An opaque cursor: the listing position (creation time and run id) of the last run of a page. */
    static String encodeCursor(Instant createdAt, String runId) {
        String raw = createdAt.toEpochMilli() + ":" + runId;
        return CURSOR_PREFIX + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(raw.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    static RunQuery.After decodeCursor(String cursor) {
        try {
            if (!cursor.startsWith(CURSOR_PREFIX)) throw new IllegalArgumentException("no prefix");
            String raw = new String(java.util.Base64.getUrlDecoder().decode(cursor.substring(CURSOR_PREFIX.length())),
                    java.nio.charset.StandardCharsets.UTF_8);
            int colon = raw.indexOf(':');
            if (colon < 1) throw new IllegalArgumentException("no position");
            return new RunQuery.After(Instant.ofEpochMilli(Long.parseLong(raw.substring(0, colon))), raw.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            throw new InvalidOptionException("cursor", "is not a cursor this Baton gave (use nextCursor of the previous page): '"
                    + (cursor.length() > 60 ? cursor.substring(0, 60) + "..." : cursor) + "'");
        }
    }

    /** Stored runs of the agent by status, as of now: two count-only queries. */
    static java.util.Map<RunStatus, Long> count(Agent agent) {
        Instant now = agent.clock().instant();
        java.util.Map<RunStatus, Long> counts = new java.util.EnumMap<>(RunStatus.class);
        for (RunStatus st : RunStatus.values()) {
            counts.put(st, query(agent.store(), RunQuery.forAgent(agent.id(), now).status(st).countOnly().build()).total());
        }
        return counts;
    }

    /** The agent's runs under a live lease, with their holders. */
    static List<AgentRunLease> resuming(Agent agent) {
        RunPage page = query(agent.store(), RunQuery.forAgent(agent.id(), agent.clock().instant()).status(RunStatus.RESUMING)
                .withPayload(false).build());
        return page.items().stream().map(s -> new AgentRunLease(s.runId(), s.threadId(), s.resourceId(),
                java.util.Objects.requireNonNull(s.leaseOwner()), java.util.Objects.requireNonNull(s.leaseExpiresAt()))).toList();
    }

    /** A listed run, from its summary alone (never its payload). */
    /** The run {@code runId} of {@code agent} if the listing would show it (its effective status is SUSPENDED now). */
    static java.util.Optional<AgentRun> find(Agent agent, String runId) {
        String id = dev.baton.Ids.require("runId", runId);
        Instant now = agent.clock().instant();
        return agent.store().find(id)
                .filter(s -> s.agentId().equals(agent.id()) && s.effectiveStatus(now) == RunStatus.SUSPENDED)
                .map(s -> toAgentRun(s, agent));
    }

    static AgentRun toAgentRun(RunSnapshot s, Agent agent) {
        RunSummary summary = RunSummary.decode(s.summary());
        if (summary == null) {
            // listed so it can be seen and discarded; continuing it gives the precise error
            LOG.warn("The summary of run {} cannot be read; it is listed as interrupted", s.runId());
            return new AgentRun(s.runId(), RunStatus.SUSPENDED, s.threadId(), s.resourceId(), s.suspendedAt(), List.of(),
                    "its stored summary cannot be read; discardRun removes it", null, s.createdAt(), s.expiresAt());
        }
        List<AgentRunToolCall> calls = new ArrayList<>(summary.calls.size());
        for (RunSummary.Call c : summary.calls) {
            calls.add(listed(agent, c.toolCallId, c.toolName, c.args, c.requiresApproval, c.suspendPayload, c.expiresAt,
                    c.approvedArgs, c.approvedBy == null ? List.of() : c.approvedBy, c.escalatedAt));
        }
        List<AgentRunToolCall> approved = new ArrayList<>();
        if (summary.approved != null) {
            for (RunSummary.Call c : summary.approved) {
                approved.add(new AgentRunToolCall(c.toolCallId, c.toolName, c.args, true, null, null,
                        CallDigest.of(c.toolName, c.args, null), c.approvedArgs));
            }
        }
        return new AgentRun(s.runId(), RunStatus.SUSPENDED, s.threadId(), s.resourceId(), s.suspendedAt(), calls,
                interruption(s, summary.interruption, calls.isEmpty()), summary.parentRunId, s.createdAt(), expiry(s, summary),
                approved, summary.startedBy);
    }

    /**
     * The run's expiry as listed: the soonest deadline of its calls. The stored deadline (what
     * {@code listDue} sorts on) may be sooner: a call's escalation is due on it too.
     */
    private static @Nullable Instant expiry(RunSnapshot s, RunSummary summary) {
        return s.expiresAt() == null ? null : summary.expiry();
    }

    private static @Nullable String interruption(RunSnapshot s, @Nullable String stored, boolean nothingWaits) {
        if (stored != null) return stored;
        if (s.status() == RunStatus.RESUMING) {
            return "the lease of '" + s.leaseOwner() + "' lapsed at " + s.leaseExpiresAt() + " while it worked on the run";
        }
        return nothingWaits ? "it stopped part-way" : null;
    }

    static List<AgentRunToolCall> waitingCalls(RunState state) {
        return waitingCalls(state, null);
    }

    /** The calls of {@code state} that wait, as listed; with {@code agent}, with the approvals its rules need. */
    static List<AgentRunToolCall> waitingCalls(RunState state, @Nullable Agent agent) {
        List<AgentRunToolCall> out = new ArrayList<>(state.calls.size());
        for (CallState c : state.calls) {
            if (c.waiting()) out.add(waitingCall(c, agent));
        }
        return out;
    }

    /**
     * One waiting call as {@link #waitingCalls(RunState, Agent)} lists it (the same element, built alone: a
     * decision on one call needs its listing, not the digests and copies of the other waiting calls).
     */
    static AgentRunToolCall waitingCall(CallState c, @Nullable Agent agent) {
        boolean approval = c.status == Status.AWAITING_APPROVAL;
        CallState.InnerRun inner = c.inner;
        if (inner != null && !inner.toolName.isEmpty()) {
            return listed(agent, c.toolCallId, inner.toolName, approval ? inner.args : null, approval,
                    approval ? null : inner.suspendPayload, c.expiresAt, null, c.approvedBy, c.escalatedAt);
        }
        return listed(agent, c.toolCallId, c.toolName, approval ? c.args : null, approval, approval ? null : c.suspendPayload,
                c.expiresAt, c.approvedArgs, c.approvedBy, c.escalatedAt);
    }

    /**
     * A waiting call as listed. Its digest is over what an approver is shown: the edited arguments
     * of an edit that waits for more approvals, else the call as proposed.
     */
    private static AgentRunToolCall listed(@Nullable Agent agent, String toolCallId, String toolName, @Nullable JsonNode args,
                                           boolean approval, @Nullable JsonNode payload, @Nullable Instant expiresAt,
                                           @Nullable JsonNode approvedArgs, List<String> approvedBy,
                                           @Nullable Instant escalatedAt) {
        String digest = CallDigest.of(toolName, approval && approvedArgs != null ? approvedArgs : args, payload);
        Instant escalated = approval ? escalatedAt : null;
        AgentRunToolCall call = new AgentRunToolCall(toolCallId, toolName, args, approval, payload, expiresAt, digest, approvedArgs,
                approval ? approvedBy : List.of(), 1, escalated);
        if (agent == null || !approval) return call;
        int needed = agent.approvals().needed(call);
        return needed == 1 ? call : new AgentRunToolCall(toolCallId, toolName, args, true, payload, expiresAt, digest, approvedArgs,
                approvedBy, needed, escalated);
    }
}
