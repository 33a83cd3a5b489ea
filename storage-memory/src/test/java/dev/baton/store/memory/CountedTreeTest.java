package dev.baton.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The counted tree against a {@link TreeMap} on seeded random operations: same entries, same ranks, same slices. */
class CountedTreeTest {

    @Test
    void ranksAndSlicesAgreeWithASortedMapUnderRandomInsertsAndRemovals() {
        Random random = new Random(17L);
        CountedTree<Integer, String> tree = new CountedTree<>();
        TreeMap<Integer, String> model = new TreeMap<>();
        for (int step = 0; step < 20_000; step++) {
            int key = random.nextInt(2_000);
            if (random.nextInt(3) == 0) {
                tree.remove(key);
                model.remove(key);
            } else {
                tree.put(key, "v" + key + "@" + step);
                model.put(key, "v" + key + "@" + step);
            }
            if (step % 500 == 0) {
                assertThat(tree.size()).isEqualTo(model.size());
                int probe = random.nextInt(2_100) - 50;
                assertThat(tree.rankBefore(probe)).isEqualTo(model.headMap(probe, false).size());
                assertThat(tree.rankThrough(probe)).isEqualTo(model.headMap(probe, true).size());
                int from = random.nextInt(model.size() + 2);
                List<String> slice = new ArrayList<>();
                Iterator<String> it = tree.valuesFrom(from);
                while (it.hasNext() && slice.size() < 25) slice.add(it.next());
                List<String> expected = model.values().stream().skip(from).limit(25).toList();
                assertThat(slice).isEqualTo(expected);
            }
        }
        List<String> all = new ArrayList<>();
        tree.valuesFrom(0).forEachRemaining(all::add);
        assertThat(all).containsExactlyElementsOf(model.values());
    }

    @Test
    void anEmptyTreeHasNothingFromAnyRank() {
        CountedTree<String, String> tree = new CountedTree<>();
        assertThat(tree.isEmpty()).isTrue();
        assertThat(tree.valuesFrom(0).hasNext()).isFalse();
        assertThat(tree.rankBefore("x")).isZero();
        tree.remove("x");
        assertThat(tree.size()).isZero();
    }
}
