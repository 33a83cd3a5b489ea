package dev.baton.agent;

import dev.baton.InvalidOptionException;
import dev.baton.SnapshotFormatException;
import dev.baton.internal.CallState;
import dev.baton.internal.CallState.Status;
import dev.baton.internal.RunState;
import dev.baton.internal.SnapshotCodec;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The discovery rules: options validated here, filtering, order, count and paging done by the store. */
final class RunListing {
    private static final Logger LOG = LoggerFactory.getLogger(RunListing.class);

    private RunListing() {
    }

    static AgentListSuspendedRunsResult list(Agent agent, AgentListSuspendedRunsOptions options) {
        java.util.Objects.requireNonNull(options, "options");
        if (options.perPage() != null && options.perPage() < 1) {
            throw new InvalidOptionException("perPage", "must be a positive integer, was " + options.perPage());
        }
        if (options.page() != null && options.page() < 0) {
            throw new InvalidOptionException("page", "must be a non-negative integer (pages are zero-based), was " + options.page());
        }
        if (options.fromDate() != null && options.toDate() != null && options.fromDate().isAfter(options.toDate())) {
            throw new InvalidOptionException("fromDate", "must not be after toDate (" + options.fromDate() + " > " + options.toDate() + ")");
        }
        Instant now = agent.clock().instant();
        RunQuery.Builder q = RunQuery.forAgent(agent.id(), now)
                .status(RunStatus.SUSPENDED)
                .threadId(options.threadId())
                .resourceId(options.resourceId())
                .createdFrom(options.fromDate())
                .createdTo(options.toDate());
        if (options.paginated()) q.page((long) options.page() * options.perPage(), options.perPage());
        RunPage page = agent.store().list(q.build());
        List<AgentRun> runs = new ArrayList<>(page.items().size());
        for (RunSnapshot s : page.items()) runs.add(toAgentRun(s));
        return new AgentListSuspendedRunsResult(runs, page.total());
    }

    static AgentRun toAgentRun(RunSnapshot s) {
        List<AgentRunToolCall> calls;
        String interruption;
        String parent = null;
        try {
            RunState state = SnapshotCodec.decode(s);
            calls = waitingCalls(state);
            parent = state.parentRunId;
            interruption = state.interruption;
            if (interruption == null && s.status() == RunStatus.RESUMING) {
                interruption = "the lease of '" + s.leaseOwner() + "' lapsed at " + s.leaseExpiresAt()
                        + " while it worked on the run";
            } else if (interruption == null && calls.isEmpty()) {
                interruption = "it stopped part-way";
            }
        } catch (SnapshotFormatException e) {
            // listed so it can be seen and discarded; continuing it gives the precise error
            LOG.warn("{}", e.getMessage());
            calls = List.of();
            interruption = "its snapshot cannot be read: " + e.getMessage();
        }
        return new AgentRun(s.runId(), RunStatus.SUSPENDED, s.threadId(), s.resourceId(), s.suspendedAt(), calls,
                interruption, parent);
    }

    static List<AgentRunToolCall> waitingCalls(RunState state) {
        List<AgentRunToolCall> out = new ArrayList<>();
        for (CallState c : state.calls) {
            if (!c.waiting()) continue;
            boolean approval = c.status == Status.AWAITING_APPROVAL;
            CallState.InnerRun inner = c.inner;
            if (inner != null && !inner.toolName.isEmpty()) {
                out.add(new AgentRunToolCall(c.toolCallId, inner.toolName, approval ? inner.args : null, approval,
                        approval ? null : inner.suspendPayload));
            } else {
                out.add(new AgentRunToolCall(c.toolCallId, c.toolName, approval ? c.args : null, approval,
                        approval ? null : c.suspendPayload));
            }
        }
        return out;
    }
}
