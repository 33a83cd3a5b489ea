package dev.baton;

/** An option has a value the contract forbids; the message names the option. */
public class InvalidOptionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final String option;

    public InvalidOptionException(String option, String message) {
        super(option + ": " + message);
        this.option = option;
    }

    /** The name of the offending option, e.g. {@code perPage}. */
    public String option() {
        return option;
    }
}
