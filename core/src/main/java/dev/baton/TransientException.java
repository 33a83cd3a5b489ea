package dev.baton;

import org.jspecify.annotations.Nullable;

/**
 * Category: something outside Baton failed (the store, the model provider) and a later retry may
 * succeed. What was stored before the failure stays as it was. Subclasses: {@link StorageException},
 * {@link ModelException} (which says with {@link ModelException#retryable()} whether the provider
 * itself thinks a retry may help).
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public abstract class TransientException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * For subclasses.
     *
     * @param message what failed, naming the store or model and the run concerned
     * @param cause   what the driver or provider threw, or null
     */
    protected TransientException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
