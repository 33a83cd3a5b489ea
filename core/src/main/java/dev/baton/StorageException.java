package dev.baton;

import org.jspecify.annotations.Nullable;

/**
 * The storage backend failed: connection lost, timeout, rejected statement, or the store was
 * closed. The message names the store (and the run, for calls on one run). Transient: what was
 * stored before stays as it was, and a later retry may succeed.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class StorageException extends TransientException {
    private static final long serialVersionUID = 1L;
    /** The runId this exception is about (serialized with it). */
    private final @Nullable String runId;

    /**
     * A store failure with a cause.
     *
     * @param message what failed, naming the store
     * @param cause   what the driver threw, or null
     */
    public StorageException(String message, @Nullable Throwable cause) {
        this(message, null, cause);
    }

    /**
     * A store failure without a cause (a closed store, a refused value).
     *
     * @param message what failed, naming the store
     */
    public StorageException(String message) {
        this(message, null, null);
    }

    /**
     * A store failure on one run.
     *
     * @param message what failed, naming the store
     * @param runId   the run concerned, or null
     * @param cause   what the driver threw, or null
     */
    public StorageException(String message, @Nullable String runId, @Nullable Throwable cause) {
        super(message, cause);
        this.runId = runId;
    }

    /**
     * The one message shape every store uses for a failed call:
     * {@code "<store>: <operation> of run '<runId>' failed: <cause>"}.
     *
     * @param store     the store's {@code describe()}, naming the database
     * @param operation what was being done, e.g. {@code "compare-and-set"}
     * @param runId     the run concerned, or null
     * @param detail    the driver's message (the root cause's, preferably), or null for the cause's
     * @param cause     what the driver threw
     * @return the exception, to be thrown by the caller
     */
    public static StorageException failed(String store, String operation, @Nullable String runId, @Nullable String detail,
                                          Throwable cause) {
        return new StorageException(store + ": " + operation + (runId == null ? "" : " of run '" + runId + "'")
                + " failed: " + (detail == null ? cause.toString() : detail), runId, cause);
    }

    /** {@return its id, or null for a call on no single run} The run the failed call was about. */
    public @Nullable String runId() {
        return runId;
    }
}
