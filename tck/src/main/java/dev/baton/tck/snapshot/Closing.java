package dev.baton.tck.snapshot;

import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.StorageException;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.StoreUnderTest;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/** A store's {@code close()}: harmless twice, and a closed store refuses calls clearly. */
public abstract class Closing extends SnapshotStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Closing(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void closingTwiceIsHarmless() throws Exception {
        SnapshotStore other = openStore();
        other.close();
        assertThatCode(other::close).as("a second close() of %s", other.describe()).doesNotThrowAnyException();
    }

    @Test
    void everyCallOnAClosedStoreFailsWithAStorageExceptionSayingItIsClosed() throws Exception {
        RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
        SnapshotStore closed = openStore();
        closed.close();
        Map<String, Callable<?>> calls = everyCall(closed, s);
        for (Map.Entry<String, Callable<?>> call : calls.entrySet()) {
            assertThatThrownBy(() -> call.getValue().call()).as("%s on a closed store", call.getKey())
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("closed");
        }
    }

    @Test
    void closingOneStoreLeavesAnotherOnTheSameDatabaseWorking() throws Exception {
        RunSnapshot s = insert(suspended(agent, uniqueId("run"), "t", "r", 0));
        SnapshotStore other = openStore();
        assertThat(other.find(s.runId())).contains(s);
        other.close();
        assertThat(store.find(s.runId())).contains(s);
        RunSnapshot t = insert(suspended(agent, uniqueId("run"), "t", "r", 1));
        assertThat(ids(store.list(query().build()))).containsExactly(t.runId(), s.runId());
    }
}
