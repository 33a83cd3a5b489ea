package dev.baton.spring;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The application cannot start as configured, for a reason Baton's auto-configuration can name: a
 * store was meant (the application has a {@code DataSource}, {@code MongoClient} or
 * {@code RedisClient} and the matching store module) but could not be built on it, or the starter
 * for the running Spring Boot line is missing. Spring Boot prints its {@link #getMessage() message}
 * and {@link #action()} through {@link BatonStartupFailureAnalyzer} instead of a stack trace.
 *
 * <p>Immutable.
 */
public class BatonStartupException extends IllegalStateException {
    /** The serialization version. */
    private static final long serialVersionUID = 1L;

    /** What to change so that the application starts. */
    private final String action;

    /**
     * A failure with what to do about it.
     *
     * @param description what went wrong, and why
     * @param action      what to change so that the application starts
     * @param cause       the underlying failure, if any
     */
    public BatonStartupException(String description, String action, @Nullable Throwable cause) {
        super(Objects.requireNonNull(description, "description"), cause);
        this.action = Objects.requireNonNull(action, "action");
    }

    /** {@return what to change so that the application starts} */
    public String action() {
        return action;
    }
}
