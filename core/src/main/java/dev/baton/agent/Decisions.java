package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.AlreadyDecidedException;
import dev.baton.DecisionConflictException;
import dev.baton.InvalidOptionException;
import dev.baton.RunNotFoundException;
import dev.baton.RunNotSuspendedException;
import dev.baton.SnapshotFormatException;
import dev.baton.internal.CallState;
import dev.baton.internal.CallState.Status;
import dev.baton.internal.RunState;
import dev.baton.internal.SnapshotCodec;
import dev.baton.model.Message;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import dev.baton.store.StoreCapability;
import dev.baton.tool.Tool;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The decisions of an agent with options (actor, reason, idempotency key, digest, edited arguments)
 * and the audit trail: the records written with each claim, replays of retried decisions, the
 * "already decided" answers, listing and purging. Agent and RunActions delegate here.
 */
final class Decisions {
    static final int PURGE_BATCH = 500;
    /** What the model is told, beside the result, when a person edited a call's arguments. */
    static final String EDIT_NOTE = "A person edited the arguments of this call before approving it; the tool ran with approvedArgs.";

    /** Who decides, why, the retry key, the digest shown and the edited arguments. */
    record Meta(@Nullable String actor, @Nullable String reason, @Nullable String key, @Nullable String digest,
                @Nullable JsonNode editedArgs, @Nullable Approver approver) {
        static final Meta NONE = new Meta(null, null, null, null, null, null);
        static final Meta SYSTEM = new Meta(DecisionRecord.SYSTEM, null, null, null, null, null);

        static Meta of(DecisionOptions o) {
            return new Meta(o.actor(), o.reason(), o.idempotencyKey(), o.digest(), null, o.approver());
        }

        Meta withReason(@Nullable String r) {
            return r == null || reason != null ? this : new Meta(actor, r, key, digest, editedArgs, approver);
        }
    }

    /**
     * What {@link #check} found: the edited arguments (or null), whether the decision completes the
     * call's quorum, and whether the call is contested by several approvers (see {@link Approvals.Verdict}).
     */
    record Checked(@Nullable JsonNode edited, boolean completes, boolean contested) { }

    private final Agent agent;

    Decisions(Agent agent) {
        this.agent = agent;
    }

    boolean recording() {
        return agent.store().capabilities().contains(StoreCapability.DECISIONS);
    }

    static String actorOf(Meta m) {
        return m.actor() == null ? DecisionRecord.UNKNOWN : m.actor();
    }

    // ---- the operations ---------------------------------------------------------------------------

    AgentStream approve(String runId, String toolCallId, ApproveOptions o) {
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(o, "options");
        Meta m = new Meta(o.actor(), o.reason(), o.idempotencyKey(), o.digest(), o.args(), o.approver());
        return guarded(runId, toolCallId, m, () -> agent.actions().decide(runId, RunActions.Decision.approve(toolCallId).with(m)));
    }

    AgentStream decline(String runId, String toolCallId, DeclineOptions o) {
        Objects.requireNonNull(toolCallId, "toolCallId");
        Objects.requireNonNull(o, "options");
        Meta m = new Meta(o.actor(), o.reason(), o.idempotencyKey(), o.digest(), null, o.approver());
        return guarded(runId, toolCallId, m,
                () -> agent.actions().decide(runId, RunActions.Decision.decline(toolCallId, o.reason()).with(m)));
    }

    AgentStream resume(@Nullable Object resumeData, ResumeOptions options, DecisionOptions o) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(o, "decision");
        JsonNode data = resumeData instanceof JsonNode n ? n.deepCopy() : SnapshotCodec.JSON.valueToTree(resumeData);
        if (data == null || data.isNull()) data = SnapshotCodec.JSON.createObjectNode();
        Meta m = Meta.of(o);
        RunActions.Decision d = RunActions.Decision.data(options.toolCallId(), data).with(m);
        return guarded(options.runId(), options.toolCallId(), m, () -> agent.actions().decide(options.runId(), d));
    }

    AgentStream continueRun(String runId, DecisionOptions o) {
        Meta m = runWide(o);
        return guarded(runId, null, m, () -> agent.actions().continueRun(runId, m));
    }

    void discard(String runId, DecisionOptions o) {
        Meta m = runWide(o);
        guarded(runId, null, m, () -> {
            agent.actions().discard(runId, m);
            return Boolean.TRUE;
        }, first -> Boolean.TRUE);
    }

    AgentResult cancel(String runId, DecisionOptions o) {
        Meta m = runWide(o);
        String reason = o.reason() == null || o.reason().isBlank() ? "cancelled" : o.reason();
        return guarded(runId, null, m, () -> agent.actions().cancel(runId, reason, m), first -> replay(first).result());
    }

    private static Meta runWide(DecisionOptions o) {
        Objects.requireNonNull(o, "options");
        if (o.digest() != null) throw new InvalidOptionException("digest", "applies to decisions on a call; this one is on the whole run");
        return Meta.of(o);
    }

    /**
     * Runs a decision: a retry with a recorded key replays the first one; a lost race with a
     * recorded key replays too; a decision on a decided call or an ended run says so.
     */
    private AgentStream guarded(String runId, @Nullable String toolCallId, Meta m, Supplier<AgentStream> decide) {
        return guarded(runId, toolCallId, m, decide, this::replay);
    }

    private <T> T guarded(String runId, @Nullable String toolCallId, Meta m, Supplier<T> decide, Function<DecisionRecord, T> replay) {
        Objects.requireNonNull(runId, "runId");
        Optional<DecisionRecord> first = firstWithKey(runId, toolCallId, m);
        if (first.isPresent()) return replay.apply(first.get());
        try {
            return decide.get();
        } catch (dev.baton.NotAnApproverException e) {
            // a retry of a partial approval racing with its own first attempt, which counted meanwhile
            Optional<DecisionRecord> racer = firstWithKey(runId, toolCallId, m);
            if (racer.isPresent()) return replay.apply(racer.get());
            throw e;
        } catch (AlreadyDecidedException e) {
            // a retry racing with its own first attempt, which decided meanwhile: the first outcome
            Optional<DecisionRecord> racer = firstWithKey(runId, toolCallId, m);
            if (racer.isPresent()) return replay.apply(racer.get());
            throw e;
        } catch (RunNotSuspendedException e) {
            Optional<DecisionRecord> racer = firstWithKey(runId, toolCallId, m);
            if (racer.isPresent()) return replay.apply(racer.get());
            if (toolCallId != null && recording()) {
                Optional<DecisionRecord> r = lastRecordFor(runId, toolCallId);
                if (r.isPresent() && sameKey(r.get(), m)) return replay.apply(r.get());
                if (r.isPresent()) {
                    throw already(runId, toolCallId, r.get(), "it is being carried out now; list the runs again to see where it stands");
                }
            }
            throw e;
        } catch (RunNotFoundException e) {
            // the first attempt with this key may have decided and finished the run (deleting it) meanwhile
            Optional<DecisionRecord> racer = firstWithKey(runId, toolCallId, m);
            if (racer.isPresent()) return replay.apply(racer.get());
            if (recording()) {
                Optional<DecisionRecord> r = lastRecordFor(runId, toolCallId);
                if (r.isPresent() && sameKey(r.get(), m)) return replay.apply(r.get());
                if (r.isPresent()) throw already(runId, toolCallId, r.get(), "the run has ended; there is nothing left to decide");
            }
            throw e;
        }
    }

    private Optional<DecisionRecord> firstWithKey(String runId, @Nullable String toolCallId, Meta m) {
        if (m.key() == null) return Optional.empty();
        if (!recording()) {
            throw new InvalidOptionException("idempotencyKey", "needs a store that keeps decisions (capability DECISIONS); "
                    + agent.store().describe() + " does not");
        }
        Optional<DecisionRecord> r = agent.store().findDecision(agent.id(), m.key());
        if (r.isPresent() && (!r.get().runId().equals(runId) || toolCallId != null && !toolCallId.equals(r.get().toolCallId()))) {
            throw new InvalidOptionException("idempotencyKey", "'" + m.key() + "' was already used for the decision "
                    + r.get().kind().wireName() + " on run '" + r.get().runId() + "'"
                    + (r.get().toolCallId() == null ? "" : ", call '" + r.get().toolCallId() + "'") + "; use a new key for a new decision");
        }
        return r;
    }

    /** The first decision's outcome, as the run stands now; runs nothing. */
    private AgentStream replay(DecisionRecord first) {
        Optional<RunSnapshot> s = agent.store().find(first.runId()).filter(x -> x.agentId().equals(agent.id()));
        RunOutcome outcome;
        List<AgentRunToolCall> waiting = List.of();
        if (s.isPresent()) {
            try {
                waiting = RunListing.waitingCalls(SnapshotCodec.decode(s.get()), agent);
            } catch (SnapshotFormatException e) {
                // reported as interrupted: discardRun removes it
            }
            outcome = waiting.isEmpty() ? RunOutcome.INTERRUPTED : RunOutcome.SUSPENDED;
        } else {
            outcome = first.kind() == DecisionKind.CANCEL ? RunOutcome.CANCELLED : RunOutcome.COMPLETED;
        }
        return new AgentStream(new AgentResult(first.runId(), outcome, "", List.of(), waiting, null), first);
    }

    // ---- checks and records -----------------------------------------------------------------------

    /**
     * Checks a decision on {@code call} before anything changes (the approver rules, the digest
     * shown, the edited arguments against the tool's input) and adds its record to {@code records}
     * (if the store keeps decisions). Returns the edited arguments (null when the call runs as it
     * waits) and whether the decision completes the call's quorum of approvals.
     */
    Checked check(RunState state, CallState call, Tool tool, RunActions.Decision d, List<DecisionRecord> records) {
        Meta m = d.meta();
        if (!call.waiting()) throw new java.util.NoSuchElementException("call '" + call.toolCallId + "' does not wait");
        AgentRunToolCall listed = RunListing.waitingCall(call, agent);   // as the run's listing shows it
        // an edit waiting for more approvals is what the call now runs with
        JsonNode current = call.approvedArgs != null ? call.approvedArgs : call.args;
        boolean editing = d.kind() == RunActions.Decision.Kind.APPROVE && m.editedArgs() != null && !m.editedArgs().equals(current);
        ApproverRule.Action action = switch (d.kind()) {
            case APPROVE -> editing ? ApproverRule.Action.EDIT : ApproverRule.Action.APPROVE;
            case DECLINE -> ApproverRule.Action.DECLINE;
            case DATA -> ApproverRule.Action.ANSWER;
        };
        Approvals.Verdict verdict = agent.approvals().check(state, call, listed, action, m, editing ? m.editedArgs() : null);
        String before = listed.digest();
        if (m.digest() != null && !m.digest().equals(before)) {
            throw new DecisionConflictException(state.runId, call.toolCallId, m.digest(), before);
        }
        JsonNode edited = null;
        if (editing) {
            if (call.inner != null) {
                throw new InvalidOptionException("args", "tool call '" + call.toolCallId + "' waits inside subagent '" + call.toolName
                        + "': its arguments cannot be edited from the supervisor; approve or decline it as proposed");
            }
            tool.checkInput(m.editedArgs());
            edited = m.editedArgs().deepCopy();
        }
        if (d.kind() == RunActions.Decision.Kind.DATA && d.data() != null && call.inner == null) tool.checkResumeData(d.data());
        DecisionKind kind = switch (d.kind()) {
            case APPROVE -> edited != null ? DecisionKind.EDIT : DecisionKind.APPROVE;
            case DECLINE -> DecisionKind.DECLINE;
            case DATA -> DecisionKind.RESUME;
        };
        String after = edited != null ? CallDigest.of(listed.toolName(), edited, null) : before;
        records.addAll(records(state, kind, call.toolCallId, listed.toolName(), m.withReason(d.reason()), before, after));
        return new Checked(edited, verdict.completes(), verdict.contested());
    }

    /** The record of one decision, or none if the store keeps no decisions. */
    List<DecisionRecord> records(RunState state, DecisionKind kind, @Nullable String toolCallId, @Nullable String toolName,
                                 Meta m, @Nullable String before, @Nullable String after) {
        if (!recording()) return List.of();
        return List.of(record(state.runId, state.threadId, state.resourceId, kind, toolCallId, toolName, m, before, after));
    }

    /** The record of a discard; {@code state} is null when the snapshot cannot be read. */
    List<DecisionRecord> records(RunSnapshot snapshot, @Nullable RunState state, Meta m) {
        if (!recording()) return List.of();
        return List.of(record(snapshot.runId(), snapshot.threadId(), snapshot.resourceId(), DecisionKind.DISCARD, null, null,
                m, null, null));
    }

    /** One record per expired call, by {@code system}. */
    List<DecisionRecord> expiryRecords(RunState state, List<CallState> calls, String reason) {
        if (!recording()) return List.of();
        List<AgentRunToolCall> listed = RunListing.waitingCalls(state);
        List<DecisionRecord> out = new ArrayList<>();
        for (CallState c : calls) {
            AgentRunToolCall l = listed.stream().filter(x -> x.toolCallId().equals(c.toolCallId)).findFirst().orElse(null);
            String digest = l == null ? null : l.digest();
            out.add(record(state.runId, state.threadId, state.resourceId, DecisionKind.EXPIRE, c.toolCallId,
                    l == null ? c.toolName : l.toolName(), Meta.SYSTEM.withReason(reason), digest, digest));
        }
        return out;
    }

    /** The record of one call's escalation, by {@code system}, with its digest as it waits; none if the store keeps no decisions. */
    List<DecisionRecord> escalationRecords(RunState state, CallState call, String reason) {
        if (!recording()) return List.of();
        AgentRunToolCall l = RunListing.waitingCalls(state).stream().filter(x -> x.toolCallId().equals(call.toolCallId)).findFirst()
                .orElse(null);
        String digest = l == null ? null : l.digest();
        return List.of(record(state.runId, state.threadId, state.resourceId, DecisionKind.ESCALATE, call.toolCallId,
                l == null ? call.toolName : l.toolName(), Meta.SYSTEM.withReason(reason), digest, digest));
    }

    private DecisionRecord record(String runId, @Nullable String threadId, @Nullable String resourceId, DecisionKind kind,
                                  @Nullable String toolCallId, @Nullable String toolName, Meta m, @Nullable String before,
                                  @Nullable String after) {
        return DecisionRecord.builder().decisionId(UUID.randomUUID().toString()).agentId(agent.id()).runId(runId)
                .threadId(threadId).resourceId(resourceId).toolCallId(toolCallId).toolName(toolName).kind(kind)
                .actor(actorOf(m)).instanceId(agent.instanceId()).decidedAt(agent.clock().instant()).reason(m.reason())
                .argsDigestBefore(before).argsDigestAfter(after).idempotencyKey(m.key()).build();
    }

    /** A decision on a call of a stored run that is no longer waiting: by whom, when, and what now. */
    AlreadyDecidedException alreadyDecided(RunSnapshot snapshot, RunState state, CallState call) {
        String decision = call.declinedReason != null ? "decline" : call.waitedFor == Status.AWAITING_DATA ? "resume" : "approve";
        return alreadyDecided(state, call.toolCallId, decision);
    }

    /**
     * A decision on a call of an earlier step of the run: its result is in the run's messages (the
     * tool ran, or the call was declined, and the run went on; for example the model then failed and
     * the run is listed as interrupted). Empty if no step of the run had the call.
     */
    Optional<AlreadyDecidedException> decidedInAnEarlierStep(RunState state, String toolCallId) {
        for (int i = state.messages.size() - 1; i >= 0; i--) {
            if (state.messages.get(i) instanceof Message.ToolResult done && done.toolCallId().equals(toolCallId)) {
                // without records, what the history shows: a declined call's result is its reason
                JsonNode result = done.result();
                String decision = result.isObject() && EDIT_NOTE.equals(result.path("note").asText(null)) ? "edit"
                        : result.isTextual() && RunExecution.NOT_APPROVED.equals(result.asText()) ? "decline" : "approve";
                return Optional.of(alreadyDecided(state, toolCallId, decision));
            }
        }
        return Optional.empty();
    }

    private AlreadyDecidedException alreadyDecided(RunState state, String toolCallId, String unrecorded) {
        List<String> waiting = state.waitingCalls().stream().map(c -> c.toolCallId).toList();
        String next = waiting.isEmpty()
                ? "the run is listed as interrupted: continueRun(\"" + state.runId + "\") goes on from its last stored step"
                : "the run now waits for " + waiting + ": decide those";
        Optional<DecisionRecord> r = recording() ? lastRecordFor(state.runId, toolCallId) : Optional.empty();
        if (r.isPresent()) return already(state.runId, toolCallId, r.get(), next);
        return new AlreadyDecidedException(state.runId, toolCallId, unrecorded, null, null, next);
    }

    private static AlreadyDecidedException already(String runId, @Nullable String toolCallId, DecisionRecord r, String next) {
        return new AlreadyDecidedException(runId, toolCallId, r.kind().wireName(), r.actor(), r.decidedAt(), next);
    }

    /**
     * Whether {@code r} is the first attempt of a retry with {@code m}'s key: a record that carries the key is that
     * decision, whichever look-up found it, so it is replayed, never refused as a second one. Rule D7 has every store
     * find a refused write's key at once ({@code Idempotency.aWriteRefusedForItsKeyFindsTheDecisionHoldingIt}); this
     * check keeps the answer right for a provider whose listing shows the record before its look-up by key does.
     */
    private static boolean sameKey(DecisionRecord r, Meta m) {
        return m.key() != null && m.key().equals(r.idempotencyKey());
    }

    /** The newest record of the run (of the call or the whole run, when a call is given). */
    private Optional<DecisionRecord> lastRecordFor(String runId, @Nullable String toolCallId) {
        DecisionPage page = agent.store().listDecisions(DecisionQuery.forAgent(agent.id()).runId(runId).limit(DecisionQuery.MAX_LIMIT).build());
        // a decision on the whole run (cancel, discard, continue) decided for each of its calls too
        return page.items().stream().filter(x -> toolCallId == null || x.toolCallId() == null || toolCallId.equals(x.toolCallId()))
                .findFirst();
    }

    /** What the model sees as the result of a call a person edited. */
    static JsonNode toldOfEdit(JsonNode approvedArgs, JsonNode result) {
        ObjectNode told = SnapshotCodec.JSON.createObjectNode();
        told.set("approvedArgs", approvedArgs.deepCopy());
        told.put("note", EDIT_NOTE);
        told.set("result", result);
        return told;
    }

    // ---- the audit trail --------------------------------------------------------------------------

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

    /** With a retention set: purges what is older than it (called by expireDueRuns). */
    long purgeByRetention() {
        if (agent.decisionRetention().isEmpty() || !recording()) return 0;
        return purge(agent.clock().instant().minus(agent.decisionRetention().get()));
    }

    private void requireRecording(String what) {
        if (!recording()) {
            throw new UnsupportedOperationException(what + ": the store of agent '" + agent.id() + "', " + agent.store().describe()
                    + ", keeps no decisions (capability DECISIONS)");
        }
    }
}
