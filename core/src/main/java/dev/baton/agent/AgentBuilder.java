package dev.baton.agent;

import dev.baton.InvalidOptionException;
import dev.baton.model.LanguageModel;
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
 * Builder of {@link Agent}, made by {@link Agent#builder(String)}. Not thread-safe; the agent it
 * builds is.
 */
public final class AgentBuilder {
    final String id;
    String instructions = "";
    @Nullable LanguageModel model;
    final Map<String, Tool> tools = new LinkedHashMap<>();
    @Nullable SnapshotStore store;
    Clock clock = Clock.systemUTC();
    boolean useStoreClock;
    Duration leaseDuration = Duration.ofSeconds(60);
    Duration pickupTimeout = Duration.ofSeconds(5);
    String instanceId = defaultInstanceId();
    int maxSteps = 10;
    final List<RunListener> listeners = new ArrayList<>();
    NotificationPolicy notifications = NotificationPolicy.none();
    @Nullable Duration waitTimeout;
    ExpiryPolicy expiryPolicy = ExpiryPolicy.keep();
    dev.baton.memory.@Nullable Memory memory;
    @Nullable Duration decisionRetention;
    Duration shutdownGrace = Duration.ofSeconds(10);
    boolean closeOnShutdown;
    final List<ApproverRule> approverRules = new ArrayList<>();

    AgentBuilder(String id) {
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
    public AgentBuilder instructions(String instructions) {
        this.instructions = Objects.requireNonNull(instructions, "instructions");
        return this;
    }

    /**
     * The model (required).
     *
     * @param model the model
     * @return this builder
     */
    public AgentBuilder model(LanguageModel model) {
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
    public AgentBuilder tools(Tool... tools) {
        return tools(List.of(tools));
    }

    /**
     * Adds tools; names must be unique.
     *
     * @param tools the tools
     * @return this builder
     * @throws InvalidOptionException if two tools have one name
     */
    public AgentBuilder tools(Collection<Tool> tools) {
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
    public AgentBuilder subagents(Agent... agents) {
        for (Agent a : agents) tools(a.asTool());
        return this;
    }

    /**
     * Where runs are stored. Default: {@code -Dbaton.store.url}, else {@code BATON_STORE_URL}, else {@code memory:}.
     *
     * @param store the store; the caller keeps it and closes it
     * @return this builder
     */
    public AgentBuilder store(SnapshotStore store) {
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
    public AgentBuilder clock(Clock clock) {
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
    public AgentBuilder useStoreClock() {
        this.useStoreClock = true;
        return this;
    }

    /**
     * How long a claim lasts without a heartbeat (default 60 s); the heartbeat extends it every third of that.
     *
     * @param lease a positive duration
     * @return this builder
     */
    public AgentBuilder leaseDuration(Duration lease) {
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
    public AgentBuilder pickupTimeout(Duration pickup) {
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
    public AgentBuilder instanceId(String instanceId) {
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
    public AgentBuilder maxSteps(int maxSteps) {
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
    public AgentBuilder waitTimeout(Duration timeout) {
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
    public AgentBuilder onExpiry(ExpiryPolicy policy) {
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
    public AgentBuilder notifications(NotificationPolicy policy) {
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
    public AgentBuilder memory(dev.baton.memory.Memory memory) {
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
    public AgentBuilder decisionRetention(Duration retention) {
        if (retention.isNegative() || retention.isZero()) throw new InvalidOptionException("decisionRetention", "must be positive");
        this.decisionRetention = retention;
        return this;
    }

    /**
     * Adds approver rules: who may approve, edit, decline or answer the calls of a tool (optionally
     * only those whose arguments match), how many distinct people must approve, and whether the
     * person who started the run may approve it. For each decision on a call, the first rule (in
     * the order added) that matches its tool and arguments applies; a call no rule matches is
     * decided as without rules. A decision a rule refuses throws {@link dev.baton.NotAnApproverException}
     * and changes and records nothing. See {@link ApproverRule}.
     *
     * @param rules the rules, in order
     * @return this builder
     */
    public AgentBuilder approverRules(ApproverRule... rules) {
        for (ApproverRule r : rules) this.approverRules.add(Objects.requireNonNull(r, "approver rule"));
        return this;
    }

    /**
     * Adds listeners that see every run's events, claims, lease losses, tool executions and model calls.
     *
     * @param listeners the listeners (thread-safe, see {@link RunListener})
     * @return this builder
     */
    public AgentBuilder listeners(RunListener... listeners) {
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
    public AgentBuilder shutdownGrace(Duration grace) {
        Objects.requireNonNull(grace, "shutdownGrace");
        if (grace.isNegative()) throw new InvalidOptionException("shutdownGrace", "must not be negative, was " + grace);
        this.shutdownGrace = grace;
        return this;
    }

    /**
     * Registers a JVM shutdown hook that calls {@link Agent#close()}, so a plain Java application
     * leaves gracefully (rule R12) on {@code SIGTERM}, Ctrl-C or {@code System.exit}: the steps under
     * way finish within {@link #shutdownGrace(Duration)} and every claimed run is handed back at once
     * for another instance. Without it (the default), only an application that calls
     * {@code agent.close()} itself gets the graceful hand-back; a container (the Spring starter, a
     * server of your own) that closes the agent needs no hook. {@code kill -9} runs no hook: the lease
     * lapses instead (rule R1). Closing the agent removes the hook. The hook runs on its own thread,
     * concurrently with the application's other hooks, and blocks the JVM's exit for at most the grace
     * period (plus the hand-back writes): keep a platform's termination grace period (Kubernetes'
     * {@code terminationGracePeriodSeconds}) longer than it.
     *
     * @return this builder
     */
    public AgentBuilder closeOnShutdown() {
        this.closeOnShutdown = true;
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
