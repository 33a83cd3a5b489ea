package dev.baton.agent;

import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Sees what the agent's runs do: every event, claims and claim conflicts, lost leases, each tool
 * execution and each model call. For metrics, traces and logs; core depends on no metrics library
 * (the Spring Boot starter turns these into Micrometer meters and observations).
 *
 * <pre>{@code
 * Agent agent = Agent.builder("travel-agent")
 *     ...
 *     .listeners(new RunListener() {
 *         public void toolFinished(RunContext run, ToolExecution tool) {
 *             log.info("{} took {}", tool.toolName(), tool.duration());
 *         }
 *     })
 *     .build();
 * }</pre>
 *
 * <p>Every method has an empty default. Calls come on the thread that drives the run (the one
 * reading its stream), except {@link #leaseLost} which may come from the heartbeat. A listener
 * that throws is logged and ignored: it never breaks a run. Keep listeners fast.
 */
public interface RunListener {

    /** A stream starts: a new run ({@code action = "start"}), or a claimed run being resumed or continued. */
    default void runStarted(RunContext run) {
    }

    /** One event of the run's stream, as it is handed to the consumer. */
    default void event(RunContext run, AgentEvent event) {
    }

    /** The stream ended with {@code outcome}; {@code error} is set for {@code FAILED} and {@code INTERRUPTED}. */
    default void runEnded(RunContext run, RunOutcome outcome, @Nullable Throwable error, Duration duration) {
    }

    /** This instance claimed a stored run ({@code action}: approve, decline, resume, continue, discard). */
    default void claimed(String agentId, String runId, String action) {
    }

    /** A claim lost the race: another caller holds or changed the run ({@code RunNotSuspendedException} follows). */
    default void claimConflict(String agentId, String runId, String action) {
    }

    /** This instance lost its lease on a run it was working on; it stops working on it. */
    default void leaseLost(String agentId, String runId) {
    }

    /** A tool is about to run (on the run's thread; {@link #toolFinished} follows on the same thread). */
    default void toolStarted(RunContext run, String toolCallId, String toolName, int attempt) {
    }

    /** A tool ran. */
    default void toolFinished(RunContext run, ToolExecution tool) {
    }

    /** The model is called for step {@code step}. */
    default void modelCallStarted(RunContext run, int step) {
    }

    /** The model's answer for a step ended (fully read, failed, or cancelled by a closed stream). */
    default void modelCallFinished(RunContext run, ModelCall call) {
    }

    /**
     * The run a stream works on.
     *
     * @param agentId    the agent
     * @param runId      the run
     * @param threadId   its thread, or null
     * @param resourceId its resource, or null
     * @param action     why this stream runs: start, approve, decline, resume, continue
     * @param attributes free for listeners to keep per-stream state in (a span, a start time); thread-safe
     */
    record RunContext(String agentId, String runId, @Nullable String threadId, @Nullable String resourceId,
                      String action, Map<String, Object> attributes) {
    }

    /** How a tool execution ended. */
    enum ToolOutcome {
        /** Returned a result. */
        SUCCESS,
        /** Threw; the model sees the error. */
        ERROR,
        /** Called {@code suspend()}: the run waits for data. */
        SUSPENDED,
        /** Was interrupted: the run stopped and is stored; the tool runs again when it is continued. */
        INTERRUPTED
    }

    /**
     * One tool execution.
     *
     * @param toolCallId the call
     * @param toolName   the tool (for a subagent: {@code agent-<id>})
     * @param attempt    1 for the first start of this call, more after a crash or interruption
     * @param outcome    how it ended
     * @param duration   how long it ran
     * @param error      what it threw, or null
     */
    record ToolExecution(String toolCallId, String toolName, int attempt, ToolOutcome outcome, Duration duration,
                         @Nullable Throwable error) {
    }

    /**
     * One model call.
     *
     * @param step     the step it answered
     * @param ok       true if the answer was read to its end
     * @param duration from the call to the end of its answer (including the time the consumer took between chunks)
     * @param error    what failed, or null (null and not ok: the stream was closed early)
     */
    record ModelCall(int step, boolean ok, Duration duration, @Nullable Throwable error) {
    }
}
