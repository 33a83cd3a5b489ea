package dev.baton;

import org.jspecify.annotations.Nullable;

/**
 * Category: the call itself is wrong for the run it names, and the same call will always fail:
 * approving a call that waits for data, resuming a run with a tool this agent does not have,
 * tool input that does not match the tool's input type. Nothing was changed. Subclasses:
 * {@link ResumeMismatchException}, {@link UnknownToolException},
 * {@code dev.baton.tool.InvalidToolInputException}. (Bad option values are
 * {@link InvalidOptionException}, an {@link IllegalArgumentException}; see {@link BatonException}.)
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public abstract class InvalidRequestException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * For subclasses.
     *
     * @param message what is wrong, naming the ids concerned and what to do instead
     * @param cause   what caused it, or null
     */
    protected InvalidRequestException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
