package dev.baton;

import org.jspecify.annotations.Nullable;

/**
 * Category: the call conflicts with what is stored now: another caller (thread or server) got
 * there first, or the thing it would create exists already or belongs to someone else. Nothing
 * was changed for this call. Re-read (list the runs, read the thread) and decide again; a blind
 * retry of the same call usually fails the same way. Subclasses: {@link RunNotSuspendedException},
 * {@link LeaseLostException}, {@link ThreadAlreadyExistsException}, {@link ThreadOwnershipException}.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public abstract class ConflictException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * For subclasses.
     *
     * @param message what conflicts, naming the ids concerned and what to do next
     * @param cause   what caused it, or null
     */
    protected ConflictException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
