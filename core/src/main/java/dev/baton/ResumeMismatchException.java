package dev.baton;

import org.jspecify.annotations.Nullable;

/**
 * The run was resumed the wrong way: approving or declining a call that waits for resume data,
 * passing resume data to a call that waits for an approval, continuing a run whose calls wait for
 * a human, or acting on a subagent's inner run instead of its supervisor's. Nothing is changed;
 * the message says which operation to use instead.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class ResumeMismatchException extends InvalidRequestException {
    private static final long serialVersionUID = 1L;
    /** The runId this exception is about (serialized with it). */
    private final String runId;
    /** The toolCallId this exception is about (serialized with it). */
    private final @Nullable String toolCallId;

    /**
     * A run resumed the wrong way.
     *
     * @param runId      the run
     * @param toolCallId the call concerned, or null when the mismatch is about the whole run
     * @param message    what is wrong and what to do instead
     */
    public ResumeMismatchException(String runId, @Nullable String toolCallId, String message) {
        super(message, null);
        this.runId = runId;
        this.toolCallId = toolCallId;
    }

    /** {@return the run id} The run. */
    public String runId() {
        return runId;
    }

    /** {@return its id, or null when the mismatch is about the whole run} The call concerned. */
    public @Nullable String toolCallId() {
        return toolCallId;
    }
}
