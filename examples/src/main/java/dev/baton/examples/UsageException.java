package dev.baton.examples;

/**
 * The command line is wrong: the program prints the message and a hint to {@code --help} (or the
 * usage, for {@link #withUsage}), and exits with 2.
 */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean showsUsage;

    UsageException(String message) {
        this(message, false);
    }

    private UsageException(String message, boolean showsUsage) {
        super(message);
        this.showsUsage = showsUsage;
    }

    /** A mistake whose answer is the usage itself (no command given): the usage follows the message. */
    static UsageException withUsage(String message) {
        return new UsageException(message, true);
    }

    boolean showsUsage() {
        return showsUsage;
    }
}
