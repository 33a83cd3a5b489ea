package dev.baton;

/**
 * An option has a value the contract forbids; the message names the option. Thrown when options
 * are built or used (listing options, agent and store settings), before anything runs.
 *
 * <p>The one Baton exception outside {@link BatonException}'s tree: SPEC section 4 rule 6 promises
 * an {@link IllegalArgumentException} (or a subclass) for bad listing options, and Java has single
 * inheritance, so it extends {@code IllegalArgumentException}. Catch it as that, or by this name.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class InvalidOptionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    /** The option this exception is about (serialized with it). */
    private final String option;

    /**
     * A bad option value.
     *
     * @param option  the option's name, e.g. {@code perPage}
     * @param message what is wrong with its value
     */
    public InvalidOptionException(String option, String message) {
        super(option + ": " + message);
        this.option = option;
    }

    /** {@return the option name, e.g. {@code perPage}} The name of the offending option. */
    public String option() {
        return option;
    }
}
