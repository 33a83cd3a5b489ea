package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.InvalidOptionException;
import dev.baton.ResumeMismatchException;
import dev.baton.RunNotFoundException;
import dev.baton.RunNotSuspendedException;
import dev.baton.SnapshotFormatException;
import dev.baton.ToolCallNotFoundException;
import dev.baton.UnknownToolException;
import dev.baton.internal.SnapshotCodec;
import dev.baton.model.LanguageModel;
import dev.baton.model.ToolDefinition;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.StoreClock;
import dev.baton.tool.Tool;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
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
 * {@link Builder#pickupTimeout(Duration)} gives the run back, with the decision kept, and the run is
 * then listed as interrupted for {@link #continueRun(String)}.
 *
 * <p><b>Thread-safety.</b> An agent is immutable once built and thread-safe: any number of threads
 * may start, list, approve and resume runs at once. Each {@link AgentStream} it returns is read by
 * one thread. <b>Closing.</b> {@link #close()} leaves gracefully: it lets the tools under way finish
 * within a grace period and hands every claimed run back for another instance; it closes the store
 * only if the agent opened it (it was built without {@link Builder#store}). Leases of claimed
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
    private final NotificationPolicy notifications;
    private final AgentShutdown shutdown;

    private Agent(Builder b, SnapshotStore store, boolean ownsStore) {
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
        this.notifications = RunNotifications.check(b.notifications, store);
        this.shutdown = new AgentShutdown(b.id, b.shutdownGrace);
    }

    /**
     * Starts building an agent; {@code id} is stored in every snapshot and scopes every operation.
     *
     * @param id the agent id, not blank
     * @return the builder
     */
    public static Builder builder(String id) {
        return new Builder(id);
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
     * The clock for creation, suspension and lease times: the builder's, or the store's ({@link Builder#useStoreClock()}).
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

    /** {@return which moments of a run's wait this agent notifies about (see {@link Builder#notifications})} */
    public NotificationPolicy notifications() { return notifications; }

    /**
     * This agent's thread memory, bound to its store: for managing threads and reading their
     * messages. Empty if the agent was built without {@link Builder#memory}.
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

    // ---- resuming ---------------------------------------------------------------------------

    /**
     * Approves a call that waits for approval: claims the run and records the approval at once;
     * reading the returned stream runs the tool, then the model goes on.
     *
     * @throws RunNotFoundException      no suspended run with this id for this agent
     * @throws ToolCallNotFoundException the run has no waiting call with this id
     * @throws ResumeMismatchException   the call waits for resume data, not for an approval
     * @throws RunNotSuspendedException  another caller is resuming the run (it won the race)
     * @throws UnknownToolException      this agent lacks the call's tool
     * @throws SnapshotFormatException   the stored run cannot be read
     * @param runId      the suspended run
     * @param toolCallId the call waiting for approval
     * @return the stream that runs the tool and goes on
     */
    public AgentStream approveToolCall(String runId, String toolCallId) {
        return decisions.approve(runId, toolCallId, ApproveOptions.builder().build());
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
        return decisions.decline(runId, toolCallId, DeclineOptions.builder().reason(reason).build());
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
        return decisions.resume(resumeData, options, DecisionOptions.none());
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
        return decisions.continueRun(runId, DecisionOptions.none());
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
        decisions.discard(runId, DecisionOptions.none());
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
        return decisions.cancel(runId, DecisionOptions.builder().reason(reason == null || reason.isBlank() ? null : reason).build());
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
     * @param options    the edit, digest, actor, reason and key
     * @return the stream that runs the tool and goes on; for a retry with a key already recorded, a
     *         stream that runs nothing ({@link AgentStream#replayed()}) and reports the first decision
     * @throws dev.baton.tool.InvalidToolInputException the edited arguments break the tool's input schema
     * @throws dev.baton.DecisionConflictException      the waiting call is not the one whose digest was given
     * @throws dev.baton.AlreadyDecidedException        the call was decided before: by whom, when, and what to do now
     * @see #approveToolCall(String, String) for the other exceptions
     */
    public AgentStream approveToolCall(String runId, String toolCallId, ApproveOptions options) {
        return decisions.approve(runId, toolCallId, options);
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
        return decisions.decline(runId, toolCallId, options);
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
        return decisions.resume(resumeData, options, decision);
    }

    /**
     * Continues an interrupted run, as {@link #continueRun(String)}, recording who decided.
     *
     * @param runId   the interrupted run
     * @param options actor, reason and key (a digest is refused: this decides on the whole run)
     * @return the stream that goes on (or, for a retry, the replay)
     */
    public AgentStream continueRun(String runId, DecisionOptions options) {
        return decisions.continueRun(runId, options);
    }

    /**
     * Discards a stored run, as {@link #discardRun(String)}, recording who decided (in the same write
     * as the delete). A retry with a recorded key returns normally.
     *
     * @param runId   the stored run
     * @param options actor, reason and key (a digest is refused)
     */
    public void discardRun(String runId, DecisionOptions options) {
        decisions.discard(runId, options);
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
        return decisions.cancel(runId, options);
    }

    /**
     * This agent's recorded decisions, newest first, one page: the audit trail, kept after runs end.
     *
     * @param options filters (run, thread, resource, actor, time range), page size and cursor
     * @return the page, with the cursor of the next one
     * @throws UnsupportedOperationException the store keeps no decisions (capability DECISIONS), naming it
     */
    public dev.baton.store.DecisionPage listDecisions(AgentListDecisionsOptions options) {
        return decisions.list(options);
    }

    /**
     * Deletes this agent's decision records decided before {@code olderThan}, in batches, and says how
     * many went. {@link Builder#decisionRetention(Duration)} makes {@link #expireDueRuns(int)} do this.
     *
     * @param olderThan records decided strictly before it go
     * @return how many records were deleted
     * @throws UnsupportedOperationException the store keeps no decisions (capability DECISIONS), naming it
     */
    public long purgeDecisions(java.time.Instant olderThan) {
        return decisions.purge(olderThan);
    }

    /** {@return how long decision records are kept, if {@link Builder#decisionRetention} was set} */
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

    /**
     * Leaves gracefully (rule R12): stops taking new runs and claims (they fail with
     * {@link IllegalStateException}), lets the steps under way (a tool) finish within
     * {@link Builder#shutdownGrace(Duration)}, and hands back every claim this agent still holds at
     * once, each with one compare-and-set to suspended, marked interrupted, the decision kept, so
     * another instance continues it with {@link #continueRun(String)} at once instead of waiting for
     * the lease to lapse. A stream being read stops at its next step with outcome interrupted; a
     * claim not read yet is handed back at once; a step still under way when the grace ends is
     * handed back from what the store holds (a tool under way then runs again when the run is
     * continued). Then closes the store if this agent opened it (no store was given to the
     * builder); a store given to the builder belongs to the caller, who closes it. Idempotent.
     * Blocks at most the grace period (plus the hand-back writes).
     */
    @Override
    public void close() {
        shutdown.close();
        if (ownsStore) store.close();
    }

    @Override
    public String toString() {
        return "Agent[" + id + ", store=" + store.describe() + "]";
    }

    /** Builder of {@link Agent}. */
    public static final class Builder {
        private final String id;
        private String instructions = "";
        private @Nullable LanguageModel model;
        private final Map<String, Tool> tools = new LinkedHashMap<>();
        private @Nullable SnapshotStore store;
        private Clock clock = Clock.systemUTC();
        private boolean useStoreClock;
        private Duration leaseDuration = Duration.ofSeconds(60);
        private Duration pickupTimeout = Duration.ofSeconds(5);
        private String instanceId = defaultInstanceId();
        private int maxSteps = 10;
        private final List<RunListener> listeners = new ArrayList<>();
        private NotificationPolicy notifications = NotificationPolicy.none();
        private @Nullable Duration waitTimeout;
        private ExpiryPolicy expiryPolicy = ExpiryPolicy.keep();
        private dev.baton.memory.@Nullable Memory memory;
        private @Nullable Duration decisionRetention;
        private Duration shutdownGrace = Duration.ofSeconds(10);

        private Builder(String id) {
            Objects.requireNonNull(id, "id");
            if (id.isBlank()) throw new InvalidOptionException("id", "an agent id must not be blank");
            dev.baton.Ids.require("id", id);
            this.id = id;
        }

        /**
         * The system instructions the model is given (default: none).
         *
         * @param instructions the instructions
         * @return this builder
         */
        public Builder instructions(String instructions) {
            this.instructions = Objects.requireNonNull(instructions, "instructions");
            return this;
        }

        /**
         * The model (required).
         *
         * @param model the model
         * @return this builder
         */
        public Builder model(LanguageModel model) {
            this.model = Objects.requireNonNull(model, "model");
            return this;
        }

        /**
         * Adds tools; names must be unique.
         *
         * @param tools the tools
         * @return this builder
         * @throws InvalidOptionException if two tools have one name
         */
        public Builder tools(Tool... tools) {
            return tools(List.of(tools));
        }

        /**
         * Adds tools; names must be unique.
         *
         * @param tools the tools
         * @return this builder
         * @throws InvalidOptionException if two tools have one name
         */
        public Builder tools(Collection<Tool> tools) {
            for (Tool t : tools) {
                if (this.tools.putIfAbsent(t.name(), t) != null) {
                    throw new InvalidOptionException("tools", "two tools are named '" + t.name() + "'");
                }
            }
            return this;
        }

        /**
         * Adds subagents, each as the tool {@code agent-<id>}.
         *
         * @param agents the subagents
         * @return this builder
         */
        public Builder subagents(Agent... agents) {
            for (Agent a : agents) tools(a.asTool());
            return this;
        }

        /**
         * Where runs are stored. Default: {@code -Dbaton.store.url}, else {@code BATON_STORE_URL}, else {@code memory:}.
         *
         * @param store the store; the caller keeps it and closes it
         * @return this builder
         */
        public Builder store(SnapshotStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * The clock for creation, suspension and lease times (tests pass a controllable one). Leases
         * are judged by it, so every instance sharing a store needs clocks that agree to well within a
         * lease; see {@link #useStoreClock()} to depend on no server's wall clock.
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            this.useStoreClock = false;
            return this;
        }

        /**
         * Judges leases (and stamps creation and suspension times) by the store's own clock
         * ({@link StoreClock}): the database's {@code now()}, Redis {@code TIME}, MongoDB's server time.
         * Instances whose wall clocks disagree then still agree on when a lease lapses. The store must
         * declare {@link dev.baton.store.StoreCapability#STORE_CLOCK}.
         *
         * @return this builder
         */
        public Builder useStoreClock() {
            this.useStoreClock = true;
            return this;
        }

        /**
         * How long a claim lasts without a heartbeat (default 60 s); the heartbeat extends it every third of that.
         *
         * @param lease a positive duration
         * @return this builder
         */
        public Builder leaseDuration(Duration lease) {
            if (lease.isNegative() || lease.isZero()) throw new InvalidOptionException("leaseDuration", "must be positive");
            this.leaseDuration = lease;
            return this;
        }

        /**
         * How long a run claimed by approve / decline / resume / continue waits for its stream to be
         * read (default 5 s). A stream that is not read in time gives the run back, with the decision
         * recorded, so a dropped stream never holds a run for the whole lease; the run is then listed as
         * interrupted and {@link Agent#continueRun(String)} goes on. A stream read later takes the run
         * back if nobody else did.
         *
         * @param pickup a positive duration
         * @return this builder
         */
        public Builder pickupTimeout(Duration pickup) {
            if (pickup.isNegative() || pickup.isZero()) throw new InvalidOptionException("pickupTimeout", "must be positive");
            this.pickupTimeout = pickup;
            return this;
        }

        /**
         * The name this process claims runs under (default: host, pid and a random suffix).
         *
         * @param instanceId a name, not blank
         * @return this builder
         */
        public Builder instanceId(String instanceId) {
            if (instanceId == null || instanceId.isBlank()) throw new InvalidOptionException("instanceId", "must not be blank");
            this.instanceId = instanceId;
            return this;
        }

        /**
         * The most model calls a run may make (default 10); {@link RunOptions#maxSteps()} overrides it per run.
         *
         * @param maxSteps at least 1
         * @return this builder
         */
        public Builder maxSteps(int maxSteps) {
            if (maxSteps < 1) throw new InvalidOptionException("maxSteps", "must be positive, was " + maxSteps);
            this.maxSteps = maxSteps;
            return this;
        }

        /**
         * How long a call may wait for a decision or data before its wait expires, unless its tool
         * or its run says otherwise (default: never). What then happens is {@link #onExpiry}'s policy.
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder waitTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) throw new InvalidOptionException("waitTimeout", "must be positive");
            this.waitTimeout = timeout;
            return this;
        }

        /**
         * What {@link Agent#expireDueRuns(int)} does with expired runs (default {@link ExpiryPolicy#keep()}).
         *
         * @param policy the policy
         * @return this builder
         */
        public Builder onExpiry(ExpiryPolicy policy) {
            this.expiryPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Notifications (default {@link NotificationPolicy#none()}): each write that starts a wait the
         * policy names also stores a due notification in the run's row, which a notifier (module
         * {@code baton-notify}) delivers at least once. Needs a store that declares
         * {@link dev.baton.store.StoreCapability#NOTIFICATIONS}.
         *
         * @param policy the events to notify about
         * @return this builder
         */
        public Builder notifications(NotificationPolicy policy) {
            this.notifications = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /**
         * Thread memory: runs that name a {@code threadId} see the thread's earlier messages and save
         * theirs to it, in this agent's store (which must declare
         * {@link dev.baton.store.StoreCapability#THREAD_MEMORY}). See {@link dev.baton.memory.Memory}.
         *
         * @param memory the memory; without a store of its own it is bound to this agent's store
         * @return this builder
         */
        public Builder memory(dev.baton.memory.Memory memory) {
            this.memory = Objects.requireNonNull(memory, "memory");
            return this;
        }

        /**
         * Keeps decision records this long: {@link Agent#expireDueRuns(int)} (and so {@link RunExpirer})
         * also deletes older ones. Default: kept until {@link Agent#purgeDecisions} is called. Needs a
         * store with {@link dev.baton.store.StoreCapability#DECISIONS} (checked by {@link #build()}).
         *
         * @param retention a positive duration
         * @return this builder
         */
        public Builder decisionRetention(Duration retention) {
            if (retention.isNegative() || retention.isZero()) throw new InvalidOptionException("decisionRetention", "must be positive");
            this.decisionRetention = retention;
            return this;
        }

        /**
         * Adds listeners that see every run's events, claims, lease losses, tool executions and model calls.
         *
         * @param listeners the listeners (thread-safe, see {@link RunListener})
         * @return this builder
         */
        public Builder listeners(RunListener... listeners) {
            for (RunListener l : listeners) this.listeners.add(Objects.requireNonNull(l, "listener"));
            return this;
        }

        /**
         * How long {@link Agent#close()} lets the steps under way (a tool) finish before it hands
         * their runs back to the store (default 10 s; zero hands everything back at once).
         *
         * @param grace zero or positive
         * @return this builder
         * @throws InvalidOptionException if {@code grace} is negative
         */
        public Builder shutdownGrace(Duration grace) {
            Objects.requireNonNull(grace, "shutdownGrace");
            if (grace.isNegative()) throw new InvalidOptionException("shutdownGrace", "must not be negative, was " + grace);
            this.shutdownGrace = grace;
            return this;
        }

        /**
         * Builds the agent, checking that its store offers every capability it needs: {@link #useStoreClock()}
         * needs {@link dev.baton.store.StoreCapability#STORE_CLOCK}, a {@link #memory} without a store of its
         * own needs {@link dev.baton.store.StoreCapability#THREAD_MEMORY}, {@link #notifications} need
         * {@link dev.baton.store.StoreCapability#NOTIFICATIONS}. Without a store, it opens the
         * default one ({@link #store}) and owns it.
         *
         * @return the agent
         * @throws InvalidOptionException naming the option, or the capability and the store that lacks it
         */
        public Agent build() {
            if (model == null) throw new InvalidOptionException("model", "agent '" + id + "' needs a model");
            if (store != null) return new Agent(this, store, false);
            SnapshotStore opened = SnapshotStores.open(SnapshotStores.defaultUrl());
            try {
                return new Agent(this, opened, true);
            } catch (RuntimeException e) {
                opened.close();
                throw e;
            }
        }

        private static String defaultInstanceId() {
            String host = System.getenv("HOSTNAME");
            return (host == null || host.isBlank() ? "jvm" : host) + "-" + ProcessHandle.current().pid() + "-"
                    + UUID.randomUUID().toString().substring(0, 8);
        }
    }
}
