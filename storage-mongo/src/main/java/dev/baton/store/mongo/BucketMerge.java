package dev.baton.store.mongo;

import dev.baton.store.RunPage;
import dev.baton.store.RunSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.jspecify.annotations.Nullable;

/**
 * The merge of per-bucket answers into one (issue 27): each bucket's list is already in the order asked
 * for (the server sorted it on the bucket's index range); a k-way merge on a heap of the lists' heads keeps
 * that order, then the global offset and limit apply. Run ids compare as MongoDB compares strings (by
 * code point, which is UTF-8 byte order), so the merge agrees with each bucket's own order.
 */
final class BucketMerge {
    /** Listing order: {@code createdAt} descending, then runId descending. */
    static final Comparator<RunSnapshot> LISTING = Comparator.comparing(RunSnapshot::createdAt).reversed()
            .thenComparing((a, b) -> compareIds(b.runId(), a.runId()));
    /** Due order: {@code expiresAt} ascending, then runId ascending (every due run has a deadline). */
    static final Comparator<RunSnapshot> DUE = Comparator.comparing((RunSnapshot s) -> s.expiresAt())
            .thenComparing((a, b) -> compareIds(a.runId(), b.runId()));
    /** Notification order: {@code notifyAt} ascending, then runId ascending. */
    static final Comparator<RunSnapshot> NOTIFY = Comparator.comparing((RunSnapshot s) -> s.notifyAt())
            .thenComparing((a, b) -> compareIds(a.runId(), b.runId()));

    private BucketMerge() {
    }

    /**
     * The page of a listing from the pages of its buckets, each read from 0 with {@code offset + limit}
     * items (or all of them): the merged runs from {@code offset}, at most {@code limit}, and the sum of
     * the buckets' totals.
     */
    static RunPage page(List<RunPage> buckets, long offset, @Nullable Integer limit) {
        long total = 0;
        List<List<RunSnapshot>> lists = new ArrayList<>(buckets.size());
        for (RunPage p : buckets) {
            total += p.total();
            lists.add(p.items());
        }
        List<RunSnapshot> items = merge(lists, LISTING, offset, limit == null ? Integer.MAX_VALUE : limit);
        // the buckets' totals cover their pages; the guard only matters if a bucket's page outran its count
        return new RunPage(items, items.isEmpty() ? total : Math.max(total, offset + items.size()));
    }

    /** The k-way merge of sorted lists: the items from {@code skip} on, at most {@code limit}. */
    static <T> List<T> merge(List<List<T>> sorted, Comparator<? super T> order, long skip, int limit) {
        record Head<T>(T item, int list, int index) {
        }
        PriorityQueue<Head<T>> heads = new PriorityQueue<>(Math.max(1, sorted.size()), (a, b) -> order.compare(a.item(), b.item()));
        for (int i = 0; i < sorted.size(); i++) {
            if (!sorted.get(i).isEmpty()) heads.add(new Head<>(sorted.get(i).get(0), i, 0));
        }
        List<T> out = new ArrayList<>();
        long seen = 0;
        while (!heads.isEmpty() && out.size() < limit) {
            Head<T> h = heads.poll();
            if (seen++ >= skip) out.add(h.item());
            List<T> list = sorted.get(h.list());
            int next = h.index() + 1;
            if (next < list.size()) heads.add(new Head<>(list.get(next), h.list(), next));
        }
        return out;
    }

    /** MongoDB's string order: by code point, which is the order of the UTF-8 bytes. */
    static int compareIds(String a, String b) {
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
}
