package dev.baton.store.mongo;

import com.mongodb.WriteConcern;
import dev.baton.InvalidOptionException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The least a {@link MongoSnapshotStore} asks of every write (insert, compare-and-set, lease
 * renewal, delete), whatever the client's own write concern. A client (or connection string) that
 * already asks for at least as much keeps its own; its {@code journal} and {@code wtimeout}
 * settings are kept either way.
 *
 * <p>Chosen with the URL property {@code writeConcern=majority|acknowledged|w1} or
 * {@link MongoSnapshotStore.Builder#writeConcern(WriteConcernLevel)}; the default is
 * {@link #MAJORITY}. Immutable and thread-safe.
 */
public enum WriteConcernLevel {
    /**
     * Acknowledged by a majority of the replica set's voting members (the default). A claim or a
     * lease renewal acknowledged this way survives the failover of the primary; one acknowledged
     * by the primary alone may be rolled back, and the run claimed a second time. Kept: a client
     * write concern of {@code w: "majority"}, a custom tag set, or a number of at least 2 (an
     * explicit choice of replication this store cannot weigh against a majority without knowing
     * the replica set). Raised to majority: none set, {@code w: 0} and {@code w: 1}.
     */
    MAJORITY,
    /**
     * The client's own write concern, raised to acknowledged if it is unacknowledged
     * ({@code w: 0}); without one, the server's default (majority on replica sets of MongoDB 5.0
     * and newer, the primary alone on older ones and on a standalone server).
     */
    ACKNOWLEDGED,
    /**
     * Acknowledged by the primary alone ({@code w: 1}): faster, but a claim may be lost in a
     * failover. Kept: any client write concern that names a {@code w} of at least 1 or a tag.
     */
    W1;

    /**
     * The level named {@code text}: {@code majority}, {@code acknowledged} or {@code w1}, in any case.
     *
     * @param text the level's name, as in the {@code writeConcern} property
     * @return the level
     * @throws InvalidOptionException for anything else
     */
    public static WriteConcernLevel parse(String text) {
        return switch (text == null ? "" : text.trim().toLowerCase(Locale.ROOT)) {
            case "majority" -> MAJORITY;
            case "acknowledged" -> ACKNOWLEDGED;
            case "w1" -> W1;
            default -> throw new InvalidOptionException(MongoSnapshotStoreProvider.WRITE_CONCERN,
                    "expected majority, acknowledged or w1, was '" + text + "'");
        };
    }

    /**
     * The write concern the store uses on a client whose own is {@code client}.
     *
     * @param client the client's (or connection string's) write concern
     * @return the write concern every write of the store then asks for: the client's own where it asks
     *         for at least this level (see each constant), else this level
     */
    public WriteConcern applyTo(WriteConcern client) {
        Object w = client.getWObject();
        return switch (this) {
            case MAJORITY -> w instanceof String || (w instanceof Integer n && n >= 2) ? client
                    : keepOptions(WriteConcern.MAJORITY, client);
            case ACKNOWLEDGED -> client.isAcknowledged() ? client : WriteConcern.ACKNOWLEDGED;
            case W1 -> w instanceof String || (w instanceof Integer n && n >= 1) ? client
                    : keepOptions(WriteConcern.W1, client);
        };
    }

    /** {@code level} with the client's journal and wtimeout, unless the client asked for no acknowledgement at all. */
    private static WriteConcern keepOptions(WriteConcern level, WriteConcern client) {
        if (!client.isAcknowledged()) return level;
        WriteConcern c = level;
        @Nullable Boolean journal = client.getJournal();
        if (journal != null) c = c.withJournal(journal);
        @Nullable Integer wtimeout = client.getWTimeout(TimeUnit.MILLISECONDS);
        if (wtimeout != null) c = c.withWTimeout(wtimeout, TimeUnit.MILLISECONDS);
        return c;
    }
}
