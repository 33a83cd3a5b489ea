package dev.baton.agent;

import dev.baton.store.DecisionPage;
import dev.baton.store.StoreCapability;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The decisions of an agent with options (actor, reason, idempotency key, digest, edited arguments)
 * and the audit trail: listing and purging records. Agent delegates here.
 */
final class Decisions {
    static final int PURGE_BATCH = 500;
    private final Agent agent;

    Decisions(Agent agent) {
        this.agent = agent;
    }

    boolean recording() {
        return agent.store().capabilities().contains(StoreCapability.DECISIONS);
    }

    AgentStream approve(String runId, String toolCallId, ApproveOptions options) {
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(options, "options");
        return agent.approveToolCall(runId, toolCallId);   // TODO(i24): edit, digest, record
    }

    AgentStream decline(String runId, String toolCallId, DeclineOptions options) {
        Objects.requireNonNull(options, "options");
        return agent.declineToolCall(runId, toolCallId, options.reason());   // TODO(i24): digest, record
    }

    AgentStream resume(@Nullable Object data, ResumeOptions options, DecisionOptions decision) {
        Objects.requireNonNull(decision, "decision");
        return agent.resumeStream(data, options);   // TODO(i24): digest, record
    }

    AgentStream continueRun(String runId, DecisionOptions options) {
        Objects.requireNonNull(options, "options");
        return agent.continueRun(runId);   // TODO(i24): record
    }

    void discard(String runId, DecisionOptions options) {
        Objects.requireNonNull(options, "options");
        agent.discardRun(runId);   // TODO(i24): record
    }

    AgentResult cancel(String runId, DecisionOptions options) {
        Objects.requireNonNull(options, "options");
        return agent.cancelRun(runId, options.reason());   // TODO(i24): record
    }

    DecisionPage list(AgentListDecisionsOptions options) {
        Objects.requireNonNull(options, "options");
        requireRecording("listDecisions");
        return agent.store().listDecisions(options.toQuery(agent.id()));
    }

    long purge(Instant olderThan) {
        Objects.requireNonNull(olderThan, "olderThan");
        requireRecording("purgeDecisions");
        long total = 0;
        for (int i = 0; i < 1_000_000; i++) {
            int n = agent.store().purgeDecisions(agent.id(), olderThan, PURGE_BATCH);
            total += n;
            if (n < PURGE_BATCH) break;
        }
        return total;
    }

    private void requireRecording(String what) {
        if (!recording()) {
            throw new UnsupportedOperationException(what + ": the store of agent '" + agent.id() + "', " + agent.store().describe()
                    + ", keeps no decisions (capability DECISIONS)");
        }
    }
}
