package dev.baton;

import java.util.List;

/**
 * The run exists and is suspended, but has no waiting tool call with this id. Nothing was changed.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class ToolCallNotFoundException extends NotFoundException {
    private static final long serialVersionUID = 1L;
    /** The runId this exception is about (serialized with it). */
    private final String runId;
    /** The toolCallId this exception is about (serialized with it). */
    private final String toolCallId;
    /** The waiting this exception is about (serialized with it). */
    private final List<String> waiting;

    /**
     * A tool call id the run does not wait on.
     *
     * @param runId      the run
     * @param toolCallId the call id that was named
     * @param waiting    the ids of the calls the run does wait on
     */
    public ToolCallNotFoundException(String runId, String toolCallId, List<String> waiting) {
        super("Run '" + runId + "' has no waiting tool call '" + toolCallId + "'; waiting calls: " + waiting, null);
        this.runId = runId;
        this.toolCallId = toolCallId;
        this.waiting = List.copyOf(waiting);
    }

    /** {@return the run id} The run. */
    public String runId() {
        return runId;
    }

    /** {@return the tool call id} The call id that was named and not found. */
    public String toolCallId() {
        return toolCallId;
    }

    /** {@return an unmodifiable list} The ids of the calls the run waits on. */
    public List<String> waitingToolCallIds() {
        return waiting;
    }
}
