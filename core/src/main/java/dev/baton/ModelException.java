package dev.baton;

import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The model (the provider behind {@code LanguageModel}) failed: an HTTP error, a timeout, an
 * answer that could not be read. Model adapters throw it (or a subclass, such as the LangChain4j
 * adapter's {@code ModelCallException}) saying whether a retry may help; the run loop wraps what
 * a model throws in one naming the run and the step.
 *
 * <p>A run that was never stored ends with it ({@code FAILED}). A run being resumed is kept,
 * stored as interrupted, and carries this as the cause of its {@link RunInterruptedException}.
 * Either way {@code AgentResult.modelFailure()} returns it.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class ModelException extends TransientException {
    private static final long serialVersionUID = 1L;
    /** The retryable this exception is about (serialized with it). */
    private final boolean retryable;
    /** The runId this exception is about (serialized with it). */
    private final @Nullable String runId;
    /** The step this exception is about (serialized with it). */
    private final int step;

    /**
     * A model failure; whether a retry may help is taken from the cause (see {@link #retryable()}).
     *
     * @param message what failed
     * @param cause   what the provider or adapter threw, or null
     */
    public ModelException(String message, @Nullable Throwable cause) {
        this(message, cause, retryableCause(cause));
    }

    /**
     * A model failure, for adapters that know whether a retry may help.
     *
     * @param message   what failed, with the provider's own message
     * @param cause     what the provider threw, or null
     * @param retryable true if calling the model again may succeed (a timeout, a rate limit, a 5xx)
     */
    public ModelException(String message, @Nullable Throwable cause, boolean retryable) {
        this(message, cause, retryable, null, 0);
    }

    /**
     * A model failure in one step of one run (the run loop's).
     *
     * @param message   what failed
     * @param cause     what the model threw
     * @param retryable true if calling the model again may succeed
     * @param runId     the run, or null
     * @param step      the step (1-based), or 0 if unknown
     */
    public ModelException(String message, @Nullable Throwable cause, boolean retryable, @Nullable String runId, int step) {
        super(message, cause);
        this.retryable = retryable;
        this.runId = runId;
        this.step = step;
    }

    /**
     * Whether calling the model again may succeed: true for timeouts, rate limits, server errors and
     * lost connections; false for a refused request (bad credentials, an unknown model, a request
     * the provider rejects). When the adapter did not say, it is true if the cause chain holds a
     * {@code ModelException} that says so, an {@link IOException} or a {@link TimeoutException}.
     *
     * @return true if a retry ({@code continueRun} for a kept run) may help
     */
    public boolean retryable() {
        return retryable;
    }

    /** {@return the run id, or null when the adapter threw it (it knows no run)} The run whose step failed. */
    public @Nullable String runId() {
        return runId;
    }

    /** {@return the 1-based step, or 0 if unknown} The step that failed. */
    public int step() {
        return step;
    }

    /**
     * Whether a retry may help, judged from a cause: a {@code ModelException}'s own answer, else
     * true for an {@link IOException} or {@link TimeoutException} in the chain.
     *
     * @param cause the cause, or null
     * @return true if a retry may help
     */
    public static boolean retryableCause(@Nullable Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof ModelException m) return m.retryable();
            if (t instanceof IOException || t instanceof TimeoutException) return true;
            if (t.getCause() == t) break;
        }
        return false;
    }
}
