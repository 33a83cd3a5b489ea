package dev.baton.store.redis;

import dev.baton.store.RunSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.jspecify.annotations.Nullable;

/**
 * The k-way merge of per-bucket pages ({@link RedisBuckets}): each bucket's list is already in the order
 * (a rank range of its sorted set), so the merged list is the global order; the merge skips {@code skip}
 * items and keeps {@code take}. Ties are broken as Redis breaks equal scores: by the members' bytes (UTF-8),
 * unsigned, the same order the one-bucket layout gives.
 */
final class BucketMerge {
    private BucketMerge() {
    }

    /** Compares ids as Redis compares sorted-set members of equal score: their UTF-8 bytes, unsigned. */
    static int compareIds(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    /** Listing order: createdAt descending, then runId descending (bytes). */
    static final Comparator<RunSnapshot> LISTING = (a, b) -> {
        int c = b.createdAt().compareTo(a.createdAt());
        return c != 0 ? c : compareIds(b.runId(), a.runId());
    };

    /** Deadline order: expiresAt ascending, then runId ascending (bytes). */
    static final Comparator<RunSnapshot> DUE = (a, b) -> {
        int c = instant(a.expiresAt()).compareTo(instant(b.expiresAt()));
        return c != 0 ? c : compareIds(a.runId(), b.runId());
    };

    /** Notification order: notifyAt ascending, then runId ascending (bytes). */
    static final Comparator<RunSnapshot> NOTIFY = (a, b) -> {
        int c = instant(a.notifyAt()).compareTo(instant(b.notifyAt()));
        return c != 0 ? c : compareIds(a.runId(), b.runId());
    };

    private static Instant instant(@Nullable Instant i) {
        return i == null ? Instant.MAX : i;
    }

    /**
     * Merges sorted lists into one sorted list, skipping the first {@code skip} items, keeping at most {@code take}
     * ({@code take < 0}: all).
     */
    static <T> List<T> merge(List<List<T>> lists, Comparator<? super T> order, long skip, long take) {
        PriorityQueue<int[]> heads = new PriorityQueue<>((x, y) -> order.compare(lists.get(x[0]).get(x[1]), lists.get(y[0]).get(y[1])));
        for (int i = 0; i < lists.size(); i++) if (!lists.get(i).isEmpty()) heads.add(new int[] {i, 0});
        List<T> out = new ArrayList<>();
        long skipped = 0;
        while (!heads.isEmpty() && (take < 0 || out.size() < take)) {
            int[] h = heads.poll();
            List<T> l = lists.get(h[0]);
            if (skipped < skip) skipped++; else out.add(l.get(h[1]));
            if (h[1] + 1 < l.size()) heads.add(new int[] {h[0], h[1] + 1});
        }
        return out;
    }
}
