package dev.baton;

/** No {@code SnapshotStoreProvider} accepts a URL, or several do, or one failed to load. */
public class StoreProviderException extends BatonException {
    private static final long serialVersionUID = 1L;

    public StoreProviderException(String message) {
        super(message);
    }

    public StoreProviderException(String message, Throwable cause) {
        super(message, cause);
    }
}
