package dev.baton.bench;

import dev.baton.store.RunQuery;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The hand-written baseline: the same filter, order, count and page as a store's listing, sent
 * straight to the database with its own driver, on the same data and indexes, with nothing of
 * Baton in between (no pool, no Jdbi, no RunSnapshot, no JSON decoding). It reads the same
 * columns as the store's listing: on the SQL stores every column but the payload, and the
 * listing summary beside it (in {@link Row#payload()}), so the bytes moved are the same.
 */
public interface RawQueries extends AutoCloseable {

    /** One listing: the first {@code limit} matches in listing order and the total. */
    Page page(Query q);

    @Override
    void close();

    /**
     * Whether {@link #page} answers a query with {@link Query#deciders()} (the "waiting for me" filter); a
     * backend without it has no raw baseline for that listing.
     */
    default boolean deciders() {
        return false;
    }

    /**
     * What one listing asks for; dates are inclusive epoch milliseconds on createdAt. {@code deciders}: the
     * "waiting for me" label pairs ({@code RunQuery.deciders()}: stored status SUSPENDED, and for some pair the
     * granting label held and the excluding one not), or null for none.
     */
    record Query(String agentId, @Nullable String threadId, @Nullable String resourceId,
                 @Nullable Long from, @Nullable Long to, int limit, @Nullable List<RunQuery.Decider> deciders) {
        Query(String agentId, @Nullable String threadId, @Nullable String resourceId, @Nullable Long from, @Nullable Long to, int limit) {
            this(agentId, threadId, resourceId, from, to, limit, null);
        }
    }

    /** One stored run as the driver returns it. */
    record Row(String runId, String agentId, String status, @Nullable String threadId, @Nullable String resourceId,
               long createdAt, long suspendedAt, long version, String payload) {
    }

    /** A page and its total. */
    record Page(long total, List<Row> rows) {
    }
}
