package dev.baton.store;

import java.util.List;
import java.util.Objects;

/**
 * One page of a {@link RunQuery}: the snapshots in query order and the number of matches before paging.
 *
 * <p>Immutable and thread-safe.
 *
 * @param items the snapshots of this page, newest creation first, ties by runId descending
 * @param total every match of the query, ignoring offset and limit
 */
public record RunPage(List<RunSnapshot> items, long total) {
    /**
     * Creates the record.
     *
     * @param items the snapshots of this page, newest creation first, ties by runId descending
     * @param total every match of the query, ignoring offset and limit
     */
    public RunPage {
        items = List.copyOf(Objects.requireNonNull(items, "items"));
        if (total < items.size()) {
            throw new IllegalArgumentException("total " + total + " is smaller than the page size " + items.size());
        }
    }
}
