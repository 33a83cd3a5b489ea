package dev.baton;

/**
 * No memory thread with this id exists. Nothing was changed.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class ThreadNotFoundException extends NotFoundException {
    private static final long serialVersionUID = 1L;
    /** The threadId this exception is about (serialized with it). */
    private final String threadId;

    /**
     * A thread id that does not exist.
     *
     * @param threadId the thread that was named
     */
    public ThreadNotFoundException(String threadId) {
        super("No memory thread '" + threadId + "': it was never created or was deleted."
                + " Memory.listThreads(resourceId, ...) lists the threads of a resource.", null);
        this.threadId = threadId;
    }

    /** {@return the thread id} The thread that was named. */
    public String threadId() {
        return threadId;
    }
}
