package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.AlreadyDecidedException;
import dev.baton.Ids;
import dev.baton.InvalidOptionException;
import dev.baton.ResumeMismatchException;
import dev.baton.RunNotFoundException;
import dev.baton.RunNotSuspendedException;
import dev.baton.SnapshotFormatException;
import dev.baton.ToolCallNotFoundException;
import dev.baton.UnknownToolException;
import dev.baton.internal.CallState;
import dev.baton.internal.CallState.Status;
import dev.baton.internal.RunState;
import dev.baton.internal.SnapshotCodec;
import java.util.Objects;
import dev.baton.model.Message;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tool.Tool;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Approve, decline, resume, continue and discard: each one reads the run, checks it, and claims it
 * with one compare-and-set that also records the decision, so of several callers exactly one
 * proceeds and the others get {@link RunNotSuspendedException} from the call itself.
 */
final class RunActions {

    /** A human's decision on one waiting call. */
    record Decision(Kind kind, @Nullable String toolCallId, @Nullable String reason, @Nullable JsonNode data,
                    Decisions.Meta meta) {
        enum Kind { APPROVE, DECLINE, DATA }

        static Decision approve(String toolCallId) {
            return new Decision(Kind.APPROVE, toolCallId, null, null, Decisions.Meta.NONE);
        }

        static Decision decline(String toolCallId, @Nullable String reason) {
            return new Decision(Kind.DECLINE, toolCallId, reason, null, Decisions.Meta.NONE);
        }

        static Decision data(@Nullable String toolCallId, JsonNode data) {
            return new Decision(Kind.DATA, toolCallId, null, data, Decisions.Meta.NONE);
        }

        Decision with(Decisions.Meta m) {
            return new Decision(kind, toolCallId, reason, data, m);
        }

        RunAction action() {
            return switch (kind) {
                case APPROVE -> RunAction.APPROVE;
                case DECLINE -> RunAction.DECLINE;
                case DATA -> RunAction.RESUME;
            };
        }
    }

    private final Agent agent;
    private final RunLifecycle lifecycle;

    RunActions(Agent agent) {
        this.agent = agent;
        this.lifecycle = new RunLifecycle(agent, this);
    }

    // ---- public operations ------------------------------------------------------------------------

    /**
     * A new run, not stored: it is stored when it first waits. With thread memory, its thread (of its
     * resource) is found or created and its history read first; the run's messages are saved to it
     * once the run is stored, or when it ends.
     */
    AgentStream start(String prompt, RunOptions options, @Nullable String parentAgentId, @Nullable String parentRunId,
                      String runId) {
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(options, "options");
        agent.shutdown().refuseIfClosing("runs");
        RunState state = new RunState();
        state.runId = runId;
        state.agentId = agent.id();
        state.threadId = options.threadId();
        state.resourceId = options.resourceId();
        state.startedBy = options.startedBy();
        state.createdAt = agent.clock().instant();
        state.maxSteps = options.maxSteps() != null ? options.maxSteps() : agent.maxSteps();
        state.waitTimeoutMillis = options.waitTimeout() == null ? null : options.waitTimeout().toMillis();
        state.parentAgentId = parentAgentId;
        state.parentRunId = parentRunId;
        state.messages.add(new Message.User(prompt));
        if (agent.memory().isPresent() && state.threadId != null && parentRunId == null) {
            // the thread is found (or created) and its history read before anything else
            RunMemory.open(agent.memory().get(), state);
        }
        return new AgentStream(new RunExecution(agent, state, null, RunAction.START, List.of(), null, parentRunId != null));
    }

    AgentStream decide(String runId, Decision decision) {
        Ids.require("runId", runId);
        Ids.optional("toolCallId", decision.toolCallId());
        for (int attempt = 1; ; attempt++) {
            RunSnapshot snapshot = load(runId, decision.action());
            RunState state = SnapshotCodec.decode(snapshot);
            refuseInnerRun(state, "approve, decline or resume");
            List<DecisionRecord> records = new ArrayList<>(1);
            try {
                return decide(snapshot, state, decision, false, records);
            } catch (QuorumRace e) {
                // another approval of a call that needs several landed first: read the run again and count
                if (attempt >= MAX_QUORUM_ATTEMPTS) throw e.lost;
            }
        }
    }

    private static final int MAX_QUORUM_ATTEMPTS = 20;

    /** A lost compare-and-set of a decision on a call that needs several approvals: read again and retry. */
    private static final class QuorumRace extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient RunNotSuspendedException lost;

        QuorumRace(RunNotSuspendedException lost) {
            super(null, null, false, false);
            this.lost = lost;
        }
    }

    AgentStream continueRun(String runId, Decisions.Meta meta) {
        Ids.require("runId", runId);
        RunSnapshot snapshot = load(runId, RunAction.CONTINUE);
        RunState state = SnapshotCodec.decode(snapshot);
        refuseInnerRun(state, "continue");
        List<DecisionRecord> records = agent.decisions().records(state, DecisionKind.CONTINUE, null, null, meta, null, null);
        return new AgentStream(continueRun(snapshot, state, false, records), records.isEmpty() ? null : records.get(0), false);
    }

    /** Removes a run nobody will resume, with the inner runs of its subagents. Works on unreadable snapshots too. */
    void discard(String runId, Decisions.Meta meta) {
        Ids.require("runId", runId);
        RunSnapshot snapshot = load(runId, RunAction.DISCARD);
        RunState state = null;
        try {
            state = SnapshotCodec.decode(snapshot);
        } catch (SnapshotFormatException e) {
            // unreadable: discarding it is exactly what is wanted
        }
        if (state != null && state.parentRunId != null && parentStillDrives(state)) {
            throw new ResumeMismatchException(runId, null, "Run '" + runId + "' is the inner run of supervisor '" + state.parentAgentId
                    + "' run '" + state.parentRunId + "': discard that run instead (it discards its inner runs).");
        }
        List<DecisionRecord> records = agent.decisions().records(snapshot, state, meta);
        if (records.isEmpty() ? !agent.store().delete(runId, snapshot.version())
                : !agent.store().delete(runId, snapshot.version(), records)) {
            agent.listeners().claimConflict(agent.id(), runId, RunAction.DISCARD);
            throw new RunNotSuspendedException(runId, "another caller approved, declined, resumed or continued it first.");
        }
        agent.listeners().claimed(agent.id(), runId, RunAction.DISCARD);
        if (state != null) discardInnerRuns(state);
    }

    AgentResult cancel(String runId, String reason, Decisions.Meta meta) {
        Ids.require("runId", runId);
        return lifecycle.cancel(runId, reason, meta);
    }

    ExpiryReport expire(int limit) {
        return lifecycle.expire(limit);
    }

    // ---- for subagents ----------------------------------------------------------------------------

    AgentStream resumeForParent(RunSnapshot snapshot, RunState state, Decision decision) {
        checkNotHeld(snapshot, decision.action());
        return decide(snapshot, state, decision, true, new ArrayList<>());
    }

    AgentStream continueForParent(RunSnapshot snapshot, RunState state) {
        checkNotHeld(snapshot, RunAction.CONTINUE);
        return new AgentStream(continueRun(snapshot, state, true, List.of()));
    }

    /** Deletes a finished inner run of {@code parentRunId}, unless another process holds it. */
    void deleteInner(String innerRunId, String parentRunId) {
        Optional<RunSnapshot> found = agent.store().find(innerRunId).filter(s -> s.agentId().equals(agent.id()));
        if (found.isEmpty()) return;
        RunSnapshot s = found.get();
        if (s.effectiveStatus(agent.clock().instant()) != RunStatus.SUSPENDED) return;
        agent.store().delete(innerRunId, s.version());
    }

    // ---- internals --------------------------------------------------------------------------------

    RunSnapshot load(String runId, RunAction action) {
        java.util.Objects.requireNonNull(runId, "runId");
        RunSnapshot snapshot = agent.store().find(runId).filter(s -> s.agentId().equals(agent.id()))
                .orElseThrow(() -> new RunNotFoundException(agent.id(), runId));
        checkNotHeld(snapshot, action);
        return snapshot;
    }

    void checkNotHeld(RunSnapshot snapshot, RunAction action) {
        if (snapshot.effectiveStatus(agent.clock().instant()) != RunStatus.SUSPENDED) {
            agent.listeners().claimConflict(agent.id(), snapshot.runId(), action);
            throw new RunNotSuspendedException(snapshot.runId(), "it is being resumed by '" + snapshot.leaseOwner()
                    + "' (lease until " + snapshot.leaseExpiresAt() + "). Only one approve, decline, resume or continue wins.");
        }
    }

    static void refuseInnerRun(RunState state, String what) {
        if (state.parentRunId != null) {
            // acting on it here would leave the supervisor's run waiting on a run that changed under it
            throw new ResumeMismatchException(state.runId, null, "Run '" + state.runId + "' is the inner run of supervisor '" + state.parentAgentId
                    + "' run '" + state.parentRunId + "': " + what + " that run instead.");
        }
    }

    private AgentStream decide(RunSnapshot snapshot, RunState state, Decision decision, boolean forParent,
                               List<DecisionRecord> records) {
        CallState call = target(snapshot, state, decision);
        Tool tool = agent.tool(call.toolName);
        if (tool == null) throw new UnknownToolException(agent.id(), state.runId, call.toolName);
        boolean subagent = tool.executor() instanceof SubagentExecutor;
        if (call.inner != null && !subagent) {
            throw new UnknownToolException(agent.id(), state.runId, call.toolName + " (as a subagent)");
        }
        // checked before anything changes: the approver rules, the digest shown, the edited arguments
        Decisions.Checked checked = forParent ? new Decisions.Checked(null, true, false) : agent.decisions().check(state, call, tool, decision, records);
        JsonNode edited = checked.edited();
        String actor = records.isEmpty() ? Decisions.actorOf(decision.meta()) : records.get(0).actor();
        if (decision.kind() == Decision.Kind.APPROVE && !checked.completes()) return approvedInPart(snapshot, state, call, edited, actor, records);
        boolean quorum = !call.approvedBy.isEmpty();
        boolean contested = checked.contested();
        List<AgentEvent> initial = new ArrayList<>();
        String executing = call.toolCallId;
        switch (decision.kind()) {
            case APPROVE -> {
                markExecuting(call);
                if (call.inner != null) call.inner.action = "approve";
                if (edited != null) call.approvedArgs = edited;
                if (edited != null || call.approvedArgs != null && quorum) {
                    // an edit, or the last approval of an edit that waited for more approvals: the tool runs with it
                    initial.add(new AgentEvent.ToolCallApproved(state.runId, call.toolCallId, call.toolName, ToolRunner.args(call),
                            call.approvedArgs, actor));
                }
                if (quorum && edited == null) call.approvedBy.add(actor);
            }
            case DATA -> {
                markExecuting(call);
                call.resumeData = decision.data();
                if (call.inner != null) call.inner.action = "data";
            }
            case DECLINE -> {
                String reason = decision.reason() == null || decision.reason().isBlank()
                        ? RunExecution.NOT_APPROVED : decision.reason();
                if (call.inner != null) {
                    markExecuting(call);
                    call.inner.action = "decline";
                    call.inner.reason = reason;
                } else {
                    executing = null;
                    call.status = Status.DONE;
                    call.result = TextNode.valueOf(reason);
                    call.isError = false;
                    call.declinedReason = reason;
                    initial.add(new AgentEvent.ToolOutputDenied(state.runId, call.toolCallId, call.toolName, reason));
                }
            }
        }
        RunClaim claim;
        try {
            claim = claim(snapshot, state, decision.action(), !forParent, decision.action().wireName() + "d call '"
                    + call.toolCallId + "'", records);
        } catch (RunNotSuspendedException e) {
            if (contested) throw new QuorumRace(e);
            throw e;
        }
        RunExecution exec = new RunExecution(agent, state, claim, decision.action(), initial, executing, forParent);
        return forParent ? new AgentStream(exec) : new AgentStream(exec, records.isEmpty() ? null : records.get(0), false);
    }

    /**
     * An approval that does not complete its call's quorum: recorded with the run's next version
     * in one compare-and-set; the run stays suspended and nothing runs. An edit restarts the count
     * with its editor (the earlier approvers approved other arguments).
     */
    private AgentStream approvedInPart(RunSnapshot snapshot, RunState state, CallState call, @Nullable JsonNode edited, String actor,
                                       List<DecisionRecord> records) {
        agent.shutdown().refuseIfClosing("claims");
        if (edited != null) {
            call.approvedArgs = edited;
            call.approvedBy = new ArrayList<>(List.of(actor));
        } else {
            call.approvedBy.add(actor);
        }
        SnapshotCodec.Encoded encoded = DeciderLabels.encode(agent, state);
        RunSnapshot next = snapshot.toBuilder().version(snapshot.version() + 1).payload(encoded.payload())
                .expiresAt(encoded.expiresAt()).summary(encoded.summary()).deciders(encoded.deciders()).build();
        if (records.isEmpty() ? !agent.store().compareAndSet(snapshot.version(), next)
                : !agent.store().compareAndSet(snapshot.version(), next, records)) {
            agent.listeners().claimConflict(agent.id(), snapshot.runId(), RunAction.APPROVE);
            throw new QuorumRace(new RunNotSuspendedException(snapshot.runId(), "another caller decided on it at the same time."));
        }
        AgentResult result = new AgentResult(state.runId, RunOutcome.SUSPENDED, "", List.of(), RunListing.waitingCalls(state, agent), null);
        return new AgentStream(result, records.isEmpty() ? null : records.get(0), false);
    }

    static void markExecuting(CallState call) {
        call.status = Status.EXECUTING;
        call.attempts++;
    }

    private RunExecution continueRun(RunSnapshot snapshot, RunState state, boolean forParent, List<DecisionRecord> records) {
        List<CallState> waiting = state.waitingCalls();
        if (!waiting.isEmpty()) {
            throw new ResumeMismatchException(state.runId, null, "Run '" + state.runId + "' waits for "
                    + waiting.stream().map(c -> c.toolCallId).toList()
                    + ": approve, decline or resume those calls; continueRun is for runs that wait for nobody.");
        }
        RunClaim claim = claim(snapshot, state, RunAction.CONTINUE, !forParent, "continued", records);
        return new RunExecution(agent, state, claim, RunAction.CONTINUE, List.of(), null, forParent);
    }

    /** The compare-and-set that claims the run and records the decision already applied to {@code state}. */
    RunClaim claim(RunSnapshot snapshot, RunState state, RunAction action, boolean releaseUnread, String what,
                   List<DecisionRecord> records) {
        agent.shutdown().refuseIfClosing("claims");
        state.interruption = null;
        Instant now = agent.clock().instant();
        SnapshotCodec.Encoded encoded = SnapshotCodec.encodeAll(state);
        RunSnapshot claimed = snapshot.toBuilder().status(RunStatus.RESUMING).version(snapshot.version() + 1)
                .lease(agent.instanceId(), now.plus(agent.leaseDuration())).payload(encoded.payload())
                .expiresAt(encoded.expiresAt()).summary(encoded.summary()).notification(null, null).build();
        if (records.isEmpty() ? !agent.store().compareAndSet(snapshot.version(), claimed)
                : !agent.store().compareAndSet(snapshot.version(), claimed, records)) {
            agent.listeners().claimConflict(agent.id(), snapshot.runId(), action);
            throw new RunNotSuspendedException(snapshot.runId(), "another caller approved, declined, resumed or continued it first.");
        }
        agent.listeners().claimed(agent.id(), snapshot.runId(), action);
        RunClaim claim = new RunClaim(agent.store(), agent.clock(), agent.leaseDuration(), agent.instanceId(),
                agent.listeners(), claimed, agent.notifications(), s -> DeciderLabels.encode(agent, s));
        agent.shutdown().track(claim);
        if (releaseUnread) {
            String why = "it was " + what + ", but its stream was not read within " + agent.pickupTimeout()
                    + "; continueRun goes on";
            // the run as claimed, marked with why: built only if it is released (read back from the claimed row,
            // which holds exactly the state of this moment, so nothing the loop changes since can get into it)
            claim.releaseIfNotPickedUp(agent.pickupTimeout(), () -> {
                RunState asClaimed = SnapshotCodec.decode(claimed);
                asClaimed.interruption = why;
                return DeciderLabels.encode(agent, asClaimed);
            });
        }
        return claim;
    }

    /** Finds and checks the call a decision targets; changes nothing. */
    private CallState target(RunSnapshot snapshot, RunState state, Decision decision) {
        CallState call;
        if (decision.toolCallId() != null) {
            // one pass over the step's calls: the waiting call named, or a decided one (the id list of an error is built only then)
            CallState found = null;
            for (CallState c : state.calls) {
                if (!c.toolCallId.equals(decision.toolCallId())) continue;
                if (!c.waiting()) throw agent.decisions().alreadyDecided(snapshot, state, c);
                if (found == null) found = c;
            }
            if (found == null) {
                Optional<AlreadyDecidedException> earlier = agent.decisions().decidedInAnEarlierStep(state, decision.toolCallId());
                if (earlier.isPresent()) throw earlier.get();
                throw new ToolCallNotFoundException(state.runId, decision.toolCallId(), waitingIds(state));
            }
            call = found;
        } else {
            List<CallState> waiting = state.waitingCalls();
            List<CallState> data = waiting.stream().filter(c -> c.status == Status.AWAITING_DATA).toList();
            if (data.isEmpty()) {
                if (waiting.isEmpty()) {
                    throw new ResumeMismatchException(state.runId, null, "Run '" + state.runId + "' waits for no resume data and no approval:"
                            + " it stopped part-way. Use continueRun(runId) to go on.");
                }
                throw new ResumeMismatchException(state.runId, null, "Run '" + state.runId + "' waits for an approval of " + waitingIds(state)
                        + ", not for resume data: use approveToolCall or declineToolCall.");
            }
            if (data.size() > 1) {
                throw new InvalidOptionException("toolCallId", "run '" + state.runId + "' has several calls waiting for data "
                        + data.stream().map(c -> c.toolCallId).toList() + "; name one in ResumeOptions");
            }
            call = data.get(0);
        }
        boolean wantsApproval = decision.kind() != Decision.Kind.DATA;
        boolean waitsForApproval = call.status == Status.AWAITING_APPROVAL;
        if (wantsApproval && !waitsForApproval) {
            throw new ResumeMismatchException(state.runId, call.toolCallId, "Tool call '" + call.toolCallId + "' of run '" + state.runId
                    + "' waits for resume data, not for an approval: use resumeStream(data, runId).");
        }
        if (!wantsApproval && waitsForApproval) {
            throw new ResumeMismatchException(state.runId, call.toolCallId, "Tool call '" + call.toolCallId + "' of run '" + state.runId
                    + "' waits for an approval, not for resume data: use approveToolCall or declineToolCall.");
        }
        return call;
    }

    /** The ids of the calls that wait, in order: what an error about the target names. */
    private static List<String> waitingIds(RunState state) {
        List<String> ids = new ArrayList<>();
        for (CallState c : state.calls) if (c.waiting()) ids.add(c.toolCallId);
        return ids;
    }

    /** True if the supervisor's run still exists and still waits on or drives this inner run. */
    private boolean parentStillDrives(RunState inner) {
        Optional<RunSnapshot> parent = agent.store().find(inner.parentRunId);
        if (parent.isEmpty() || !parent.get().agentId().equals(inner.parentAgentId)) return false;
        try {
            RunState p = SnapshotCodec.decode(parent.get());
            for (CallState c : p.calls) {
                if (c.inner != null && c.inner.runId.equals(inner.runId) && c.status != Status.DONE) return true;
            }
            return false;
        } catch (SnapshotFormatException e) {
            return true;   // cannot tell: keep it
        }
    }

    void discardInnerRuns(RunState state) {
        for (CallState c : state.calls) {
            if (c.inner == null) continue;
            Tool tool = agent.tool(c.toolName);
            if (tool == null || !(tool.executor() instanceof SubagentExecutor sub)) continue;
            Agent inner = sub.subagent();
            Optional<RunSnapshot> found = inner.store().find(c.inner.runId).filter(s -> s.agentId().equals(inner.id()));
            if (found.isEmpty() || found.get().effectiveStatus(inner.clock().instant()) != RunStatus.SUSPENDED) continue;
            RunState innerState = null;
            try {
                innerState = SnapshotCodec.decode(found.get());
            } catch (SnapshotFormatException e) {
                // delete it all the same: its supervisor is gone
            }
            if (inner.store().delete(found.get().runId(), found.get().version()) && innerState != null) {
                inner.actions().discardInnerRuns(innerState);
            }
        }
    }
}
