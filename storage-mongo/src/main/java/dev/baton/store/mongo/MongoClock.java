package dev.baton.store.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.ReadPreference;
import com.mongodb.client.MongoDatabase;
import dev.baton.StorageException;
import java.time.Instant;
import java.util.Date;
import org.bson.Document;

/**
 * The server's clock of one {@link MongoSnapshotStore} ({@code STORE_CLOCK}): {@code localTime} of the
 * {@code hello} command, of {@code isMaster} on a server that does not know {@code hello}; on a sharded
 * cluster the clock of the {@code mongos} the client talks to. Thread-safe.
 */
final class MongoClock {
    private final MongoAccess access;
    private final MongoDatabase admin;
    /** False once the server answered that it does not know {@code hello}: ask {@code isMaster} instead. */
    private volatile boolean helloKnown = true;

    MongoClock(MongoAccess access, MongoDatabase admin) {
        this.access = access;
        this.admin = admin;
    }

    /** The server's time, in milliseconds. */
    Instant now() {
        Document reply = access.run("reading the clock", null, () -> {
            if (helloKnown) {
                try {
                    return admin.runCommand(new Document("hello", 1), ReadPreference.primary());
                } catch (MongoCommandException e) {
                    if (e.getErrorCode() != MongoSnapshotStore.COMMAND_NOT_FOUND) throw e;
                    helloKnown = false;
                }
            }
            return admin.runCommand(new Document("isMaster", 1), ReadPreference.primary());
        });
        Object localTime = reply.get("localTime");
        if (!(localTime instanceof Date date)) {
            throw new StorageException(access.description + ": the server's hello reply has no localTime (" + localTime + ")");
        }
        return date.toInstant();
    }
}
