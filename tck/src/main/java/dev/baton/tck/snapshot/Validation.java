package dev.baton.tck.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.tck.support.StoreUnderTest;
import org.junit.jupiter.api.Test;

/**
 * Queries refuse a negative offset or limit; a store describes itself.
 */
public abstract class Validation extends SnapshotStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Validation(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void queriesRejectANegativeOffsetOrLimit() {
        assertThatThrownBy(() -> query().page(-1, 5).build()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> query().page(0, -1).build()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void describeNamesTheStore() {
        assertThat(store.describe()).isNotBlank();
    }
}
