package dev.baton;

/**
 * The root of every exception Baton throws on purpose.
 *
 * <p>Subclasses say precisely what went wrong: {@link RunNotFoundException},
 * {@link ToolCallNotFoundException}, {@link RunNotSuspendedException},
 * {@link ResumeMismatchException}, {@link UnknownToolException},
 * {@link SnapshotFormatException}, {@link StorageException},
 * {@link StoreProviderException} and {@link LeaseLostException}. Invalid options
 * are reported with {@link InvalidOptionException}, an {@link IllegalArgumentException}.
 */
public class BatonException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BatonException(String message) {
        super(message);
    }

    public BatonException(String message, Throwable cause) {
        super(message, cause);
    }
}
