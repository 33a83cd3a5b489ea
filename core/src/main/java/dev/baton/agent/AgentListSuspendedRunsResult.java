package dev.baton.agent;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The suspended runs found.
 *
 * @param runs       this page, newest creation first (ties by runId descending)
 * @param total      every matching run, before pagination
 * @param nextCursor for a page (a {@code perPage} was given) that is full: pass it to
 *                   {@link AgentListSuspendedRunsOptions.Builder#cursor(String)} to get the runs after
 *                   this page, stable while other runs come and go; null when this page is the last, or
 *                   when no {@code perPage} was given
 */
public record AgentListSuspendedRunsResult(List<AgentRun> runs, long total, @Nullable String nextCursor) {
    public AgentListSuspendedRunsResult {
        runs = List.copyOf(runs);
    }

    /** A result without a cursor. */
    public AgentListSuspendedRunsResult(List<AgentRun> runs, long total) {
        this(runs, total, null);
    }
}
