package dev.baton;

import org.jspecify.annotations.Nullable;

/**
 * A run named a memory thread that belongs to another resource: a thread is owned by the resource
 * that created it, and only runs of that resource read or write it. Nothing was stored. A
 * conflict: the thread exists and is someone else's; use another thread id.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class ThreadOwnershipException extends ConflictException {
    private static final long serialVersionUID = 1L;
    /** The threadId this exception is about (serialized with it). */
    private final String threadId;
    /** The ownerResourceId this exception is about (serialized with it). */
    private final @Nullable String ownerResourceId;
    /** The resourceId this exception is about (serialized with it). */
    private final @Nullable String resourceId;

    /**
     * A thread used by a resource that does not own it.
     *
     * @param threadId the thread
     * @param owner    the resource that owns it, or null for a thread without owner
     * @param asked    the resource of the run that named it, or null
     */
    public ThreadOwnershipException(String threadId, @Nullable String owner, @Nullable String asked) {
        super("Thread '" + threadId + "' belongs to resource " + quote(owner) + ", not to " + quote(asked)
                + ": a run may use only a thread of its own resource. Nothing was stored.", null);
        this.threadId = threadId;
        this.ownerResourceId = owner;
        this.resourceId = asked;
    }

    private static String quote(@Nullable String s) {
        return s == null ? "(none)" : "'" + s + "'";
    }

    /** {@return the thread id} The thread. */
    public String threadId() {
        return threadId;
    }

    /** {@return its id, or null for a thread without owner} The resource that owns the thread. */
    public @Nullable String ownerResourceId() {
        return ownerResourceId;
    }

    /** {@return its id, or null} The resource of the run that named the thread. */
    public @Nullable String resourceId() {
        return resourceId;
    }
}
