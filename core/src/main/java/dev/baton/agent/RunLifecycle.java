package dev.baton.agent;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.baton.RunNotSuspendedException;
import dev.baton.SnapshotFormatException;
import dev.baton.internal.CallState;
import dev.baton.internal.CallState.Status;
import dev.baton.internal.RunState;
import dev.baton.internal.SnapshotCodec;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Cancel and expiry: the ends of a run that nobody drove to its end. Claims go through {@link RunActions}. */
final class RunLifecycle {
    private final Agent agent;
    private final RunActions actions;

    RunLifecycle(Agent agent, RunActions actions) {
        this.agent = agent;
        this.actions = actions;
    }

    /** Cancels a run: claimed (so a racing approval loses, or wins), its inner runs removed, then deleted. */
    AgentResult cancel(String runId, String reason, Decisions.Meta meta) {
        RunSnapshot snapshot = actions.load(runId, RunAction.CANCEL);
        RunState state = SnapshotCodec.decode(snapshot);
        RunActions.refuseInnerRun(state, "cancel");
        return cancel(snapshot, state, reason,
                agent.decisions().records(state, DecisionKind.CANCEL, null, null, meta.withReason(reason), null, null));
    }

    private AgentResult cancel(RunSnapshot snapshot, RunState state, String reason, List<DecisionRecord> records) {
        long t0 = System.nanoTime();
        // what a crash before the delete leaves: the run, listed as interrupted, to be cancelled again
        RunClaim claim = actions.claim(snapshot, state, RunAction.CANCEL, false, "being cancelled (" + reason + ")", records);
        RunListener.RunContext context = new RunListener.RunContext(agent.id(), state.runId, state.threadId,
                state.resourceId, RunAction.CANCEL, new java.util.concurrent.ConcurrentHashMap<>());
        agent.listeners().runStarted(context);
        actions.discardInnerRuns(state);
        claim.complete();
        List<AgentEvent> events = List.of(new AgentEvent.Start(state.runId), new AgentEvent.Cancelled(state.runId, reason),
                new AgentEvent.Finish(state.runId, FinishReason.CANCELLED, state.text));
        for (AgentEvent e : events) agent.listeners().event(new RunListener.RunEvent(context, e));
        agent.listeners().runEnded(new RunListener.RunEnd(context, RunOutcome.CANCELLED, null,
                java.time.Duration.ofNanos(System.nanoTime() - t0)));
        return new AgentResult(state.runId, RunOutcome.CANCELLED, "", events, List.of(), null);
    }

    /**
     * Handles due runs as the agent's expiry policy says, and escalates the calls whose approver rule
     * escalates them; see {@link Agent#expireDueRuns(int)}.
     */
    ExpiryReport expire(int limit) {
        ExpiryPolicy policy = agent.expiryPolicy();
        boolean escalates = agent.approvals().escalates();
        if (policy.action() == ExpiryPolicy.Action.KEEP && !escalates) return new ExpiryReport(List.of(), 0);
        Instant now = agent.clock().instant();
        List<RunSnapshot> due = agent.store().listDue(agent.id(), now, limit);
        List<ExpiryReport.Expired> report = new ArrayList<>();
        for (RunSnapshot listed : due) {
            String runId = listed.runId();
            List<String> expired = List.of();
            List<String> escalated = List.of();
            try {
                Optional<RunSnapshot> found = agent.store().find(runId).filter(s -> s.agentId().equals(agent.id()));
                if (found.isEmpty()) {
                    report.add(new ExpiryReport.Expired(runId, policy.action(), List.of(), null, "it is gone"));
                    continue;
                }
                RunSnapshot snapshot = found.get();
                actions.checkNotHeld(snapshot, RunAction.EXPIRE);
                RunState state = SnapshotCodec.decode(snapshot);
                List<CallState> calls = policy.action() == ExpiryPolicy.Action.KEEP ? List.of() : state.waitingCalls().stream()
                        .filter(c -> c.expiresAt != null && !c.expiresAt.isAfter(now)).toList();
                expired = calls.stream().map(c -> c.toolCallId).toList();
                // a call that expires under a policy that acts is declined or cancelled, never escalated
                List<CallState> escalating = state.waitingCalls().stream()
                        .filter(c -> c.status == Status.AWAITING_APPROVAL && c.escalatesAt != null && !c.escalatesAt.isAfter(now))
                        .filter(c -> !calls.contains(c)).toList();
                escalated = escalating.stream().map(c -> c.toolCallId).toList();
                if (state.parentRunId != null) {
                    report.add(new ExpiryReport.Expired(runId, policy.action(), expired, null,
                            "the inner run of supervisor run '" + state.parentRunId + "': that run's wait expires instead"));
                    continue;
                }
                if (calls.isEmpty() && escalating.isEmpty()) {
                    report.add(new ExpiryReport.Expired(runId, policy.action(), expired, null, "no call's wait has expired"));
                    continue;
                }
                if (!calls.isEmpty() && policy.action() == ExpiryPolicy.Action.CANCEL) {
                    RunOutcome outcome = cancel(snapshot, state, policy.reason(), agent.decisions().records(state, DecisionKind.CANCEL,
                            null, null, Decisions.Meta.SYSTEM.withReason(policy.reason()), null, null)).outcome();
                    report.add(new ExpiryReport.Expired(runId, policy.action(), expired, outcome, null));
                    continue;
                }
                List<DecisionRecord> records = escalate(state, escalating, now);
                RunOutcome outcome = calls.isEmpty() ? escalated(snapshot, state, records)
                        : new AgentStream(declineExpired(snapshot, state, calls, policy.reason(), records)).result().outcome();
                report.add(new ExpiryReport.Expired(runId, calls.isEmpty() ? ExpiryPolicy.Action.KEEP : policy.action(), expired, outcome,
                        null, escalated));
            } catch (RunNotSuspendedException e) {
                report.add(new ExpiryReport.Expired(runId, policy.action(), expired, null, "another caller claimed it first", escalated));
            } catch (SnapshotFormatException e) {
                report.add(new ExpiryReport.Expired(runId, policy.action(), expired, null, e.getMessage(), escalated));
            }
        }
        return new ExpiryReport(report, due.size());
    }

    /**
     * Moves each call to its rule's escalation group in {@code state} (from now on, that group decides
     * it) and returns their records ({@link DecisionKind#ESCALATE} by {@code system}, the reason naming
     * the group), to be written in the same compare-and-set as the run.
     */
    private List<DecisionRecord> escalate(RunState state, List<CallState> calls, Instant now) {
        List<DecisionRecord> records = new ArrayList<>();
        for (CallState call : calls) {
            ApproverRule rule = agent.approvals().ruleOf(call);
            String group = rule == null ? "[]" : rule.escalationRoles().toString();
            records.addAll(agent.decisions().escalationRecords(state, call, "not decided within "
                    + (rule == null ? "its time" : rule.escalateAfter().map(Object::toString).orElse("its time"))
                    + " (approver rule '" + (rule == null ? "?" : rule.name()) + "'): escalated to " + group));
            call.escalatesAt = null;
            call.escalatedAt = now;
        }
        return records;
    }

    /**
     * Writes escalations alone: the run's next version in one compare-and-set with their records, the
     * run still suspended (as a partial approval is written). A lost race means another instance (or a
     * decision) changed the run first: the escalation is not made twice.
     */
    private RunOutcome escalated(RunSnapshot snapshot, RunState state, List<DecisionRecord> records) {
        agent.shutdown().refuseIfClosing("claims");
        // the labels change with the group: from now on the escalation group's roles decide the call
        SnapshotCodec.Encoded encoded = DeciderLabels.encode(agent, state);
        RunSnapshot next = snapshot.toBuilder().version(snapshot.version() + 1).payload(encoded.payload())
                .expiresAt(encoded.expiresAt()).summary(encoded.summary()).deciders(encoded.deciders()).build();
        if (records.isEmpty() ? !agent.store().compareAndSet(snapshot.version(), next)
                : !agent.store().compareAndSet(snapshot.version(), next, records)) {
            agent.listeners().claimConflict(agent.id(), snapshot.runId(), RunAction.EXPIRE);
            throw new RunNotSuspendedException(snapshot.runId(), "another caller changed it first.");
        }
        return RunOutcome.SUSPENDED;
    }

    /** One claim that declines every expired call (a call waiting for data gets the reason as an error). */
    private RunExecution declineExpired(RunSnapshot snapshot, RunState state, List<CallState> calls, String reason,
                                        List<DecisionRecord> escalations) {
        List<AgentEvent> initial = new ArrayList<>();
        List<DecisionRecord> records = new ArrayList<>(agent.decisions().expiryRecords(state, calls, reason));
        records.addAll(escalations);
        String executing = null;
        for (CallState call : calls) {
            boolean approval = call.status == Status.AWAITING_APPROVAL;
            if (call.inner != null && approval) {
                RunActions.markExecuting(call);
                call.inner.action = "decline";
                call.inner.reason = reason;
                if (executing == null) executing = call.toolCallId;
                continue;
            }
            call.status = Status.DONE;
            call.result = TextNode.valueOf(reason);
            call.isError = !approval;
            call.declinedReason = reason;
            if (call.inner != null) call.inner.cleanup = true;   // its inner run waited for data: it goes
            initial.add(approval ? new AgentEvent.ToolOutputDenied(state.runId, call.toolCallId, call.toolName, reason)
                    : new AgentEvent.ToolError(state.runId, call.toolCallId, call.toolName, reason));
        }
        RunClaim claim = actions.claim(snapshot, state, RunAction.EXPIRE, false, "expired", records);
        return new RunExecution(agent, state, claim, RunAction.EXPIRE, initial, executing, false);
    }
}
