package dev.baton.store.mongo;

import com.mongodb.MongoException;
import dev.baton.StorageException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What the parts of one {@link MongoSnapshotStore} share: the name it gives itself in messages and
 * whether it is closed. Every call of the store, its {@link MongoRunListing} and its
 * {@link MongoMemoryStore} goes through {@link #run}: a closed store refuses it, and a driver
 * failure becomes a {@link StorageException} naming the store, the operation and the run.
 */
final class MongoAccess {
    final String description;
    private volatile boolean closed;

    MongoAccess(String description) {
        this.description = description;
    }

    /** Marks the store closed; every later call fails. Returns false if it already was. */
    boolean close() {
        if (closed) return false;
        closed = true;
        return true;
    }

    /** Fails with a {@link StorageException} if the store is closed. */
    void checkOpen(String operation) {
        if (closed) throw new StorageException(description + " is closed; " + operation + " was not done");
    }

    /**
     * Runs {@code action} if the store is open, driver failures wrapped.
     *
     * @param operation what is being done, for the message of a failure ("insert", "list", ...)
     * @param runId     the run the call is about, or null
     */
    <T> T run(String operation, @Nullable String runId, Supplier<T> action) {
        checkOpen(operation);
        try {
            return action.get();
        } catch (MongoException e) {
            throw failure(operation, runId, e);
        }
    }

    /** A driver failure as the {@link StorageException} the store throws. */
    StorageException failure(String operation, @Nullable String runId, MongoException e) {
        return StorageException.failed(description, operation, runId, e.getMessage(), e);
    }
}
