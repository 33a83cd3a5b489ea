package dev.baton.store;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One page of a {@link DecisionQuery}: the records in query order (newest first), and whether more
 * match after the last one.
 *
 * <p>Immutable and thread-safe.
 *
 * @param items   the records of this page, newest first, ties by decisionId descending
 * @param hasMore true if records after the last one match the query
 */
public record DecisionPage(List<DecisionRecord> items, boolean hasMore) {
    /**
     * Creates the record.
     *
     * @param items   the records of this page, newest first, ties by decisionId descending
     * @param hasMore true if records after the last one match the query
     */
    public DecisionPage {
        items = List.copyOf(Objects.requireNonNull(items, "items"));
        if (hasMore && items.isEmpty()) throw new IllegalArgumentException("an empty page cannot have more");
    }

    /** {@return the cursor of the next page ({@link DecisionQuery.After#toCursor()}), or empty on the last page} */
    public Optional<String> nextCursor() {
        return hasMore ? Optional.of(DecisionQuery.After.of(items.get(items.size() - 1)).toCursor()) : Optional.empty();
    }
}
