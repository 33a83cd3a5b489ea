package dev.baton.agent;

import dev.baton.InvalidOptionException;
import dev.baton.ResumeMismatchException;
import dev.baton.RunNotFoundException;
import dev.baton.RunNotSuspendedException;
import dev.baton.SnapshotFormatException;
import dev.baton.ToolCallNotFoundException;
import dev.baton.UnknownToolException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The decisions half of {@link Agent}: approving, declining, resuming, continuing, discarding and
 * cancelling stored runs, and the audit trail of those decisions. Package-private and sealed: its
 * public methods are {@link Agent}'s (documented and listed there); it only keeps {@code Agent.java}
 * within the size the project allows.
 */
abstract sealed class AgentDecisionOps permits Agent {

    AgentDecisionOps() { }

    /** {@return the decision handling of this agent} */
    abstract Decisions decisions();

    // ---- resuming ---------------------------------------------------------------------------

    /**
     * Approves a call that waits for approval: claims the run and records the approval at once;
     * reading the returned stream runs the tool, then the model goes on.
     *
     * @throws RunNotFoundException      no suspended run with this id for this agent
     * @throws ToolCallNotFoundException the run has no waiting call with this id, and had none
     * @throws dev.baton.AlreadyDecidedException the call was decided before (its tool may have run in an
     *                                   earlier step): by whom, when, and what to do now
     * @throws dev.baton.NotAnApproverException an {@link ApproverRule} of the agent refuses the decision
     *                                   (a caller who names nobody, under a rule): nothing changed
     * @throws ResumeMismatchException   the call waits for resume data, not for an approval
     * @throws RunNotSuspendedException  another caller is resuming the run (it won the race)
     * @throws UnknownToolException      this agent lacks the call's tool
     * @throws SnapshotFormatException   the stored run cannot be read
     * @param runId      the suspended run
     * @param toolCallId the call waiting for approval
     * @return the stream that runs the tool and goes on
     */
    public AgentStream approveToolCall(String runId, String toolCallId) {
        return decisions().approve(runId, toolCallId, ApproveOptions.builder().build());
    }

    /**
     * Declines a call: the tool does not run; the model sees "Tool call was not approved by the user". Throws as {@link #approveToolCall}.
     *
     * @param runId      the suspended run
     * @param toolCallId the call waiting for approval
     * @return the stream in which the model goes on
     */
    public AgentStream declineToolCall(String runId, String toolCallId) {
        return declineToolCall(runId, toolCallId, (String) null);
    }

    /**
     * Declines a call; the model sees {@code reason} (or the default text when null). The decline is
     * recorded when this returns; reading the stream lets the model go on. Throws as {@link #approveToolCall}.
     *
     * @param runId      the suspended run
     * @param toolCallId the call waiting for approval
     * @param reason     what the model is told, or null for the default text
     * @return the stream in which the model goes on
     */
    public AgentStream declineToolCall(String runId, String toolCallId, @Nullable String reason) {
        return decisions().decline(runId, toolCallId, DeclineOptions.builder().reason(reason).build());
    }

    /**
     * Resumes the run's one call that waits for data; the tool sees {@code resumeData} in {@code ctx.resumeData()}.
     *
     * @param resumeData any JSON-able value; the tool sees it as {@code ctx.resumeData()}
     * @param runId      the suspended run
     * @return the stream that runs the tool again and goes on
     * @throws InvalidOptionException  several calls wait for data: use {@link #resumeStream(Object, ResumeOptions)}
     */
    public AgentStream resumeStream(@Nullable Object resumeData, String runId) {
        return resumeStream(resumeData, ResumeOptions.of(runId));
    }

    /**
     * Resumes a call that waits for data ({@code ctx.suspend(...)}). {@code options.toolCallId()} is needed
     * when several calls of the run wait for data.
     *
     * @throws InvalidOptionException  several calls wait for data and no toolCallId was given
     * @throws ResumeMismatchException the call waits for an approval, not for data (or nothing waits: use {@link #continueRun})
     * @see #approveToolCall for the other exceptions
     * @param resumeData any JSON-able value (copied); the tool sees it as {@code ctx.resumeData()}
     * @param options    the run, and the call when several wait for data
     * @return the stream that runs the tool again and goes on
     */
    public AgentStream resumeStream(@Nullable Object resumeData, ResumeOptions options) {
        return decisions().resume(resumeData, options, DecisionOptions.none());
    }

    /**
     * Continues a run that stopped part-way and waits for nobody ({@link AgentRun#interrupted()} with no
     * tool calls listed): its process died and its lease lapsed, its model failed while it was being
     * resumed, its thread was interrupted, or its stream was closed or never read. The run goes on
     * from its last stored step: a tool whose result was stored never runs again; a tool that was
     * running when it stopped runs again ({@link dev.baton.tool.ToolContext#attempt()} says so).
     *
     * @throws RunNotFoundException     no stored run with this id for this agent
     * @throws ResumeMismatchException  calls of the run wait for a human: approve, decline or resume them
     * @throws RunNotSuspendedException another caller is working on the run
     * @throws SnapshotFormatException  the stored run cannot be read
     * @param runId the interrupted run
     * @return the stream that goes on from the last stored step
     */
    public AgentStream continueRun(String runId) {
        return decisions().continueRun(runId, DecisionOptions.none());
    }

    /**
     * Removes a stored run that nobody will resume: one that waits for a person who is gone, or whose
     * snapshot cannot be read, or a subagent's run whose supervisor run is gone. The inner runs of
     * its subagents go with it. Nothing runs; the model is not told.
     *
     * @throws RunNotFoundException     no stored run with this id for this agent
     * @throws RunNotSuspendedException another caller is working on the run right now
     * @throws ResumeMismatchException  it is the inner run of a supervisor run that still waits on it: discard that one
     * @param runId the stored run
     */
    public void discardRun(String runId) {
        decisions().discard(runId, DecisionOptions.none());
    }

    /**
     * Cancels a stored run: nothing more runs, the model is not called, and the run's snapshot goes,
     * with the inner runs of its subagents. It claims the run as approve does, so of a cancel and an
     * approval racing exactly one wins; the other gets {@link RunNotSuspendedException}. The result's
     * events are {@code start > cancelled > finish} and its outcome {@link RunOutcome#CANCELLED}.
     *
     * @param runId  the stored run
     * @param reason why, for people and logs (shown in the {@code cancelled} event); may be null
     * @return the cancelled run's result
     * @throws RunNotFoundException     no stored run with this id for this agent
     * @throws RunNotSuspendedException another caller is working on the run right now
     * @throws ResumeMismatchException  it is the inner run of a supervisor run: cancel that run instead
     * @throws SnapshotFormatException  the stored run cannot be read (use {@link #discardRun})
     */
    public AgentResult cancelRun(String runId, @Nullable String reason) {
        return decisions().cancel(runId, DecisionOptions.builder().reason(reason == null || reason.isBlank() ? null : reason).build());
    }

    // ---- decisions with options, and the audit trail -----------------------------------------

    /**
     * Approves a call, as {@link #approveToolCall(String, String)}, with options: edited arguments
     * (validated against the tool's input schema before anything changes; the tool runs with them and
     * the model is told, see {@link ApproveOptions}), the digest the person was shown, who approves,
     * why, and an idempotency key. With a store that keeps decisions
     * ({@link dev.baton.store.StoreCapability#DECISIONS}) the decision is recorded in the same write
     * that claims the run.
     *
     * @param runId      the suspended run
     * @param toolCallId the call waiting for approval
     * @param options    the edit, digest, approver (or actor), reason and key
     * @return the stream that runs the tool and goes on; for a retry with a key already recorded, a
     *         stream that runs nothing ({@link AgentStream#replayed()}) and reports the first decision;
     *         for an approval that an {@link ApproverRule} counts towards a quorum it does not yet
     *         reach, a stream that runs nothing and reports the run {@link RunOutcome#SUSPENDED}, its
     *         call listed with {@link AgentRunToolCall#approvedBy()}
     * @throws dev.baton.NotAnApproverException an {@link ApproverRule} refuses the approver: nothing changed or was recorded
     * @throws dev.baton.tool.InvalidToolInputException the edited arguments break the tool's input schema
     * @throws dev.baton.DecisionConflictException      the waiting call is not the one whose digest was given
     * @throws dev.baton.AlreadyDecidedException        the call was decided before: by whom, when, and what to do now
     * @see #approveToolCall(String, String) for the other exceptions
     */
    public AgentStream approveToolCall(String runId, String toolCallId, ApproveOptions options) {
        return decisions().approve(runId, toolCallId, options);
    }

    /**
     * Declines a call, as {@link #declineToolCall(String, String, String)}, with a reason, the digest
     * shown, who declines and an idempotency key ({@link DeclineOptions}). Throws as
     * {@link #approveToolCall(String, String, ApproveOptions)}.
     *
     * @param runId      the suspended run
     * @param toolCallId the call waiting for approval
     * @param options    the reason, digest, actor and key
     * @return the stream in which the model goes on (or, for a retry, the replay)
     */
    public AgentStream declineToolCall(String runId, String toolCallId, DeclineOptions options) {
        return decisions().decline(runId, toolCallId, options);
    }

    /**
     * Resumes a call that waits for data, as {@link #resumeStream(Object, ResumeOptions)}, recording who
     * decided ({@link DecisionOptions}; its digest, if given, must match the waiting call's).
     *
     * @param resumeData any JSON-able value (copied); the tool sees it as {@code ctx.resumeData()}
     * @param options    the run, and the call when several wait for data
     * @param decision   actor, reason, key and digest
     * @return the stream that runs the tool again and goes on (or, for a retry, the replay)
     */
    public AgentStream resumeStream(@Nullable Object resumeData, ResumeOptions options, DecisionOptions decision) {
        return decisions().resume(resumeData, options, decision);
    }

    /**
     * Continues an interrupted run, as {@link #continueRun(String)}, recording who decided.
     *
     * @param runId   the interrupted run
     * @param options actor, reason and key (a digest is refused: this decides on the whole run)
     * @return the stream that goes on (or, for a retry, the replay)
     */
    public AgentStream continueRun(String runId, DecisionOptions options) {
        return decisions().continueRun(runId, options);
    }

    /**
     * Discards a stored run, as {@link #discardRun(String)}, recording who decided (in the same write
     * as the delete). A retry with a recorded key returns normally.
     *
     * @param runId   the stored run
     * @param options actor, reason and key (a digest is refused)
     */
    public void discardRun(String runId, DecisionOptions options) {
        decisions().discard(runId, options);
    }

    /**
     * Cancels a stored run, as {@link #cancelRun(String, String)}, with {@code options.reason()} as the
     * reason, recording who decided. A retry with a recorded key returns a {@link RunOutcome#CANCELLED}
     * result without events.
     *
     * @param runId   the stored run
     * @param options actor, reason and key (a digest is refused)
     * @return the cancelled run's result
     */
    public AgentResult cancelRun(String runId, DecisionOptions options) {
        return decisions().cancel(runId, options);
    }

    /**
     * This agent's recorded decisions, newest first, one page: the audit trail, kept after runs end.
     *
     * @param options filters (run, thread, resource, actor, time range), page size and cursor
     * @return the page, with the cursor of the next one
     * @throws UnsupportedOperationException the store keeps no decisions (capability DECISIONS), naming it
     */
    public dev.baton.store.DecisionPage listDecisions(AgentListDecisionsOptions options) {
        return decisions().list(options);
    }

    /**
     * Deletes this agent's decision records decided before {@code olderThan}, in batches, and says how
     * many went. {@link AgentBuilder#decisionRetention(Duration)} makes {@link Agent#expireDueRuns(int)} do this.
     *
     * @param olderThan records decided strictly before it go
     * @return how many records were deleted
     * @throws UnsupportedOperationException the store keeps no decisions (capability DECISIONS), naming it
     */
    public long purgeDecisions(java.time.Instant olderThan) {
        return decisions().purge(olderThan);
    }
}
