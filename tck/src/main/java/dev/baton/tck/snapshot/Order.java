package dev.baton.tck.snapshot;

import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.StoreUnderTest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A listing is ordered newest creation first, ties broken by run id descending in binary order.
 */
public abstract class Order extends SnapshotStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Order(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void newestCreationFirst() {
        RunSnapshot old = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
        RunSnapshot newest = insert(suspended(agent, uniqueId("run"), "t", "r", 2000));
        RunSnapshot mid = insert(suspended(agent, uniqueId("run"), "t", "r", 1000));
        assertThat(ids(store.list(query().build()))).containsExactly(newest.runId(), mid.runId(), old.runId());
        assertThat(ids(store.list(query().threadId("t").build())))
                .containsExactly(newest.runId(), mid.runId(), old.runId());
    }

    @Test
    void tiesAreBrokenByRunIdDescendingInBinaryOrder() {
        String p = agent + "-";
        List<String> runIds = new ArrayList<>(List.of(p + "A", p + "a", p + "B", p + "b", p + "0", p + "a-1", p + "a1", p + "Z"));
        Collections.shuffle(runIds, new Random(11));
        for (String id : runIds) insert(suspended(agent, id, "t", "r", 77));
        List<String> expected = runIds.stream().sorted(Collections.reverseOrder()).toList();
        assertThat(ids(store.list(query().build()))).containsExactlyElementsOf(expected);
        assertThat(ids(store.list(query().resourceId("r").build()))).containsExactlyElementsOf(expected);
        assertThat(ids(store.list(query().threadId("t").resourceId("r").page(2, 3).build())))
                .containsExactlyElementsOf(expected.subList(2, 5));
    }
}
