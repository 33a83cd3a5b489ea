package dev.baton.store.mongo;

import dev.baton.store.ShardMerge;
import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspendedAt;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The merge of per-bucket answers against a brute-force sort of everything, on seeded random data; and the bucket function. */
class BucketMergeTest {

    @Test
    void mergedPagesAndTotalsEqualTheBruteForceSlice() {
        Random random = new Random(27);
        for (int round = 0; round < 500; round++) {
            int buckets = 1 + random.nextInt(8);
            List<RunSnapshot> all = new ArrayList<>();
            List<List<RunSnapshot>> perBucket = new ArrayList<>();
            for (int b = 0; b < buckets; b++) perBucket.add(new ArrayList<>());
            int runs = random.nextInt(60);
            for (int i = 0; i < runs; i++) {
                // few distinct times: many ties, broken by the run id across buckets
                RunSnapshot s = suspendedAt("a", "run-" + Integer.toString(random.nextInt(1_000_000), 36) + "-" + i,
                        T0.plusSeconds(random.nextInt(10))).build();
                all.add(s);
                perBucket.get(random.nextInt(buckets)).add(s);
            }
            all.sort(RunQuery.ORDER);
            long offset = random.nextInt(4) == 0 ? 0 : random.nextInt(70);
            Integer limit = random.nextInt(5) == 0 ? null : 1 + random.nextInt(40);
            // each bucket answers as the store asks it: its first offset + limit runs, in order, and its own total
            List<RunPage> pages = new ArrayList<>();
            for (List<RunSnapshot> bucket : perBucket) {
                bucket.sort(ShardMerge.LISTING_ORDER);
                int n = limit == null ? bucket.size() : (int) Math.min(bucket.size(), offset + limit);
                pages.add(new RunPage(List.copyOf(bucket.subList(0, n)), bucket.size()));
            }
            RunPage merged = ShardMerge.page(pages, offset, limit);
            int from = (int) Math.min(offset, all.size());
            int to = limit == null ? all.size() : (int) Math.min(all.size(), offset + limit);
            assertThat(merged.items()).as("round %d: %d buckets, offset %d, limit %s", round, buckets, offset, limit)
                    .containsExactlyElementsOf(all.subList(from, to));
            assertThat(merged.total()).isEqualTo(all.size());
        }
    }

    @Test
    void dueAndNotificationMergesTakeTheFirstOfAllInTheirOrder() {
        Random random = new Random(2727);
        for (int round = 0; round < 300; round++) {
            int buckets = 1 + random.nextInt(6);
            int limit = 1 + random.nextInt(20);
            List<RunSnapshot> all = new ArrayList<>();
            List<List<RunSnapshot>> perBucket = new ArrayList<>();
            for (int b = 0; b < buckets; b++) perBucket.add(new ArrayList<>());
            for (int i = 0; i < random.nextInt(50); i++) {
                RunSnapshot s = suspendedAt("a", "r" + random.nextInt(100_000) + "-" + i, T0)
                        .expiresAt(T0.plusSeconds(random.nextInt(5))).build();
                all.add(s);
                perBucket.get(random.nextInt(buckets)).add(s);
            }
            all.sort(ShardMerge.DUE_ORDER);
            List<List<RunSnapshot>> firsts = new ArrayList<>();
            for (List<RunSnapshot> bucket : perBucket) {
                bucket.sort(ShardMerge.DUE_ORDER);
                firsts.add(bucket.subList(0, Math.min(limit, bucket.size())));
            }
            assertThat(ShardMerge.merge(firsts, ShardMerge.DUE_ORDER, 0, limit))
                    .containsExactlyElementsOf(all.subList(0, Math.min(limit, all.size())));
            // ties by runId ascending, as the contract orders them
            for (int i = 1; i < Math.min(limit, all.size()); i++) {
                RunSnapshot a = all.get(i - 1);
                RunSnapshot b = all.get(i);
                assertThat(a.expiresAt().isBefore(b.expiresAt()) || a.runId().compareTo(b.runId()) < 0).isTrue();
            }
        }
    }

    @Test
    void runIdsCompareAsTheirUtf8Bytes() {
        Random random = new Random(7);
        int[] pool = {'a', 'z', 0x7f, 0xe9, 0x800, 0xe000, 0xffff, 0x1f600, 0x10000};
        for (int i = 0; i < 2000; i++) {
            String a = randomId(random, pool);
            String b = randomId(random, pool);
            assertThat(Integer.signum(ShardMerge.compareIds(a, b)))
                    .as("%s vs %s", a, b)
                    .isEqualTo(Integer.signum(Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8))));
        }
    }

    @Test
    void theBucketIsCrc32OfTheThreadOrElseTheRunModN() {
        // 0xCBF43926 is CRC-32's check value for "123456789": the function is the zlib one, stable across JVMs
        assertThat(MongoBuckets.of("123456789", 1000)).isEqualTo((int) (0xCBF43926L % 1000));
        assertThat(MongoBuckets.of("123456789", 1)).isZero();
        RunSnapshot threaded = suspendedAt("a", "run-1", T0).threadId("123456789").build();
        RunSnapshot alone = suspendedAt("a", "123456789", T0).build();
        assertThat(MongoBuckets.of(threaded, 1000)).isEqualTo(262);
        assertThat(MongoBuckets.of(alone, 1000)).isEqualTo(262);
        Random random = new Random(11);
        int[] counts = new int[8];
        for (int i = 0; i < 8000; i++) counts[MongoBuckets.of("thread-" + random.nextLong(), 8)]++;
        // spread: every bucket within 15 % of its fair share of 1000
        for (int c : counts) assertThat(c).isBetween(850, 1150);
    }

    private static String randomId(Random random, int[] pool) {
        StringBuilder sb = new StringBuilder();
        for (int n = random.nextInt(5); n >= 0; n--) sb.appendCodePoint(pool[random.nextInt(pool.length)]);
        return sb.toString();
    }
}
