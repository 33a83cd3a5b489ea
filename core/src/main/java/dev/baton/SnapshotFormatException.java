package dev.baton;

import org.jspecify.annotations.Nullable;

/**
 * A stored snapshot cannot be read: corrupt JSON, missing fields, or a format version this
 * Baton does not know. The snapshot is left in the store untouched; {@code agent.discardRun(runId)}
 * removes it. Not in a category: neither a retry nor another call makes it readable.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class SnapshotFormatException extends BatonException {
    private static final long serialVersionUID = 1L;
    /** The runId this exception is about (serialized with it). */
    private final String runId;

    /**
     * An unreadable snapshot.
     *
     * @param runId  the run whose snapshot (or memory message) cannot be read
     * @param detail what is wrong with it
     * @param cause  the parser's exception, or null
     */
    public SnapshotFormatException(String runId, String detail, @Nullable Throwable cause) {
        super("Snapshot of run '" + runId + "' is unreadable: " + detail + ". It was left in the store unchanged.", cause);
        this.runId = runId;
    }

    /** {@return the run id} The run. */
    public String runId() {
        return runId;
    }
}
