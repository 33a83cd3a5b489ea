package dev.baton.spring;

import dev.baton.agent.RunAction;
import dev.baton.agent.RunListener;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import java.util.Objects;

/**
 * Turns each run's stream, tool execution and model call into an {@link Observation}: with Spring
 * Boot's Actuator each one is a timer, and with Micrometer Tracing a span whose tags carry the run
 * id.
 *
 * <table>
 *   <caption>Observations</caption>
 *   <tr><th>name (timer)</th><th>what</th><th>low-cardinality keys (tags)</th><th>high-cardinality keys (span only)</th></tr>
 *   <tr><td>{@code baton.start}</td><td>a stream that starts a new run</td><td>agent, action, outcome</td><td>baton.run.id, baton.thread.id</td></tr>
 *   <tr><td>{@code baton.resume}</td><td>a stream of approve, decline, resume or continue</td><td>agent, action, outcome</td><td>baton.run.id, baton.thread.id</td></tr>
 *   <tr><td>{@code baton.tool.executions}</td><td>one tool execution, in scope on the run's thread</td><td>agent, tool, outcome</td><td>baton.run.id, baton.tool.call.id, baton.tool.attempt</td></tr>
 *   <tr><td>{@code baton.model.calls}</td><td>one model call, until its answer is read</td><td>agent, outcome</td><td>baton.run.id, baton.model.step</td></tr>
 * </table>
 *
 * <p>A stream's observation has the observation current when the stream started (an HTTP request,
 * say) as its parent; tool and model calls have the stream's observation as theirs. The tool's
 * observation is open in scope while the tool runs, so the tool's own instrumentation (an HTTP
 * client, a JDBC call) joins the trace, and a run that a tool's code starts on another agent
 * becomes a child of that tool's span. The model call's observation is not put in scope: its answer is read step by step,
 * interleaved with the code that reads the stream.
 *
 * <p>Outcomes are lower case: {@code completed}, {@code suspended}, {@code interrupted},
 * {@code failed} for streams; {@code success}, {@code error}, {@code suspended},
 * {@code interrupted} for tools; {@code ok}, {@code error}, {@code cancelled} for model calls. The
 * tag {@code action} is the {@link RunAction}'s wire name: {@code start}, {@code approve},
 * {@code decline}, {@code resume}, {@code continue}, {@code cancel}, {@code discard}, {@code expire}.
 *
 * <p>Thread-safe: it keeps no state of its own (what is open lives in each run's
 * {@code attributes()}, which one run's thread reads); nothing to close.
 */
public final class BatonObservationListener implements RunListener {

    /** The observation of a stream that starts a new run. */
    public static final String START = "baton.start";
    /** The observation of an approve, decline, resume or continue stream. */
    public static final String RESUME = "baton.resume";
    /** The observation of one tool execution. */
    public static final String TOOL = "baton.tool.executions";
    /** The observation of one model call. */
    public static final String MODEL = "baton.model.calls";
    /** The high-cardinality key holding the run id. */
    public static final String RUN_ID = "baton.run.id";

    private static final String RUN_KEY = BatonObservationListener.class.getName() + ".run";
    private static final String TOOL_KEY = BatonObservationListener.class.getName() + ".tool:";
    private static final String MODEL_KEY = BatonObservationListener.class.getName() + ".model:";

    private record OpenTool(Observation observation, Observation.Scope scope) {
    }

    private final ObservationRegistry registry;

    /**
     * Observes into {@code registry}.
     *
     * @param registry the observation registry (Spring Boot's)
     */
    public BatonObservationListener(ObservationRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** {@return the registry observations go to} */
    public ObservationRegistry registry() {
        return registry;
    }

    /**
     * Opens the stream's observation: {@value #START} for {@link RunAction#START}, else
     * {@value #RESUME}; the tag {@code action} is the action's wire name.
     *
     * @param run the run and the action that began the stream
     */
    @Override
    public void runStarted(RunContext run) {
        boolean start = run.action() == RunAction.START;
        String action = run.action().wireName();
        Observation o = Observation.createNotStarted(start ? START : RESUME, registry)
                .contextualName("baton " + action + " " + run.agentId())
                .lowCardinalityKeyValue("agent", run.agentId())
                .lowCardinalityKeyValue("action", action)
                .highCardinalityKeyValue(RUN_ID, run.runId());
        if (run.threadId() != null) o.highCardinalityKeyValue("baton.thread.id", run.threadId());
        run.attributes().put(RUN_KEY, o.start());
    }

    /**
     * Stops the stream's observation with its outcome (and error).
     *
     * @param end the run, how the stream ended, its error
     */
    @Override
    public void runEnded(RunEnd end) {
        if (!(end.run().attributes().remove(RUN_KEY) instanceof Observation o)) return;
        o.lowCardinalityKeyValue("outcome", end.outcome().name().toLowerCase(Locale.ROOT));
        if (end.error() != null) o.error(end.error());
        o.stop();
    }

    /**
     * Opens a tool execution's observation, in scope on the run's thread until the tool finishes.
     *
     * @param tool the run, the call, the tool and the attempt
     */
    @Override
    public void toolStarted(ToolStart tool) {
        RunContext run = tool.run();
        String toolCallId = tool.toolCallId();
        String toolName = tool.toolName();
        int attempt = tool.attempt();
        Observation o = startChild(run, Observation.createNotStarted(TOOL, registry)
                .contextualName("baton tool " + toolName)
                .lowCardinalityKeyValue("agent", run.agentId())
                .lowCardinalityKeyValue("tool", toolName)
                .highCardinalityKeyValue(RUN_ID, run.runId())
                .highCardinalityKeyValue("baton.tool.call.id", toolCallId)
                .highCardinalityKeyValue("baton.tool.attempt", Integer.toString(attempt)));
        run.attributes().put(TOOL_KEY + toolCallId, new OpenTool(o, o.openScope()));
    }

    /**
     * Closes a tool execution's scope and stops its observation with the tool's outcome (and error).
     *
     * @param tool the execution's result
     */
    @Override
    public void toolFinished(ToolExecution tool) {
        if (!(tool.run().attributes().remove(TOOL_KEY + tool.toolCallId()) instanceof OpenTool open)) return;
        open.scope().close();
        Observation o = open.observation();
        o.lowCardinalityKeyValue("outcome", tool.outcome().name().toLowerCase(Locale.ROOT));
        if (tool.error() != null) o.error(tool.error());
        o.stop();
    }

    /**
     * Opens a model call's observation (not in scope: its answer is read step by step).
     *
     * @param call the run and the step
     */
    @Override
    public void modelCallStarted(ModelCallStart call) {
        RunContext run = call.run();
        int step = call.step();
        Observation o = startChild(run, Observation.createNotStarted(MODEL, registry)
                .contextualName("baton model " + run.agentId())
                .lowCardinalityKeyValue("agent", run.agentId())
                .highCardinalityKeyValue(RUN_ID, run.runId())
                .highCardinalityKeyValue("baton.model.step", Integer.toString(step)));
        Object previous = run.attributes().put(MODEL_KEY + step, o);
        if (previous instanceof Observation stale) stale.stop();
    }

    /**
     * Stops a model call's observation with its outcome: {@code ok}, {@code error} or {@code cancelled}.
     *
     * @param call how the call ended
     */
    @Override
    public void modelCallFinished(ModelCall call) {
        if (!(call.run().attributes().remove(MODEL_KEY + call.step()) instanceof Observation o)) return;
        o.lowCardinalityKeyValue("outcome", call.ok() ? "ok" : call.error() != null ? "error" : "cancelled");
        if (call.error() != null) o.error(call.error());
        o.stop();
    }

    /**
     * Starts {@code child} under the stream's observation. The stream's observation is put in scope
     * while the child starts: a tracer takes the span in scope as the parent (an HTTP request's, say,
     * which is current on this thread), so the stream's span has to be the one in scope then.
     */
    private static Observation startChild(RunContext run, Observation child) {
        if (!(run.attributes().get(RUN_KEY) instanceof Observation parent)) return child.start();
        child.parentObservation(parent);
        try (Observation.Scope ignored = parent.openScope()) {
            return child.start();
        }
    }
}
