package dev.baton;

import org.jspecify.annotations.Nullable;

/**
 * No {@code SnapshotStoreProvider} accepts a URL, or several do, or one failed to load. The
 * message lists the providers found. Not in a category: it is a matter of the class path or the
 * URL, found when the store is opened.
 *
 * <p>Immutable once thrown, as every Baton exception.
 */
public class StoreProviderException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * A provider problem.
     *
     * @param message what is wrong, listing the providers found
     */
    public StoreProviderException(String message) {
        super(message);
    }

    /**
     * A provider problem with a cause.
     *
     * @param message what is wrong, listing the providers found
     * @param cause   what the provider threw, or null
     */
    public StoreProviderException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
