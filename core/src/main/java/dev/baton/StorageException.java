package dev.baton;

import org.jspecify.annotations.Nullable;

/** The storage backend failed: connection lost, timeout, rejected statement. Name the store in the message. */
public class StorageException extends BatonException {
    private static final long serialVersionUID = 1L;

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }

    public StorageException(String message) {
        super(message);
    }

    /**
     * The one message shape every store uses for a failed call:
     * {@code "<store>: <operation> of run '<runId>' failed: <cause>"}.
     *
     * @param store     the store's {@code describe()}, naming the database
     * @param operation what was being done, e.g. {@code "compare-and-set"}
     * @param runId     the run concerned, or null
     * @param detail    the driver's message (the root cause's, preferably)
     */
    public static StorageException failed(String store, String operation, @Nullable String runId, @Nullable String detail,
                                          Throwable cause) {
        return new StorageException(store + ": " + operation + (runId == null ? "" : " of run '" + runId + "'")
                + " failed: " + (detail == null ? cause.toString() : detail), cause);
    }
}
