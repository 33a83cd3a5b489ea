package dev.baton.agent;

import dev.baton.LeaseLostException;
import dev.baton.StorageException;
import dev.baton.internal.CallState;
import dev.baton.internal.CallState.Status;
import dev.baton.internal.RunState;
import dev.baton.internal.SnapshotCodec;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Everything a run writes to its store, and when: the one place that decides what a crash at any
 * moment leaves behind (docs/recovery.md describes it write by write).
 * <ul>
 *   <li>A run that was never stored is inserted when it first waits, or when it stops part-way
 *       after a tool ran; before that nothing of it is stored, in its thread neither: its complete
 *       messages go to its thread right after the insert (or, for a run that ends without ever
 *       waiting, with its final answer).</li>
 *   <li>A claimed run stores each tool's start ({@code EXECUTING}), carrying the results obtained
 *       since the last write; stores every result before the model is called again; and ends with
 *       a delete, or a compare-and-set back to {@code SUSPENDED}.</li>
 * </ul>
 */
final class RunWrites {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RunWrites.class);
    private final Agent agent;
    private final RunState state;
    private @Nullable RunClaim claim;
    /** The call the claim's own write already marked EXECUTING (and counted an attempt for). */
    private @Nullable String claimedExecuting;
    /** An inner run driven by its supervisor keeps its claim on completion: the supervisor deletes it. */
    private final boolean forParent;
    /** Changes (tool results, new calls) not yet in the store. */
    private boolean dirty;

    RunWrites(Agent agent, RunState state, @Nullable RunClaim claim, @Nullable String claimedExecuting, boolean forParent) {
        this.agent = agent;
        this.state = state;
        this.claim = claim;
        this.claimedExecuting = claimedExecuting;
        this.forParent = forParent;
        if (claim != null) {
            claim.liveState(why -> {   // a hand-back between steps (the agent closes): what the loop holds
                stampDeadlines();
                state.interruption = why;
                return DeciderLabels.encode(agent, state);
            });
        }
    }

    boolean claimed() {
        return claim != null;
    }

    @Nullable RunClaim claim() {
        return claim;
    }

    boolean forParent() {
        return forParent;
    }

    void changed() {
        dirty = true;
    }

    /**
     * Before the loop does anything: the claim must still be this stream's. A claim given back
     * because the stream was read late is taken again if nobody touched the run since.
     *
     * @throws LeaseLostException if another caller has it now (the caller counted itself busy all the same)
     */
    void begin() {
        RunClaim c = claim;
        if (c == null || c.busy(true)) return;
        if (c.handedBack()) throw new RunExecution.Stop(AgentShutdown.reason(false), null);   // kept by the hand-back
        if (!c.releasedUnread() || agent.shutdown().closing()) throw new LeaseLostException(state.runId);
        c.reclaim(SnapshotCodec.encodeAll(state));   // read late, but nobody took it: go on
    }

    /** True if the claim was given back because the stream was not read in time (its decision is kept). */
    boolean releasedUnread() {
        RunClaim c = claim;
        return c != null && c.releasedUnread();
    }

    void end() {
        RunClaim c = claim;
        if (c != null) c.busy(false);
    }

    /** A tool is about to run: its call is stored as EXECUTING (a write that also proves the lease). */
    void executing(CallState call) {
        RunClaim c = claim;
        if (c != null && call.toolCallId.equals(claimedExecuting)) {
            claimedExecuting = null;   // the claim recorded it; only check the lease
            c.fence();
            return;
        }
        call.status = Status.EXECUTING;
        call.attempts++;
        if (c != null) {
            stampDeadlines();
            c.progress(SnapshotCodec.encodeAll(state));
            dirty = false;
        }
    }

    /** Stores what changed (results before the model is called again; a subagent's result before its inner run goes). */
    void progress() {
        RunClaim c = claim;
        if (c != null && dirty) {
            stampDeadlines();
            c.progress(SnapshotCodec.encodeAll(state));
            dirty = false;
        }
    }

    /**
     * Gives every waiting call without a deadline its deadline, if a wait timeout applies to it: the
     * run's, else its tool's, else the agent's. A call keeps its deadline while it waits, across claims.
     */
    private void stampDeadlines() {
        Instant now = null;
        for (CallState c : state.calls) {
            if (state.parentRunId == null && c.waiting() && c.status == Status.AWAITING_APPROVAL && c.escalatesAt == null
                    && c.escalatedAt == null) {
                // an approver rule that escalates: when the call moves to its group (kept while it waits)
                java.time.Duration after = agent.approvals().escalateAfter(c);
                if (after != null) {
                    if (now == null) now = agent.clock().instant();
                    c.escalatesAt = now.plus(after);
                }
            }
            if (!c.waiting() || c.expiresAt != null) continue;
            java.time.Duration limit = state.waitTimeoutMillis != null ? java.time.Duration.ofMillis(state.waitTimeoutMillis)
                    : toolTimeout(c.toolName);
            if (limit == null) limit = agent.waitTimeout().orElse(null);
            if (limit == null) continue;
            if (now == null) now = agent.clock().instant();
            c.expiresAt = now.plus(limit);
        }
    }

    private java.time.@Nullable Duration toolTimeout(String toolName) {
        dev.baton.tool.Tool tool = agent.tool(toolName);
        return tool == null ? null : tool.waitTimeout().orElse(null);
    }

    /** The run waits for the calls that wait: inserted, or written back as suspended. */
    void suspend() {
        stampDeadlines();
        state.interruption = null;
        SnapshotCodec.Encoded encoded = DeciderLabels.encode(agent, state);
        if (claim == null) {
            insert(encoded, false);
        } else {
            claim.suspend(encoded);
        }
        dirty = false;
    }

    /** The run ended: its snapshot goes (unless a supervisor still has to record the result). */
    void complete() {
        RunClaim c = claim;
        if (c != null && !forParent) c.complete();
    }

    /**
     * The run stops part-way and is kept, marked interrupted with {@code why}: written back if it
     * is claimed, inserted if it was never stored but a tool ran or a call waits.
     *
     * @return false if there was nothing worth keeping (a new run in which no tool ran)
     */
    boolean keep(String why) {
        stampDeadlines();
        state.interruption = why;
        SnapshotCodec.Encoded encoded = DeciderLabels.encode(agent, state);
        RunClaim c = claim;
        if (c != null) {
            c.release(encoded);
            return true;
        }
        if (!worthKeeping()) return false;
        insert(encoded, true);
        return true;
    }

    /** The store or the lease failed: nothing more is written; the heartbeat stops. */
    void abandon() {
        RunClaim c = claim;
        if (c != null) c.abandon();
    }

    private boolean worthKeeping() {
        for (CallState c : state.calls) if (c.status != Status.PENDING) return true;
        for (dev.baton.model.Message m : state.messages) if (m instanceof dev.baton.model.Message.ToolResult) return true;
        return false;
    }

    private void insert(SnapshotCodec.Encoded encoded, boolean interrupted) {
        Instant now = agent.clock().instant();
        RunSnapshot snapshot = RunSnapshot.builder().runId(state.runId).agentId(agent.id()).status(RunStatus.SUSPENDED)
                .threadId(state.threadId).resourceId(state.resourceId).createdAt(state.createdAt).suspendedAt(now).version(1)
                .payload(encoded.payload()).expiresAt(encoded.expiresAt()).summary(encoded.summary())
                .deciders(encoded.deciders()).build();
        snapshot = RunNotifications.stamp(snapshot, agent.notifications(), interrupted);
        if (!agent.store().insert(snapshot)) {
            throw new StorageException("Run id '" + state.runId + "' is already stored in " + agent.store().describe(),
                    state.runId, null);
        }
        // only now is the run somewhere: its complete messages go to its thread (a crash before this
        // leaves the thread without them; the run, recovered, saves them: rule M4)
        try {
            RunMemory.save(agent, state);
        } catch (StorageException e) {
            LOG.warn("Run {} is stored, but its messages could not be saved to its thread yet; it saves them when it"
                    + " goes on: {}", state.runId, e.getMessage());
        }
    }
}
