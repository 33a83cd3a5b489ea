package dev.baton.agent;

import java.util.List;

/**
 * The suspended runs found.
 *
 * @param runs  this page, newest creation first (ties by runId descending)
 * @param total every matching run, before pagination
 */
public record AgentListSuspendedRunsResult(List<AgentRun> runs, long total) {
    public AgentListSuspendedRunsResult {
        runs = List.copyOf(runs);
    }
}
