package dev.baton.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a listing shows of a run, stored beside the payload ({@code RunSnapshot.summary}) so that
 * listing never reads or decodes the whole run state: the calls that wait for a human (with the
 * inner call a supervisor's call mirrors), why the run stopped part-way, and its supervisor run.
 * Not API; the JSON field names are a stored format.
 */
public final class RunSummary {
    /** One waiting call as listed. */
    public static final class Call {
        public String toolCallId = "";
        public String toolName = "";
        public @Nullable JsonNode args;
        public boolean requiresApproval;
        public @Nullable JsonNode suspendPayload;
        public @Nullable Instant expiresAt;
        public @Nullable JsonNode approvedArgs;
        /** Who has approved it so far, while it waits for more approvals. */
        public List<String> approvedBy = new ArrayList<>();
        /** When it escalated to its approver rule's escalation group, else null. */
        public @Nullable Instant escalatedAt;
    }

    public List<Call> calls = new ArrayList<>();
    /** Calls a person approved whose tool has not run to its end (an interrupted run): what was approved. */
    public List<Call> approved = new ArrayList<>();
    public @Nullable String interruption;
    public @Nullable String parentRunId;
    /** Who started the run, or null. */
    public @Nullable String startedBy;

    /** The summary of {@code state}, as stored. */
    public static RunSummary of(RunState state) {
        RunSummary s = new RunSummary();
        for (CallState c : state.calls) {
            if (c.status == CallState.Status.EXECUTING && c.waitedFor == CallState.Status.AWAITING_APPROVAL
                    && (c.inner == null || c.inner.toolName.isEmpty())) {
                Call approved = new Call();
                approved.toolCallId = c.toolCallId;
                approved.toolName = c.toolName;
                approved.args = c.args;
                approved.requiresApproval = true;
                approved.approvedArgs = c.approvedArgs;
                s.approved.add(approved);
                continue;
            }
            if (!c.waiting()) continue;
            boolean approval = c.status == CallState.Status.AWAITING_APPROVAL;
            CallState.InnerRun inner = c.inner;
            Call call = new Call();
            call.toolCallId = c.toolCallId;
            call.requiresApproval = approval;
            call.expiresAt = c.expiresAt;
            if (inner != null && !inner.toolName.isEmpty()) {
                call.toolName = inner.toolName;
                call.args = approval ? inner.args : null;
                call.suspendPayload = approval ? null : inner.suspendPayload;
            } else {
                call.toolName = c.toolName;
                call.args = approval ? c.args : null;
                call.suspendPayload = approval ? null : c.suspendPayload;
                call.approvedArgs = c.approvedArgs;
            }
            call.approvedBy = new ArrayList<>(c.approvedBy);
            call.escalatedAt = c.escalatedAt;
            s.calls.add(call);
        }
        s.interruption = state.interruption;
        s.parentRunId = state.parentRunId;
        s.startedBy = state.startedBy;
        return s;
    }

    /** The soonest wait deadline ({@code expiresAt}) of the listed calls, or null: the run's expiry, without escalations. */
    public java.time.@Nullable Instant expiry() {
        Instant soonest = null;
        for (Call c : calls) if (c.expiresAt != null && (soonest == null || c.expiresAt.isBefore(soonest))) soonest = c.expiresAt;
        return soonest;
    }

    public String encode() {
        try {
            return SnapshotCodec.text(SnapshotCodec.SUMMARY_WRITER, this);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot write a run summary: " + e.getMessage(), e);
        }
    }

    /** Reads a stored summary; null if it cannot be read (the run is then listed as interrupted, to be discarded). */
    public static @Nullable RunSummary decode(String json) {
        try {
            RunSummary s = SnapshotCodec.JSON.readValue(json, RunSummary.class);
            return s == null || s.calls == null ? null : s;
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return null;
        }
    }
}
