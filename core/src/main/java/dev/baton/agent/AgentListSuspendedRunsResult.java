package dev.baton.agent;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The suspended runs found. Immutable and thread-safe. Its canonical constructor is for core and
 * tests, and the record may gain components in a minor release.
 *
 * @param runs       this page, newest creation first (ties by runId descending)
 * @param total      every matching run, before pagination
 * @param nextCursor for a page (a {@code perPage} was given) that is full: pass it to
 *                   {@link AgentListSuspendedRunsOptions.Builder#cursor(String)} to get the runs after
 *                   this page, stable while other runs come and go; null when this page is the last, or
 *                   when no {@code perPage} was given
 */
public record AgentListSuspendedRunsResult(List<AgentRun> runs, long total, @Nullable String nextCursor) {
    /**
     * Copies the list.
     *
     * @param runs this page, newest creation first (ties by runId descending)
     * @param total every matching run, before pagination
     * @param nextCursor for a page (a {@code perPage} was given) that is full: pass it to {@link AgentListSuspendedRunsOptions.Builder#cursor(String)} to get the runs after this page, stable while other runs come and go; null when this page is the last, or when no {@code perPage} was given
     */
    public AgentListSuspendedRunsResult {
        runs = List.copyOf(runs);
    }
}
