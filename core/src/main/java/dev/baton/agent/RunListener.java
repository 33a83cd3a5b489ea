package dev.baton.agent;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
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
 *         public void toolFinished(RunListener.ToolExecution tool) {
 *             log.info("{} of run {} took {}", tool.toolName(), tool.run().runId(), tool.duration());
 *         }
 *     })
 *     .build();
 * }</pre>
 *
 * <p>Every method takes one parameter object, which carries the run it is about (a
 * {@link RunContext}, or the agent and run ids for claims), so a later release adds information
 * as new components without changing a signature. Every method has an empty default.
 *
 * <p>Actions ({@link RunAction}): {@code start} (a new run), {@code approve}, {@code decline},
 * {@code resume}, {@code continue}, {@code cancel}, {@code discard} (a claim only, no stream) and
 * {@code expire} (a decline by the expiry policy). Finish reasons ({@link FinishReason}, in
 * {@link #event} for {@code step-finish} and {@code finish}): {@code stop}, {@code tool-calls},
 * {@code max-steps}, {@code error}, {@code interrupted}, {@code cancelled}.
 *
 * <p>Threads: calls come on the thread that drives the run (the one reading its stream), except
 * {@link #leaseLost} which may come from the lease heartbeat. A listener may be called from many
 * runs at once, so it must be thread-safe. A listener that throws is logged and ignored: it never
 * breaks a run. Keep listeners fast. What a listener receives shares no mutable state with the run:
 * events copy their JSON (see {@link AgentEvent}).
 */
public interface RunListener {

    /**
     * A stream starts: a new run ({@link RunAction#START}), or a claimed run being resumed, continued or cancelled.
     *
     * @param run the run and why it runs
     */
    default void runStarted(RunContext run) {
    }

    /**
     * One event of the run's stream, as it is handed to the consumer.
     *
     * @param event the run and the event
     */
    default void event(RunEvent event) {
    }

    /**
     * The stream ended.
     *
     * @param end the run, its outcome, its error ({@code FAILED} and {@code INTERRUPTED}) and its duration
     */
    default void runEnded(RunEnd end) {
    }

    /**
     * This instance claimed a stored run (approve, decline, resume, continue, cancel, discard, expire).
     *
     * @param claim the agent, the run and the action
     */
    default void claimed(Claim claim) {
    }

    /**
     * A claim lost the race: another caller holds or changed the run ({@code RunNotSuspendedException} follows).
     *
     * @param claim the agent, the run and the action that lost
     */
    default void claimConflict(Claim claim) {
    }

    /**
     * This instance lost its lease on a run it was working on; it stops working on it.
     *
     * @param loss the agent and the run
     */
    default void leaseLost(LeaseLoss loss) {
    }

    /**
     * A tool is about to run (on the run's thread; {@link #toolFinished} follows on the same thread).
     *
     * @param tool the run, the call and its attempt
     */
    default void toolStarted(ToolStart tool) {
    }

    /**
     * A tool ran.
     *
     * @param tool the run, the call, how it ended and how long it took
     */
    default void toolFinished(ToolExecution tool) {
    }

    /**
     * The model is called for a step.
     *
     * @param call the run and the step
     */
    default void modelCallStarted(ModelCallStart call) {
    }

    /**
     * The model's answer for a step ended (fully read, failed, or cancelled by a closed stream).
     *
     * @param call the run, the step, how it ended and how long it took
     */
    default void modelCallFinished(ModelCall call) {
    }

    /**
     * The run a stream works on. Immutable but for {@code attributes}, which is a thread-safe map
     * shared by every listener of the stream.
     *
     * @param agentId    the agent
     * @param runId      the run
     * @param threadId   its thread, or null
     * @param resourceId its resource, or null
     * @param action     why this stream runs
     * @param attributes free for listeners to keep per-stream state in (a span, a start time); thread-safe
     */
    record RunContext(String agentId, String runId, @Nullable String threadId, @Nullable String resourceId,
                      RunAction action, Map<String, Object> attributes) {
        /**
         * Checks the ids and the action.
         *
         * @param agentId the agent
         * @param runId the run
         * @param threadId its thread, or null
         * @param resourceId its resource, or null
         * @param action why this stream runs
         * @param attributes free for listeners to keep per-stream state in (a span, a start time); thread-safe
         */
        public RunContext {
            Objects.requireNonNull(agentId, "agentId");
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(attributes, "attributes");
        }
    }

    /**
     * One event of a stream.
     *
     * @param run   the run
     * @param event the event (its JSON is copied out on every access)
     */
    record RunEvent(RunContext run, AgentEvent event) {
    }

    /**
     * How a stream ended.
     *
     * @param run      the run
     * @param outcome  how it ended
     * @param error    for {@code FAILED} and {@code INTERRUPTED}: what stopped it; else null
     * @param duration how long the stream ran
     */
    record RunEnd(RunContext run, RunOutcome outcome, @Nullable Throwable error, Duration duration) {
    }

    /**
     * A claim on a stored run, won or lost.
     *
     * @param agentId the claiming agent
     * @param runId   the run
     * @param action  what the claim was for
     */
    record Claim(String agentId, String runId, RunAction action) {
    }

    /**
     * A lease this instance held and lost.
     *
     * @param agentId the agent
     * @param runId   the run
     */
    record LeaseLoss(String agentId, String runId) {
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
     * A tool about to run.
     *
     * @param run        the run
     * @param toolCallId the call
     * @param toolName   the tool (for a subagent: {@code agent-<id>})
     * @param attempt    1 for the first start of this call, more after a crash or interruption
     */
    record ToolStart(RunContext run, String toolCallId, String toolName, int attempt) {
    }

    /**
     * One tool execution.
     *
     * @param run        the run
     * @param toolCallId the call
     * @param toolName   the tool (for a subagent: {@code agent-<id>})
     * @param attempt    1 for the first start of this call, more after a crash or interruption
     * @param outcome    how it ended
     * @param duration   how long it ran
     * @param error      what it threw, or null
     */
    record ToolExecution(RunContext run, String toolCallId, String toolName, int attempt, ToolOutcome outcome,
                         Duration duration, @Nullable Throwable error) {
    }

    /**
     * A model call about to be made.
     *
     * @param run  the run
     * @param step the step it answers
     */
    record ModelCallStart(RunContext run, int step) {
    }

    /**
     * One model call.
     *
     * @param run      the run
     * @param step     the step it answered
     * @param ok       true if the answer was read to its end
     * @param duration from the call to the end of its answer (including the time the consumer took between chunks)
     * @param error    what failed, or null (null and not ok: the stream was closed early)
     */
    record ModelCall(RunContext run, int step, boolean ok, Duration duration, @Nullable Throwable error) {
    }
}
