package dev.baton.agent;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one {@link Agent#expireDueRuns(int)} did.
 *
 * <p>Immutable and thread-safe.
 *
 * @param runs     one entry per due run it looked at
 * @param due      how many due runs the store returned
 */
public record ExpiryReport(List<Expired> runs, int due) {
    /**
     * Creates the record.
     *
     * @param runs one entry per due run it looked at
     * @param due how many due runs the store returned
     */
    public ExpiryReport {
        runs = List.copyOf(runs);
    }

    /**
     * How many runs were declined, cancelled or had a call escalated by this call (not by another instance).
     *
     * @return the number of runs handled
     */
    public long handled() {
        return runs.stream().filter(r -> r.action() == ExpiryPolicy.Action.DECLINE || r.action() == ExpiryPolicy.Action.CANCEL
                        || !r.escalated().isEmpty())
                .filter(r -> r.skipped() == null).count();
    }

    /**
     * One due run.
     *
     * @param runId       the run
     * @param action      what was done (KEEP when nothing was)
     * @param toolCallIds the expired calls
     * @param outcome     how the run's stream ended after a decline (it goes on), CANCELLED after a cancel, null if skipped
     * @param skipped     why nothing was done (another instance took it first, it is a subagent's inner run, ...), or null
     * @param escalated   the calls that escalated to their approver rule's group ({@link ApproverRule.Builder#escalateAfter})
     */
    public record Expired(String runId, ExpiryPolicy.Action action, List<String> toolCallIds, @Nullable RunOutcome outcome,
                          @Nullable String skipped, List<String> escalated) {
        /**
         * Creates the record.
         *
         * @param runId the run
         * @param action what was done (KEEP when nothing was)
         * @param toolCallIds the expired calls
         * @param outcome how the run's stream ended after a decline (it goes on), CANCELLED after a cancel, null if skipped
         * @param skipped why nothing was done (another instance took it first, it is a subagent's inner run, ...), or null
         * @param escalated the calls that escalated
         */
        public Expired {
            toolCallIds = List.copyOf(toolCallIds);
            escalated = List.copyOf(escalated);
        }

        /**
         * A due run none of whose calls escalated.
         *
         * @param runId the run
         * @param action what was done (KEEP when nothing was)
         * @param toolCallIds the expired calls
         * @param outcome how the run's stream ended after a decline, CANCELLED after a cancel, null if skipped
         * @param skipped why nothing was done, or null
         */
        public Expired(String runId, ExpiryPolicy.Action action, List<String> toolCallIds, @Nullable RunOutcome outcome,
                       @Nullable String skipped) {
            this(runId, action, toolCallIds, outcome, skipped, List.of());
        }
    }
}
