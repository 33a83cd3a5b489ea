package dev.baton;

/**
 * A memory thread with this id exists already, so it was not created again. Nothing was changed.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class ThreadAlreadyExistsException extends ConflictException {
    private static final long serialVersionUID = 1L;
    /** The threadId this exception is about (serialized with it). */
    private final String threadId;

    /**
     * A thread id that is taken.
     *
     * @param threadId the thread that exists
     */
    public ThreadAlreadyExistsException(String threadId) {
        super("A memory thread '" + threadId + "' exists already: use it (Memory.findThread), or create the new"
                + " thread under another id.", null);
        this.threadId = threadId;
    }

    /** {@return the thread id} The thread that exists. */
    public String threadId() {
        return threadId;
    }
}
