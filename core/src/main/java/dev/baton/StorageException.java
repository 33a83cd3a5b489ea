package dev.baton;

/** The storage backend failed: connection lost, timeout, rejected statement. Name the store in the message. */
public class StorageException extends BatonException {
    private static final long serialVersionUID = 1L;

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }

    public StorageException(String message) {
        super(message);
    }
}
