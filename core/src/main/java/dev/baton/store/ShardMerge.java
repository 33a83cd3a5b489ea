package dev.baton.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import org.jspecify.annotations.Nullable;

/**
 * For stores that answer a listing per shard, partition or bucket (the Redis and MongoDB stores with
 * {@code buckets}): the k-way merge of lists that are each already in the order asked for, so that no
 * store loads more than {@code offset + limit} items a part, and the orders of the SPI's listings.
 *
 * <p>Ids compare by Unicode code point, which is the order of their UTF-8 bytes: the order Redis gives
 * sorted-set members of equal score, MongoDB gives strings and a SQL {@code BINARY} column gives its
 * values, so a merge agrees with each part's own order. (It differs from {@link String#compareTo}, which
 * compares UTF-16 units, only for ids that mix characters U+E000 to U+FFFF with characters beyond U+FFFF.)
 */
public final class ShardMerge {
    /** Listing order ({@link SnapshotStore#list}): {@code createdAt} descending, then runId descending. */
    public static final Comparator<RunSnapshot> LISTING_ORDER = (a, b) -> {
        int c = b.createdAt().compareTo(a.createdAt());
        return c != 0 ? c : compareIds(b.runId(), a.runId());
    };

    /** Deadline order ({@link SnapshotStore#listDue}): {@code expiresAt} ascending (none last), then runId ascending. */
    public static final Comparator<RunSnapshot> DUE_ORDER = (a, b) -> {
        int c = orLast(a.expiresAt()).compareTo(orLast(b.expiresAt()));
        return c != 0 ? c : compareIds(a.runId(), b.runId());
    };

    /** Notification order ({@link SnapshotStore#listNotificationsDue}): {@code notifyAt} ascending (none last), then runId ascending. */
    public static final Comparator<RunSnapshot> NOTIFY_ORDER = (a, b) -> {
        int c = orLast(a.notifyAt()).compareTo(orLast(b.notifyAt()));
        return c != 0 ? c : compareIds(a.runId(), b.runId());
    };

    private ShardMerge() {
    }

    private static Instant orLast(@Nullable Instant t) {
        return t == null ? Instant.MAX : t;
    }

    /**
     * Compares two ids by code point (the order of their UTF-8 bytes, unsigned).
     *
     * @param a one id
     * @param b the other id
     * @return negative, zero or positive as {@code a} comes before, with or after {@code b}
     */
    public static int compareIds(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) return Integer.compare(ca, cb);
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }

    /**
     * The k-way merge of lists each sorted by {@code order}: the merged items from {@code skip} on, at
     * most {@code take} of them ({@code take < 0}: all). Reads each list only as far as the result needs.
     *
     * @param sorted the parts' lists, each in {@code order}
     * @param order the order of every list and of the result
     * @param skip how many merged items to leave out first (a global offset), {@code >= 0}
     * @param take how many to keep at most; negative for all
     * @param <T> the items
     * @return a new list
     */
    public static <T> List<T> merge(List<? extends List<? extends T>> sorted, Comparator<? super T> order, long skip, long take) {
        Objects.requireNonNull(order, "order");
        if (skip < 0) throw new IllegalArgumentException("skip must be >= 0, was " + skip);
        PriorityQueue<int[]> heads = new PriorityQueue<>(Math.max(1, sorted.size()),
                (x, y) -> order.compare(sorted.get(x[0]).get(x[1]), sorted.get(y[0]).get(y[1])));
        for (int i = 0; i < sorted.size(); i++) if (!sorted.get(i).isEmpty()) heads.add(new int[] {i, 0});
        List<T> out = new ArrayList<>();
        long skipped = 0;
        while (!heads.isEmpty() && (take < 0 || out.size() < take)) {
            int[] h = heads.poll();
            List<? extends T> list = sorted.get(h[0]);
            if (skipped < skip) skipped++; else out.add(list.get(h[1]));
            if (h[1] + 1 < list.size()) heads.add(new int[] {h[0], h[1] + 1});
        }
        return out;
    }

    /**
     * The page of a listing from the pages of its parts, each read from its start with
     * {@code offset + limit} runs (or all of them) in {@link #LISTING_ORDER}, with the part's own total:
     * the merged runs from {@code offset}, at most {@code limit}, and the sum of the totals.
     *
     * @param parts each part's page
     * @param offset the listing's offset
     * @param limit the listing's limit; null for all
     * @return the listing's page
     */
    public static RunPage page(List<RunPage> parts, long offset, @Nullable Integer limit) {
        long total = 0;
        List<List<RunSnapshot>> lists = new ArrayList<>(parts.size());
        for (RunPage p : parts) {
            total += p.total();
            lists.add(p.items());
        }
        List<RunSnapshot> items = merge(lists, LISTING_ORDER, offset, limit == null ? -1 : limit);
        // the parts' totals cover their pages; the guard only matters if a part's page outran its count
        return new RunPage(items, items.isEmpty() ? total : Math.max(total, offset + items.size()));
    }
}
