package dev.baton.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.StoreCapability;
import dev.baton.tck.LeaseContract;
import org.junit.jupiter.api.Test;

class MemoryLeaseTest extends LeaseContract {
    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("memory:tck-lease-contract");
    }

    @Test
    void theInMemoryStoreHasAClockThreadMemoryAndNotificationsButIsNeitherSharedNorDurable() {
        try (SnapshotStore store = openStore(); SnapshotStore privateStore = SnapshotStores.open("memory:")) {
            assertThat(store.capabilities()).containsExactlyInAnyOrder(StoreCapability.STORE_CLOCK, StoreCapability.THREAD_MEMORY,
                    StoreCapability.NOTIFICATIONS);
            assertThat(privateStore.capabilities()).containsExactlyInAnyOrder(StoreCapability.STORE_CLOCK,
                    StoreCapability.THREAD_MEMORY, StoreCapability.NOTIFICATIONS);
        }
    }
}
