package dev.baton.spring;

import dev.baton.agent.RunListener;
import dev.baton.agent.RunOutcome;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

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
 * {@code interrupted} for tools; {@code ok}, {@code error}, {@code cancelled} for model calls.
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

    /** Observes into {@code registry}. */
    public BatonObservationListener(ObservationRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** The registry observations go to. */
    public ObservationRegistry registry() {
        return registry;
    }

    @Override
    public void runStarted(RunContext run) {
        boolean start = "start".equals(run.action());
        Observation o = Observation.createNotStarted(start ? START : RESUME, registry)
                .contextualName("baton " + run.action() + " " + run.agentId())
                .lowCardinalityKeyValue("agent", run.agentId())
                .lowCardinalityKeyValue("action", run.action())
                .highCardinalityKeyValue(RUN_ID, run.runId());
        if (run.threadId() != null) o.highCardinalityKeyValue("baton.thread.id", run.threadId());
        run.attributes().put(RUN_KEY, o.start());
    }

    @Override
    public void runEnded(RunContext run, RunOutcome outcome, @Nullable Throwable error, Duration duration) {
        if (!(run.attributes().remove(RUN_KEY) instanceof Observation o)) return;
        o.lowCardinalityKeyValue("outcome", outcome.name().toLowerCase(Locale.ROOT));
        if (error != null) o.error(error);
        o.stop();
    }

    @Override
    public void toolStarted(RunContext run, String toolCallId, String toolName, int attempt) {
        Observation o = startChild(run, Observation.createNotStarted(TOOL, registry)
                .contextualName("baton tool " + toolName)
                .lowCardinalityKeyValue("agent", run.agentId())
                .lowCardinalityKeyValue("tool", toolName)
                .highCardinalityKeyValue(RUN_ID, run.runId())
                .highCardinalityKeyValue("baton.tool.call.id", toolCallId)
                .highCardinalityKeyValue("baton.tool.attempt", Integer.toString(attempt)));
        run.attributes().put(TOOL_KEY + toolCallId, new OpenTool(o, o.openScope()));
    }

    @Override
    public void toolFinished(RunContext run, ToolExecution tool) {
        if (!(run.attributes().remove(TOOL_KEY + tool.toolCallId()) instanceof OpenTool open)) return;
        open.scope().close();
        Observation o = open.observation();
        o.lowCardinalityKeyValue("outcome", tool.outcome().name().toLowerCase(Locale.ROOT));
        if (tool.error() != null) o.error(tool.error());
        o.stop();
    }

    @Override
    public void modelCallStarted(RunContext run, int step) {
        Observation o = startChild(run, Observation.createNotStarted(MODEL, registry)
                .contextualName("baton model " + run.agentId())
                .lowCardinalityKeyValue("agent", run.agentId())
                .highCardinalityKeyValue(RUN_ID, run.runId())
                .highCardinalityKeyValue("baton.model.step", Integer.toString(step)));
        Object previous = run.attributes().put(MODEL_KEY + step, o);
        if (previous instanceof Observation stale) stale.stop();
    }

    @Override
    public void modelCallFinished(RunContext run, ModelCall call) {
        if (!(run.attributes().remove(MODEL_KEY + call.step()) instanceof Observation o)) return;
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
