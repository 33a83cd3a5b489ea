package dev.baton.agent;

/**
 * Why a step or a run finished: the reason of {@link AgentEvent.StepFinish} and
 * {@link AgentEvent.Finish}. {@link #wireName()} is the reference's name, which the HTTP API and
 * any JSON form of an event carry.
 *
 * <table>
 *   <caption>Where each reason occurs</caption>
 *   <tr><th>reason</th><th>{@code step-finish}</th><th>{@code finish}</th></tr>
 *   <tr><td>{@link #STOP}</td><td>the model answered without tool calls</td><td>the run completed</td></tr>
 *   <tr><td>{@link #TOOL_CALLS}</td><td>the step's tool calls all have results</td><td>never</td></tr>
 *   <tr><td>{@link #MAX_STEPS}</td><td>never</td><td>the run reached its step limit</td></tr>
 *   <tr><td>{@link #ERROR}</td><td>the run failed in this step</td><td>the run failed (not stored)</td></tr>
 *   <tr><td>{@link #INTERRUPTED}</td><td>the run stopped in this step and was kept</td><td>the same</td></tr>
 *   <tr><td>{@link #CANCELLED}</td><td>never</td><td>the run was cancelled</td></tr>
 * </table>
 *
 * <p>Growth: a reason added in a later minor release adds a constant; a {@code switch} needs a {@code default}.
 *
 * <p>Immutable and thread-safe.
 */
public enum FinishReason {
    /** The model answered without asking for a tool. */
    STOP("stop"),
    /** The step ended with tool calls, whose results go to the model in the next step. */
    TOOL_CALLS("tool-calls"),
    /** The run reached its step limit ({@code maxSteps}). */
    MAX_STEPS("max-steps"),
    /** The run failed and was not stored (or could not be written); see the {@code error} event. */
    ERROR("error"),
    /** The run stopped part-way and is stored as interrupted; {@code continueRun} goes on. */
    INTERRUPTED("interrupted"),
    /** The run was cancelled. */
    CANCELLED("cancelled");

    private final String wireName;

    FinishReason(String wireName) {
        this.wireName = wireName;
    }

    /** {@return the reference's name, e.g. {@code "tool-calls"}} */
    public String wireName() {
        return wireName;
    }

    /**
     * The reason with this wire name.
     *
     * @param wireName e.g. {@code "max-steps"}
     * @return the reason
     * @throws IllegalArgumentException for an unknown name
     */
    public static FinishReason fromWireName(String wireName) {
        for (FinishReason r : values()) if (r.wireName.equals(wireName)) return r;
        throw new IllegalArgumentException("no finish reason '" + wireName + "'");
    }
}
