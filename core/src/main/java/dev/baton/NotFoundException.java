package dev.baton;

import org.jspecify.annotations.Nullable;

/**
 * Category: what the call names does not exist, or not for the calling agent (a run of another
 * agent answers exactly as a run that does not exist). Retrying the same call does not help;
 * list again to see what exists. Subclasses: {@link RunNotFoundException},
 * {@link ToolCallNotFoundException}, {@link ThreadNotFoundException}.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public abstract class NotFoundException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * For subclasses.
     *
     * @param message what was not found, naming its id and what to do next
     * @param cause   what caused it, or null
     */
    protected NotFoundException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
