package dev.baton.agent;

import dev.baton.InvalidOptionException;
import dev.baton.ResumeMismatchException;
import dev.baton.RunNotFoundException;
import dev.baton.RunNotSuspendedException;
import dev.baton.SnapshotFormatException;
import dev.baton.ToolCallNotFoundException;
import dev.baton.UnknownToolException;
import dev.baton.model.LanguageModel;
import dev.baton.model.ToolDefinition;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.StoreClock;
import dev.baton.tool.Tool;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * An AI agent whose runs can pause for a human (tool approval) or for outside data
 * ({@code ctx.suspend(...)}), are stored, are found again with {@link #listSuspendedRuns}, and
 * resume on any instance that has the same id, tools and store.
 *
 * <pre>{@code
 * Agent agent = Agent.builder("travel-agent")
 *     .instructions("You help with travel.")
 *     .model(model)
 *     .tools(getWeather, bookFlight)
 *     .store(SnapshotStores.open("jdbc:h2:./data/baton"))
 *     .build();
 *
 * AgentResult first = agent.generate("Book me a flight to SF",
 *     RunOptions.builder().threadId("thread-123").resourceId("user-456").build());
 *
 * // later, anywhere:
 * AgentRun run = agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder()
 *     .resourceId("user-456").build()).runs().get(0);
 * agent.approveToolCall(run.runId(), run.toolCalls().get(0).toolCallId()).text();
 * }</pre>
 *
 * <p>Every operation sees only runs of this agent's id: another agent's run answers exactly as a
 * run that does not exist. Approve, decline, resume, continue and discard first <em>claim</em> the
 * run with the store's compare-and-set, recording the decision in the same write, so of several
 * concurrent callers (threads or servers) exactly one proceeds; the others get
 * {@link RunNotSuspendedException} from the call itself. The returned stream does the work as it
 * is read; read it (or drain it with {@code result()}) promptly: a stream not read within
 * {@link AgentBuilder#pickupTimeout(Duration)} gives the run back, with the decision kept, and the run is
 * then listed as interrupted for {@link #continueRun(String)}.
 *
 * <p><b>Thread-safety.</b> An agent is immutable once built and thread-safe: any number of threads
 * may start, list, approve and resume runs at once. Each {@link AgentStream} it returns is read by
 * one thread. <b>Closing.</b> {@link #close()} leaves gracefully: it lets the tools under way finish
 * within a grace period and hands every claimed run back for another instance; it closes the store
 * only if the agent opened it (it was built without {@link AgentBuilder#store}). Leases of claimed
 * runs are kept alive by a heartbeat on JVM-wide daemon threads shared by every agent (one
 * scheduler thread, and pool threads for the renewals that idle out after a minute); a claim stops
 * its heartbeat when its stream ends, so those threads hold no work once no stream is in flight,
 * and never keep the JVM alive.
 */
public final class Agent implements AutoCloseable {

    private final String id;
    private final String instructions;
    private final LanguageModel model;
    private final Map<String, Tool> tools;
    private final List<ToolDefinition> toolDefinitions;
    private final SnapshotStore store;
    private final boolean ownsStore;
    private final Clock clock;
    private final Duration leaseDuration;
    private final Duration pickupTimeout;
    private final String instanceId;
    private final int maxSteps;
    private final RunListeners listeners;
    private final RunActions actions;
    private final @Nullable Duration waitTimeout;
    private final ExpiryPolicy expiryPolicy;
    private final dev.baton.memory.@Nullable Memory memory;
    private final @Nullable Duration decisionRetention;
    private final Decisions decisions;
    private final Approvals approvals;
    private final List<ApproverRule> approverRules;
    private final NotificationPolicy notifications;
    private final AgentShutdown shutdown;
    /** The JVM shutdown hook that closes this agent ({@link AgentBuilder#closeOnShutdown()}), or null. */
    private final @Nullable Thread shutdownHook;

    Agent(AgentBuilder b, SnapshotStore store, boolean ownsStore) {
        this.id = b.id;
        this.instructions = b.instructions;
        this.model = Objects.requireNonNull(b.model, () -> "agent '" + b.id + "' needs a model(...)");
        this.tools = Map.copyOf(b.tools);
        this.toolDefinitions = b.tools.values().stream().map(Tool::definition).toList();
        this.store = store;
        this.ownsStore = ownsStore;
        // capabilities the agent needs are checked here, when it is built, never later at run time
        this.clock = b.useStoreClock ? StoreClock.of(store) : b.clock;
        this.leaseDuration = b.leaseDuration;
        this.pickupTimeout = b.pickupTimeout;
        this.instanceId = b.instanceId;
        this.maxSteps = b.maxSteps;
        this.listeners = new RunListeners(b.listeners);
        this.actions = new RunActions(this);
        this.waitTimeout = b.waitTimeout;
        this.expiryPolicy = b.expiryPolicy;
        this.memory = b.memory == null ? null : RunMemory.bind(b.memory, store, this.clock);
        this.decisionRetention = b.decisionRetention;
        this.decisions = new Decisions(this);
        this.approverRules = List.copyOf(b.approverRules);
        this.approvals = new Approvals(approverRules);
        this.notifications = RunNotifications.check(b.notifications, store);
        this.shutdown = new AgentShutdown(b.id, b.shutdownGrace);
        this.shutdownHook = b.closeOnShutdown ? new Thread(this::close, "baton-agent-" + b.id + "-shutdown") : null;
        if (shutdownHook != null) Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts building an agent; {@code id} is stored in every snapshot and scopes every operation.
     *
     * @param id the agent id, not blank
     * @return the builder
     */
    public static AgentBuilder builder(String id) {
        return new AgentBuilder(id);
    }

    /**
     * {@return the agent id, stored in every snapshot; every operation is scoped to it}
     */
    public String id() { return id; }

    /**
     * {@return the system instructions the model is given}
     */
    public String instructions() { return instructions; }

    /**
     * {@return the model}
     */
    public LanguageModel model() { return model; }

    /**
     * The tools by name, including {@code agent-<id>} tools of subagents.
     *
     * @return an unmodifiable map
     */
    public Map<String, Tool> tools() { return tools; }

    /**
     * {@return the store runs are kept in (owned by the caller unless the agent opened it)}
     */
    public SnapshotStore store() { return store; }

    /**
     * The clock for creation, suspension and lease times: the builder's, or the store's ({@link AgentBuilder#useStoreClock()}).
     *
     * @return the clock
     */
    public Clock clock() { return clock; }

    /**
     * How long a claim on a run lasts without a heartbeat.
     *
     * @return the lease duration
     */
    public Duration leaseDuration() { return leaseDuration; }

    /**
     * How long a claimed run waits for its stream to be read before it is given back (decision kept).
     *
     * @return the pickup timeout
     */
    public Duration pickupTimeout() { return pickupTimeout; }

    /**
     * The name this process claims runs under, shown as the lease owner.
     *
     * @return the instance id
     */
    public String instanceId() { return instanceId; }

    /**
     * The most model calls a run may make unless its {@link RunOptions} say otherwise.
     *
     * @return the default step limit
     */
    public int maxSteps() { return maxSteps; }

    /**
     * How long a call may wait for a decision or data when neither its tool nor its run says otherwise.
     *
     * @return the agent's wait timeout, or empty: calls wait until decided
     */
    public java.util.Optional<Duration> waitTimeout() { return java.util.Optional.ofNullable(waitTimeout); }

    /** {@return which moments of a run's wait this agent notifies about (see {@link AgentBuilder#notifications})} */
    public NotificationPolicy notifications() { return notifications; }

    /**
     * This agent's thread memory, bound to its store: for managing threads and reading their
     * messages. Empty if the agent was built without {@link AgentBuilder#memory}.
     *
     * @return the memory, or empty
     */
    public java.util.Optional<dev.baton.memory.Memory> memory() { return java.util.Optional.ofNullable(memory); }

    /**
     * What {@link #expireDueRuns(int)} does with a run whose wait expired.
     *
     * @return the policy
     */
    public ExpiryPolicy expiryPolicy() { return expiryPolicy; }

    @Nullable Tool tool(String name) { return tools.get(name); }

    List<ToolDefinition> toolDefinitions() { return toolDefinitions; }

    RunListeners listeners() { return listeners; }

    RunActions actions() { return actions; }

    Decisions decisions() { return decisions; }

    AgentShutdown shutdown() { return shutdown; }

    /**
     * How long {@link #close()} lets the steps under way (a tool) finish before it hands their runs back.
     *
     * @return the grace period
     */
    public Duration shutdownGrace() { return shutdown.grace(); }

    /**
     * This agent as a tool named {@code agent-<id>}, for a supervisor: input {@code {"prompt": "..."}}.
     *
     * @return a new tool that runs this agent as a subagent
     */
    public Tool asTool() {
        return Tool.builder("agent-" + id)
                .description("Delegates to the agent '" + id + "'. " + instructions)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"prompt\":{\"type\":\"string\"}},\"required\":[\"prompt\"]}")
                .execute(new SubagentExecutor(this))
                .build();
    }

    // ---- starting runs ----------------------------------------------------------------------

    /**
     * Starts a run without thread or resource.
     *
     * @param prompt the user's message
     * @return the run's stream; reading it runs the agent
     */
    public AgentStream stream(String prompt) {
        return stream(prompt, RunOptions.DEFAULT);
    }

    /**
     * Starts a run. Nothing is stored unless the run suspends (or stops part-way after a tool ran);
     * the run advances as the stream is iterated (or drained by {@link AgentStream#result()}).
     *
     * @param prompt  the user's message
     * @param options thread, resource and limits of the run
     * @return the run's stream; reading it runs the agent
     */
    public AgentStream stream(String prompt, RunOptions options) {
        return start(prompt, options, null, null, UUID.randomUUID().toString());
    }

    /** Starts a run; a subagent's inner run records the supervisor run that waits on it. */
    AgentStream start(String prompt, RunOptions options, @Nullable String parentAgentId, @Nullable String parentRunId,
                      String runId) {
        return actions.start(prompt, options, parentAgentId, parentRunId, runId);
    }

    /**
     * {@link #stream(String)}, drained.
     *
     * @param prompt the user's message
     * @return the drained run
     */
    public AgentResult generate(String prompt) {
        return stream(prompt).result();
    }

    /**
     * {@link #stream(String, RunOptions)}, drained.
     *
     * @param prompt  the user's message
     * @param options thread, resource and limits of the run
     * @return the drained run
     */
    public AgentResult generate(String prompt, RunOptions options) {
        return stream(prompt, options).result();
    }

    // ---- discovery --------------------------------------------------------------------------

    /**
     * Every suspended run of this agent.
     *
     * @return every suspended run, newest first, with the total
     */
    public AgentListSuspendedRunsResult listSuspendedRuns() {
        return listSuspendedRuns(AgentListSuspendedRunsOptions.ALL);
    }

    /**
     * The suspended runs of this agent that match {@code options}, newest creation first (ties by
     * runId descending). Filtering, order, count and paging are done by the store. Runs that
     * stopped part-way are listed too, with {@link AgentRun#interrupted()}.
     *
     * @throws InvalidOptionException for {@code perPage < 1}, {@code page < 0}, or {@code fromDate} after {@code toDate}
     * @param options filters and paging, validated when they were built
     * @return the page of runs, the total before paging and the next cursor
     */
    public AgentListSuspendedRunsResult listSuspendedRuns(AgentListSuspendedRunsOptions options) {
        return RunListing.list(this, options);
    }

    /**
     * One suspended run of this agent by its id, as {@link #listSuspendedRuns} would list it (a run
     * that stopped part-way included, with {@link AgentRun#interrupted()}): one read by id, not a
     * listing searched through.
     *
     * @param runId the run
     * @return the run, or empty if no run of this agent with that id waits
     * @throws InvalidOptionException for an id that is not an id ({@code Ids})
     */
    public java.util.Optional<AgentRun> findSuspendedRun(String runId) {
        return RunListing.find(this, runId);
    }

    /**
     * Counts this agent's stored runs by status, as of now: runs waiting ({@code SUSPENDED}, including
     * those whose lease expired) and runs being resumed under a live lease ({@code RESUMING}).
     *
     * @return the number of runs per status (both statuses present)
     */
    public Map<RunStatus, Long> countRuns() {
        return RunListing.count(this);
    }

    /**
     * The runs of this agent being resumed right now, with their lease holders: for operations.
     *
     * @return the runs under a live lease, newest first
     */
    public List<AgentRunLease> listResumingRuns() {
        return RunListing.resuming(this);
    }

    /** {@return the approver rules, in the order they are tried ({@link AgentBuilder#approverRules})} */
    public List<ApproverRule> approverRules() { return approverRules; }

    Approvals approvals() { return approvals; }

    /**
     * What {@code approver} may do with a waiting call of a listed run now, by the approver rules:
     * the decisions a page should offer them (the others it shows read-only, with
     * {@link CallPermissions#why()}). Checked from the listing alone (who started the run, who has
     * approved the call so far), as the decision itself is checked; without rules, or for a call no
     * rule matches, every decision is allowed. A call's rule may still refuse an edit whose arguments
     * fall under another rule, and the run may have changed since it was listed.
     *
     * @param run      a run as listed ({@link #listSuspendedRuns})
     * @param call     one of its waiting calls
     * @param approver who asks, or null for a caller who names nobody
     * @return what they may do now
     */
    public CallPermissions permissions(AgentRun run, AgentRunToolCall call, @Nullable Approver approver) {
        java.util.Objects.requireNonNull(run, "run");
        java.util.Objects.requireNonNull(call, "call");
        return approvals.permissions(run.startedBy(), call, approver);
    }

    /** {@return how long decision records are kept, if {@link AgentBuilder#decisionRetention} was set} */
    public java.util.Optional<Duration> decisionRetention() { return java.util.Optional.ofNullable(decisionRetention); }

    /**
     * Handles up to {@code limit} runs of this agent whose wait has expired, as the agent's
     * {@link ExpiryPolicy} says: declines their expired calls (the run goes on, on this thread) or
     * cancels them. Due runs are found by the store on an index of deadlines, soonest first. Safe to
     * call from any number of instances at once: each due run is claimed, so it is handled exactly
     * once; a run another instance took first is reported as skipped. With the default policy
     * ({@link ExpiryPolicy#keep()}) it does nothing. See {@link RunExpirer} to run it on a schedule.
     *
     * @param limit the most due runs to handle in this call, at least 1
     * @return what was done with each due run
     * @throws InvalidOptionException   if {@code limit < 1}
     */
    public ExpiryReport expireDueRuns(int limit) {
        if (limit < 1) throw new InvalidOptionException("limit", "must be positive, was " + limit);
        ExpiryReport report = actions.expire(limit);
        decisions.purgeByRetention();
        return report;
    }

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

    /**
     * Leaves gracefully (rule R12): stops taking new runs and claims (they fail with
     * {@link IllegalStateException}), lets the steps under way (a tool) finish within
     * {@link AgentBuilder#shutdownGrace(Duration)}, and hands back every claim this agent still holds at
     * once, each with one compare-and-set to suspended, marked interrupted, the decision kept, so
     * another instance continues it with {@link #continueRun(String)} at once instead of waiting for
     * the lease to lapse. A stream being read stops at its next step with outcome interrupted; a
     * claim not read yet is handed back at once; a step still under way when the grace ends is
     * handed back from what the store holds (a tool under way then runs again when the run is
     * continued). Then closes the store if this agent opened it (no store was given to the
     * builder); a store given to the builder belongs to the caller, who closes it. Idempotent.
     * Blocks at most the grace period (plus the hand-back writes).
     *
     * <p>A plain Java application gets this graceful hand-back only if something calls {@code close()}
     * when it stops: build the agent with {@link AgentBuilder#closeOnShutdown()} (a JVM shutdown hook,
     * run on {@code SIGTERM}), or call it yourself. Otherwise its claimed runs wait for their leases to
     * lapse, as after a {@code kill -9}.
     */
    @Override
    public void close() {
        Thread hook = shutdownHook;
        if (hook != null && Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs (or ran) anyway
            }
        }
        shutdown.close();
        if (ownsStore) store.close();
    }

    @Override
    public String toString() {
        return "Agent[" + id + ", store=" + store.describe() + "]";
    }
}
