package dev.baton.agent;

import dev.baton.store.RunStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A suspended run, as listed. Immutable and thread-safe. Its canonical constructor is for core
 * and tests, and the record may gain components in a minor release.
 *
 * <p>Most runs wait for a human: {@code toolCalls} lists the calls to approve, decline or resume.
 * A run may also have stopped part-way ({@link #interrupted()}): its process died and its lease
 * lapsed, its model failed while it was being resumed, its thread was interrupted, or its stream
 * was closed or dropped after a decision. Nothing of it is lost. If {@code toolCalls} is empty,
 * nothing waits for a human: {@link Agent#continueRun(String)} goes on from its last stored step.
 * If calls are listed, deciding them goes on as usual.
 *
 * @param runId        pass it to approve / decline / resume / continue
 * @param status       {@link RunStatus#SUSPENDED}
 * @param threadId     the run's thread, if any
 * @param resourceId   the run's resource, if any
 * @param suspendedAt  when the run was last stored as waiting or interrupted
 * @param toolCalls    the calls waiting for a decision or for data (empty for an interrupted run that waits for nobody)
 * @param interruption why the run stopped part-way, or null if it stopped to wait for {@code toolCalls}
 * @param parentRunId  for a subagent's inner run: the supervisor's run that drives it, else null
 * @param createdAt    when the run started: what the date filters and the order apply to
 * @param expiresAt    when the run's wait expires (the soonest deadline of its calls), else null; see
 *                     {@link Agent#expireDueRuns(int)}
 * @param approvedCalls the calls a person approved whose tool has not run to its end yet (the run was
 *                      interrupted after the approval: {@link Agent#continueRun(String)} runs them), each
 *                      with {@code args} as proposed and {@link AgentRunToolCall#approvedArgs()} as
 *                      approved after an edit (null when approved as proposed); empty otherwise
 * @param startedBy    who started the run ({@link RunOptions#startedBy()}), else null: the person an
 *                     {@link ApproverRule} keeps from approving its calls
 */
public record AgentRun(String runId, RunStatus status, @Nullable String threadId, @Nullable String resourceId,
                       Instant suspendedAt, List<AgentRunToolCall> toolCalls, @Nullable String interruption,
                       @Nullable String parentRunId, Instant createdAt, @Nullable Instant expiresAt,
                       List<AgentRunToolCall> approvedCalls, @Nullable String startedBy) {
    /**
     * Checks the required parts and copies the list.
     *
     * @param runId pass it to approve / decline / resume / continue
     * @param status {@link RunStatus#SUSPENDED}
     * @param threadId the run's thread, if any
     * @param resourceId the run's resource, if any
     * @param suspendedAt when the run was last stored as waiting or interrupted
     * @param toolCalls the calls waiting for a decision or for data (empty for an interrupted run that waits for nobody)
     * @param interruption why the run stopped part-way, or null if it stopped to wait for {@code toolCalls}
     * @param parentRunId for a subagent's inner run: the supervisor's run that drives it, else null
     * @param createdAt when the run started: what the date filters and the order apply to
     * @param expiresAt when the run's wait expires (the soonest deadline of its calls), else null; see {@link Agent#expireDueRuns(int)}
     * @param approvedCalls the calls approved whose tool has not run to its end yet, with what was approved
     * @param startedBy who started the run, else null
     */
    public AgentRun {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(suspendedAt, "suspendedAt");
        toolCalls = List.copyOf(toolCalls);
        Objects.requireNonNull(createdAt, "createdAt");
        approvedCalls = List.copyOf(approvedCalls);
    }

    /**
     * A run started by nobody named.
     *
     * @param runId pass it to approve / decline / resume / continue
     * @param status {@link RunStatus#SUSPENDED}
     * @param threadId the run's thread, if any
     * @param resourceId the run's resource, if any
     * @param suspendedAt when the run was last stored as waiting or interrupted
     * @param toolCalls the calls waiting for a decision or for data
     * @param interruption why the run stopped part-way, or null
     * @param parentRunId for a subagent's inner run: the supervisor's run that drives it, else null
     * @param createdAt when the run started
     * @param expiresAt when the run's wait expires, else null
     * @param approvedCalls the calls approved whose tool has not run to its end yet
     */
    public AgentRun(String runId, RunStatus status, @Nullable String threadId, @Nullable String resourceId,
                    Instant suspendedAt, List<AgentRunToolCall> toolCalls, @Nullable String interruption,
                    @Nullable String parentRunId, Instant createdAt, @Nullable Instant expiresAt,
                    List<AgentRunToolCall> approvedCalls) {
        this(runId, status, threadId, resourceId, suspendedAt, toolCalls, interruption, parentRunId, createdAt, expiresAt,
                approvedCalls, null);
    }

    /**
     * A run with no approved calls waiting to run.
     *
     * @param runId pass it to approve / decline / resume / continue
     * @param status {@link RunStatus#SUSPENDED}
     * @param threadId the run's thread, if any
     * @param resourceId the run's resource, if any
     * @param suspendedAt when the run was last stored as waiting or interrupted
     * @param toolCalls the calls waiting for a decision or for data
     * @param interruption why the run stopped part-way, or null
     * @param parentRunId for a subagent's inner run: the supervisor's run that drives it, else null
     * @param createdAt when the run started
     * @param expiresAt when the run's wait expires, else null
     */
    public AgentRun(String runId, RunStatus status, @Nullable String threadId, @Nullable String resourceId,
                    Instant suspendedAt, List<AgentRunToolCall> toolCalls, @Nullable String interruption,
                    @Nullable String parentRunId, Instant createdAt, @Nullable Instant expiresAt) {
        this(runId, status, threadId, resourceId, suspendedAt, toolCalls, interruption, parentRunId, createdAt, expiresAt,
                List.of(), null);
    }

    /** {@return true when the run stopped part-way; see {@link #interruption()}} */
    public boolean interrupted() {
        return interruption != null;
    }
}
