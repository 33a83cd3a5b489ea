package dev.baton.store.redis;

import dev.baton.store.ShardMerge;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.cluster.SlotHash;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The bucketed layout's pure parts: bucket tags and their slots, a run's bucket, lookup values, the k-way merge. */
class RedisBucketsTest {
    private static final List<String> AGENTS = List.of("support", "{", "}", "a{b}c", "caf\u00e9 \ud83d\ude00", "x:y", "agent-42");
    private final RedisKeys keys = new RedisKeys("app");

    @Test
    void oneBucketIsTheOriginalLayoutKeyForKey() {
        RedisBuckets one = new RedisBuckets(keys, 1);
        for (String agent : AGENTS) {
            assertThat(one.bases(agent)).containsExactly(keys.agentBase(agent));
            assertThat(RedisKeys.runIn(one.base(agent, one.of("t", "r")), "r")).isEqualTo(keys.run(agent, "r"));
            assertThat(RunLookup.suffix(agent, 0, 1)).isEqualTo(agent);
        }
    }

    @Test
    void bucketKOfNIsInTheKthOfNEqualSlotRangesAndEveryKeyOfABucketShareItsSlot() {
        for (int n : new int[] {2, 3, 4, 6, 9, 12, 16, 100}) {
            RedisBuckets b = new RedisBuckets(keys, n);
            for (String agent : AGENTS) {
                String[] bases = b.bases(agent);
                assertThat(bases).hasSize(n).doesNotHaveDuplicates();
                for (int k = 0; k < n; k++) {
                    int slot = SlotHash.getSlot(bases[k]);
                    assertThat(slot).isGreaterThanOrEqualTo(k * 16384 / n).isLessThan((k + 1) * 16384 / n);
                    assertThat(SlotHash.getSlot(RedisKeys.runIn(bases[k], "{run}"))).isEqualTo(slot);
                    assertThat(SlotHash.getSlot(bases[k] + "dec:h:00")).isEqualTo(slot);
                    assertThat(bases[k]).doesNotContain(keys.agentBase(agent));
                }
                assertThat(RedisBuckets.bases(keys, agent, n)).containsExactly(bases);
            }
        }
    }

    @Test
    void sixBucketsPutTwoOnEachOfThreeMastersWithEqualSlotRanges() {
        RedisBuckets b = new RedisBuckets(keys, 6);
        for (String agent : AGENTS) {
            int[] perMaster = new int[3];
            for (String base : b.bases(agent)) perMaster[SlotHash.getSlot(base) * 3 / 16384]++;
            assertThat(perMaster).containsExactly(2, 2, 2);
        }
    }

    @Test
    void aThreadsRunsShareABucketAndRunsSpreadEvenly() {
        RedisBuckets b = new RedisBuckets(keys, 6);
        int[] count = new int[6];
        Random r = new Random(7);
        for (int i = 0; i < 60_000; i++) count[b.of(null, new UUID(r.nextLong(), r.nextLong()).toString())]++;
        for (int c : count) assertThat(c).isBetween(8_500, 11_500);   // within 15% of 10,000
        int k = b.of("thread-1", "run-a");
        for (int i = 0; i < 100; i++) assertThat(b.of("thread-1", "run-" + i)).isEqualTo(k);
        assertThatThrownBy(() -> new RedisBuckets(keys, 0)).hasMessageContaining("buckets");
        assertThatThrownBy(() -> new RedisBuckets(keys, 1025)).hasMessageContaining("buckets");
    }

    @Test
    void lookupValuesOfBothLayoutsAreRead() {
        RedisBuckets six = new RedisBuckets(keys, 6);
        String nonce = "0123456789abcdef";
        RunLookup.Located old = RunLookup.parse(six, nonce + "agent:with/colon");
        assertThat(old.agentId()).isEqualTo("agent:with/colon");
        assertThat(old.base()).isEqualTo(keys.agentBase("agent:with/colon"));
        RunLookup.Located bucketed = RunLookup.parse(six, nonce + RunLookup.suffix("a:1/2", 4, 6));
        assertThat(bucketed.agentId()).isEqualTo("a:1/2");
        assertThat(bucketed.base()).isEqualTo(six.base("a:1/2", 4));
        RunLookup.Located otherLayout = RunLookup.parse(six, nonce + RunLookup.suffix("a", 2, 3));
        assertThat(otherLayout.base()).isEqualTo(RedisBuckets.bases(keys, "a", 3)[2]);
        assertThat(RunLookup.parse(six, nonce)).isNull();
        assertThat(RunLookup.parse(six, null)).isNull();
    }

    @Test
    void theMergeIsTheSortOfTheConcatenationSkippedAndCut() {
        Random r = new Random(11);
        Comparator<String> order = ShardMerge::compareIds;
        for (int round = 0; round < 500; round++) {
            List<List<String>> lists = new ArrayList<>();
            List<String> all = new ArrayList<>();
            int k = 1 + r.nextInt(7);
            for (int i = 0; i < k; i++) {
                List<String> l = new ArrayList<>();
                int n = r.nextInt(12);
                for (int j = 0; j < n; j++) l.add(new String(Character.toChars(0x20 + r.nextInt(3)) ) + (char) (0x61 + r.nextInt(3))
                        + (r.nextBoolean() ? "\ud83d\ude00" : "\uffff") + r.nextInt(3));
                l.sort(order);
                lists.add(l);
                all.addAll(l);
            }
            all.sort(order);
            int skip = r.nextInt(10);
            int take = r.nextInt(12) - 1;
            List<String> want = all.subList(Math.min(skip, all.size()), take < 0 ? all.size() : Math.min(all.size(), skip + take));
            assertThat(ShardMerge.merge(lists, order, skip, take)).containsExactlyElementsOf(want);
        }
        // bytes, not UTF-16 units: U+FFFF sorts below an emoji (a surrogate pair) in UTF-8
        assertThat(ShardMerge.compareIds("\uffff", "\ud83d\ude00")).isNegative();
    }
}
