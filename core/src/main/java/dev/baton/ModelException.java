package dev.baton;

/**
 * The model (the provider behind {@code LanguageModel}) failed: an HTTP error, a timeout, an
 * answer that could not be read. The message names the step and the run and carries the
 * provider's own message; the cause is what the model adapter threw.
 *
 * <p>A run that was never stored ends with it ({@code FAILED}). A run being resumed is kept,
 * stored as interrupted, and carries this as the cause of its {@link RunInterruptedException}.
 */
public class ModelException extends BatonException {
    private static final long serialVersionUID = 1L;

    public ModelException(String message, Throwable cause) {
        super(message, cause);
    }
}
