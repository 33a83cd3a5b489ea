package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
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
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.model.ToolDefinition;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tool.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * run that does not exist. Approve, decline and resume first <em>claim</em> the run with the
 * store's compare-and-set, so of several concurrent callers (threads or servers) exactly one
 * proceeds; the others get {@link RunNotSuspendedException}. Thread-safe.
 */
public final class Agent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Agent.class);

    private final String id;
    private final String instructions;
    private final LanguageModel model;
    private final Map<String, Tool> tools;
    private final List<ToolDefinition> toolDefinitions;
    private final SnapshotStore store;
    private final boolean ownsStore;
    private final Clock clock;
    private final Duration leaseDuration;
    private final String instanceId;
    private final int maxSteps;

    private Agent(Builder b, SnapshotStore store, boolean ownsStore) {
        this.id = b.id;
        this.instructions = b.instructions;
        this.model = Objects.requireNonNull(b.model, () -> "agent '" + b.id + "' needs a model(...)");
        this.tools = Map.copyOf(b.tools);
        this.toolDefinitions = b.tools.values().stream().map(Tool::definition).toList();
        this.store = store;
        this.ownsStore = ownsStore;
        this.clock = b.clock;
        this.leaseDuration = b.leaseDuration;
        this.instanceId = b.instanceId;
        this.maxSteps = b.maxSteps;
    }

    /** Starts building an agent; {@code id} is stored in every snapshot and scopes every operation. */
    public static Builder builder(String id) {
        return new Builder(id);
    }

    public String id() { return id; }

    public String instructions() { return instructions; }

    public LanguageModel model() { return model; }

    /** The tools by name, including {@code agent-<id>} tools of subagents. */
    public Map<String, Tool> tools() { return tools; }

    public SnapshotStore store() { return store; }

    public Clock clock() { return clock; }

    /** How long a claim on a run lasts without a heartbeat. */
    public Duration leaseDuration() { return leaseDuration; }

    /** The name this process claims runs under, shown as the lease owner. */
    public String instanceId() { return instanceId; }

    @Nullable Tool tool(String name) { return tools.get(name); }

    List<ToolDefinition> toolDefinitions() { return toolDefinitions; }

    /** This agent as a tool named {@code agent-<id>}, for a supervisor: input {@code {"prompt": "..."}}. */
    public Tool asTool() {
        return Tool.builder("agent-" + id)
                .description("Delegates to the agent '" + id + "'. " + instructions)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"prompt\":{\"type\":\"string\"}},\"required\":[\"prompt\"]}")
                .execute(new SubagentExecutor(this))
                .build();
    }

    // ---- starting runs ----------------------------------------------------------------------

    /** Starts a run without thread or resource. */
    public AgentStream stream(String prompt) {
        return stream(prompt, RunOptions.DEFAULT);
    }

    /**
     * Starts a run. Nothing is stored unless the run suspends; the run advances as the stream is
     * iterated (or drained by {@link AgentStream#result()}).
     */
    public AgentStream stream(String prompt, RunOptions options) {
        return start(prompt, options, null, null);
    }

    /** Starts a run; a subagent's inner run records the supervisor run that waits on it. */
    AgentStream start(String prompt, RunOptions options, @Nullable String parentAgentId, @Nullable String parentRunId) {
        Objects.requireNonNull(prompt, "prompt");
        Objects.requireNonNull(options, "options");
        RunState state = new RunState();
        state.runId = UUID.randomUUID().toString();
        state.agentId = id;
        state.threadId = options.threadId();
        state.resourceId = options.resourceId();
        state.createdAt = clock.instant();
        state.maxSteps = options.maxSteps() == RunOptions.DEFAULT.maxSteps() ? maxSteps : options.maxSteps();
        state.parentAgentId = parentAgentId;
        state.parentRunId = parentRunId;
        state.messages.add(new Message.User(prompt));
        return new AgentStream(new RunExecution(this, state, null, null));
    }

    /** {@link #stream(String)}, drained. */
    public AgentResult generate(String prompt) {
        return stream(prompt).result();
    }

    /** {@link #stream(String, RunOptions)}, drained. */
    public AgentResult generate(String prompt, RunOptions options) {
        return stream(prompt, options).result();
    }

    // ---- discovery --------------------------------------------------------------------------

    /** Every suspended run of this agent. */
    public AgentListSuspendedRunsResult listSuspendedRuns() {
        return listSuspendedRuns(AgentListSuspendedRunsOptions.ALL);
    }

    /**
     * The suspended runs of this agent that match {@code options}, newest creation first (ties by
     * runId descending). Filtering, order, count and paging are done by the store.
     *
     * @throws InvalidOptionException for {@code perPage < 1}, {@code page < 0}, or {@code fromDate} after {@code toDate}
     */
    public AgentListSuspendedRunsResult listSuspendedRuns(AgentListSuspendedRunsOptions options) {
        Objects.requireNonNull(options, "options");
        if (options.perPage() != null && options.perPage() < 1) {
            throw new InvalidOptionException("perPage", "must be a positive integer, was " + options.perPage());
        }
        if (options.page() != null && options.page() < 0) {
            throw new InvalidOptionException("page", "must be a non-negative integer (pages are zero-based), was " + options.page());
        }
        if (options.fromDate() != null && options.toDate() != null && options.fromDate().isAfter(options.toDate())) {
            throw new InvalidOptionException("fromDate", "must not be after toDate (" + options.fromDate() + " > " + options.toDate() + ")");
        }
        RunQuery.Builder q = RunQuery.forAgent(id, clock.instant())
                .status(RunStatus.SUSPENDED)
                .threadId(options.threadId())
                .resourceId(options.resourceId())
                .createdFrom(options.fromDate())
                .createdTo(options.toDate());
        if (options.paginated()) q.page((long) options.page() * options.perPage(), options.perPage());
        RunPage page = store.list(q.build());
        List<AgentRun> runs = new ArrayList<>(page.items().size());
        for (RunSnapshot s : page.items()) runs.add(toAgentRun(s));
        return new AgentListSuspendedRunsResult(runs, page.total());
    }

    /**
     * Counts this agent's stored runs by status, as of now: runs waiting ({@code SUSPENDED}, including
     * those whose lease expired) and runs being resumed under a live lease ({@code RESUMING}).
     */
    public Map<RunStatus, Long> countRuns() {
        Instant now = clock.instant();
        Map<RunStatus, Long> counts = new EnumMap<>(RunStatus.class);
        for (RunStatus s : RunStatus.values()) {
            counts.put(s, store.list(RunQuery.forAgent(id, now).status(s).countOnly().build()).total());
        }
        return counts;
    }

    /** The runs of this agent being resumed right now, with their lease holders: for operations. */
    public List<AgentRunLease> listResumingRuns() {
        RunPage page = store.list(RunQuery.forAgent(id, clock.instant()).status(RunStatus.RESUMING).build());
        return page.items().stream().map(s -> new AgentRunLease(s.runId(), s.threadId(), s.resourceId(),
                Objects.requireNonNull(s.leaseOwner()), Objects.requireNonNull(s.leaseExpiresAt()))).toList();
    }

    private AgentRun toAgentRun(RunSnapshot s) {
        List<AgentRunToolCall> calls;
        try {
            calls = waitingCalls(SnapshotCodec.decode(s));
        } catch (SnapshotFormatException e) {
            // listed so it can be seen and dealt with; resuming it gives the precise error
            LOG.warn("{}", e.getMessage());
            calls = List.of();
        }
        return new AgentRun(s.runId(), RunStatus.SUSPENDED, s.threadId(), s.resourceId(), s.suspendedAt(), calls);
    }

    static List<AgentRunToolCall> waitingCalls(RunState state) {
        List<AgentRunToolCall> out = new ArrayList<>();
        for (CallState c : state.calls) {
            if (!c.waiting) continue;
            boolean approval = c.waitedFor == Status.AWAITING_APPROVAL;
            CallState.InnerRun inner = c.inner;
            if (inner != null) {
                out.add(new AgentRunToolCall(c.toolCallId, inner.toolName, approval ? inner.args : null, approval,
                        approval ? null : inner.suspendPayload));
            } else {
                out.add(new AgentRunToolCall(c.toolCallId, c.toolName, approval ? c.args : null, approval,
                        approval ? null : c.suspendPayload));
            }
        }
        return out;
    }

    // ---- resuming ---------------------------------------------------------------------------

    /**
     * Approves a call that waits for approval: the tool runs, then the model goes on.
     *
     * @throws RunNotFoundException      no suspended run with this id for this agent
     * @throws ToolCallNotFoundException the run has no waiting call with this id
     * @throws ResumeMismatchException   the call waits for resume data, not for an approval
     * @throws RunNotSuspendedException  another caller is resuming the run (it won the race)
     * @throws UnknownToolException      this agent lacks the call's tool
     * @throws SnapshotFormatException   the stored run cannot be read
     */
    public AgentStream approveToolCall(String runId, String toolCallId) {
        Objects.requireNonNull(toolCallId, "toolCallId");
        return resume(runId, new RunExecution.ResumeAction(RunExecution.ResumeAction.Kind.APPROVE, toolCallId, null, null), false);
    }

    /** Declines a call: the tool does not run; the model sees "Tool call was not approved by the user". Throws as {@link #approveToolCall}. */
    public AgentStream declineToolCall(String runId, String toolCallId) {
        return declineToolCall(runId, toolCallId, null);
    }

    /** Declines a call; the model sees {@code reason} (or the default text when null). Throws as {@link #approveToolCall}. */
    public AgentStream declineToolCall(String runId, String toolCallId, @Nullable String reason) {
        Objects.requireNonNull(toolCallId, "toolCallId");
        return resume(runId, new RunExecution.ResumeAction(RunExecution.ResumeAction.Kind.DECLINE, toolCallId, reason, null), false);
    }

    /** Resumes the run's one call that waits for data; the tool sees {@code resumeData} in {@code ctx.resumeData()}. */
    public AgentStream resumeStream(@Nullable Object resumeData, String runId) {
        return resumeStream(resumeData, ResumeOptions.of(runId));
    }

    /**
     * Resumes a call that waits for data ({@code ctx.suspend(...)}). {@code options.toolCallId()} is needed
     * when several calls of the run wait for data.
     *
     * @throws InvalidOptionException  several calls wait for data and no toolCallId was given
     * @throws ResumeMismatchException the call waits for an approval, not for data
     * @see #approveToolCall for the other exceptions
     */
    public AgentStream resumeStream(@Nullable Object resumeData, ResumeOptions options) {
        Objects.requireNonNull(options, "options");
        JsonNode data = SnapshotCodec.JSON.valueToTree(resumeData);
        if (data == null || data.isNull()) data = SnapshotCodec.JSON.createObjectNode();
        return resume(options.runId(), new RunExecution.ResumeAction(RunExecution.ResumeAction.Kind.DATA,
                options.toolCallId(), null, data), false);
    }

    /** For the supervisor's {@code agent-<id>} tool: resumes an inner run on behalf of its parent run. */
    AgentStream resumeForParent(String runId, RunExecution.ResumeAction action) {
        return resume(runId, action, true);
    }

    private AgentStream resume(String runId, RunExecution.ResumeAction action, boolean fromParent) {
        Objects.requireNonNull(runId, "runId");
        RunSnapshot snapshot = store.find(runId).filter(s -> s.agentId().equals(id))
                .orElseThrow(() -> new RunNotFoundException(id, runId));
        Instant now = clock.instant();
        if (snapshot.effectiveStatus(now) != RunStatus.SUSPENDED) {
            throw new RunNotSuspendedException(runId, "it is being resumed by '" + snapshot.leaseOwner()
                    + "' (lease until " + snapshot.leaseExpiresAt() + "). Only one approve, decline or resume wins.");
        }
        RunState state = SnapshotCodec.decode(snapshot);
        if (state.parentRunId != null && !fromParent) {
            // resuming it here would leave the supervisor's run waiting on a run that is gone
            throw new ResumeMismatchException("Run '" + runId + "' is the inner run of supervisor '" + state.parentAgentId
                    + "' run '" + state.parentRunId + "': approve, decline or resume that run instead.");
        }
        CallState call = target(state, action);
        Tool tool = tools.get(call.toolName);
        if (tool == null) throw new UnknownToolException(id, runId, call.toolName);
        if (call.inner != null && !(tool.executor() instanceof SubagentExecutor)) {
            throw new UnknownToolException(id, runId, call.toolName + " (as a subagent)");
        }
        RunSnapshot claimed = snapshot.claimed(instanceId, now.plus(leaseDuration), snapshot.payload());
        if (!store.compareAndSet(snapshot.version(), claimed)) {
            throw new RunNotSuspendedException(runId, "another caller approved, declined or resumed it first.");
        }
        RunClaim claim = new RunClaim(store, clock, leaseDuration, instanceId, claimed);
        RunExecution.ResumeAction resolved = new RunExecution.ResumeAction(action.kind(), call.toolCallId,
                action.reason(), action.data());
        return new AgentStream(new RunExecution(this, state, claim, resolved));
    }

    /** Finds and checks the call a resume targets; changes nothing. */
    private static CallState target(RunState state, RunExecution.ResumeAction action) {
        List<CallState> waiting = state.calls.stream().filter(c -> c.waiting).toList();
        List<String> waitingIds = waiting.stream().map(c -> c.toolCallId).toList();
        CallState call;
        if (action.toolCallId() != null) {
            call = waiting.stream().filter(c -> c.toolCallId.equals(action.toolCallId())).findFirst()
                    .orElseThrow(() -> new ToolCallNotFoundException(state.runId, action.toolCallId(), waitingIds));
        } else {
            List<CallState> data = waiting.stream().filter(c -> c.waitedFor == Status.AWAITING_DATA).toList();
            if (data.isEmpty()) {
                throw new ResumeMismatchException("Run '" + state.runId + "' waits for an approval of " + waitingIds
                        + ", not for resume data: use approveToolCall or declineToolCall.");
            }
            if (data.size() > 1) {
                throw new InvalidOptionException("toolCallId", "run '" + state.runId + "' has several calls waiting for data "
                        + data.stream().map(c -> c.toolCallId).toList() + "; name one in ResumeOptions");
            }
            call = data.get(0);
        }
        boolean wantsApproval = action.kind() != RunExecution.ResumeAction.Kind.DATA;
        boolean waitsForApproval = call.waitedFor == Status.AWAITING_APPROVAL;
        if (wantsApproval && !waitsForApproval) {
            throw new ResumeMismatchException("Tool call '" + call.toolCallId + "' of run '" + state.runId
                    + "' waits for resume data, not for an approval: use resumeStream(data, runId).");
        }
        if (!wantsApproval && waitsForApproval) {
            throw new ResumeMismatchException("Tool call '" + call.toolCallId + "' of run '" + state.runId
                    + "' waits for an approval, not for resume data: use approveToolCall or declineToolCall.");
        }
        return call;
    }

    /** Closes the store if this agent opened it (no store was given to the builder). */
    @Override
    public void close() {
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
        private Duration leaseDuration = Duration.ofSeconds(60);
        private String instanceId = defaultInstanceId();
        private int maxSteps = 10;

        private Builder(String id) {
            Objects.requireNonNull(id, "id");
            if (id.isBlank()) throw new InvalidOptionException("id", "an agent id must not be blank");
            this.id = id;
        }

        public Builder instructions(String instructions) {
            this.instructions = Objects.requireNonNull(instructions, "instructions");
            return this;
        }

        public Builder model(LanguageModel model) {
            this.model = Objects.requireNonNull(model, "model");
            return this;
        }

        /** Adds tools; names must be unique. */
        public Builder tools(Tool... tools) {
            return tools(List.of(tools));
        }

        /** Adds tools; names must be unique. */
        public Builder tools(Collection<Tool> tools) {
            for (Tool t : tools) {
                if (this.tools.putIfAbsent(t.name(), t) != null) {
                    throw new InvalidOptionException("tools", "two tools are named '" + t.name() + "'");
                }
            }
            return this;
        }

        /** Adds subagents, each as the tool {@code agent-<id>}. */
        public Builder subagents(Agent... agents) {
            for (Agent a : agents) tools(a.asTool());
            return this;
        }

        /** Where runs are stored. Default: {@code -Dbaton.store.url}, else {@code BATON_STORE_URL}, else {@code memory:}. */
        public Builder store(SnapshotStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /** The clock for creation, suspension and lease times (tests pass a controllable one). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** How long a claim lasts without a heartbeat (default 60 s); the heartbeat extends it every third of that. */
        public Builder leaseDuration(Duration lease) {
            if (lease.isNegative() || lease.isZero()) throw new InvalidOptionException("leaseDuration", "must be positive");
            this.leaseDuration = lease;
            return this;
        }

        /** The name this process claims runs under (default: host, pid and a random suffix). */
        public Builder instanceId(String instanceId) {
            if (instanceId == null || instanceId.isBlank()) throw new InvalidOptionException("instanceId", "must not be blank");
            this.instanceId = instanceId;
            return this;
        }

        /** The most model calls a run may make (default 10). */
        public Builder maxSteps(int maxSteps) {
            if (maxSteps < 1) throw new InvalidOptionException("maxSteps", "must be positive, was " + maxSteps);
            this.maxSteps = maxSteps;
            return this;
        }

        public Agent build() {
            if (model == null) throw new InvalidOptionException("model", "agent '" + id + "' needs a model");
            if (store != null) return new Agent(this, store, false);
            return new Agent(this, SnapshotStores.open(SnapshotStores.defaultUrl()), true);
        }

        private static String defaultInstanceId() {
            String host = System.getenv("HOSTNAME");
            return (host == null || host.isBlank() ? "jvm" : host) + "-" + ProcessHandle.current().pid() + "-"
                    + UUID.randomUUID().toString().substring(0, 8);
        }
    }
}
