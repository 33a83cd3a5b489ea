package dev.baton;

/**
 * A stored snapshot cannot be read: corrupt JSON, missing fields, or a format version this
 * Baton does not know. The snapshot is left in the store untouched.
 */
public class SnapshotFormatException extends BatonException {
    private static final long serialVersionUID = 1L;
    private final String runId;

    public SnapshotFormatException(String runId, String detail, Throwable cause) {
        super("Snapshot of run '" + runId + "' is unreadable: " + detail + ". It was left in the store unchanged.", cause);
        this.runId = runId;
    }

    public String runId() {
        return runId;
    }
}
