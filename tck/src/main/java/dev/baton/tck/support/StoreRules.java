package dev.baton.tck.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunPage;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every rule group of every contract starts from: the store of the running test, opened
 * before it through the contract's {@link StoreUnderTest} and closed after it, and another store on
 * the same database when a test needs one. A rule group that needs a capability checks it in a
 * {@code @BeforeEach} of its own, which runs after this one. Not API.
 */
public abstract class StoreRules {
    private final StoreUnderTest storeUnderTest;
    /** The store of the running test, open while it runs. */
    protected SnapshotStore store;

    /**
     * For a contract's rule group.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected StoreRules(StoreUnderTest storeUnderTest) {
        this.storeUnderTest = storeUnderTest;
    }

    /**
     * Opens the store of the test.
     *
     * @throws Exception whatever the contract's {@code openStore()} throws
     */
    @BeforeEach
    protected void openTheStore() throws Exception {
        store = storeUnderTest.open();
    }

    /** Closes the store of the test, if it was opened. */
    @AfterEach
    protected void closeTheStore() {
        if (store != null) store.close();
    }

    /**
     * Another store on the database under test, as the contract's {@code openStore()} opens it; the caller closes it.
     *
     * @return the store
     * @throws Exception whatever {@code openStore()} throws
     */
    protected SnapshotStore openStore() throws Exception {
        return storeUnderTest.open();
    }

    /** {@return the store under test, for code that opens stores outside a test's own thread} */
    protected StoreUnderTest storeUnderTest() {
        return storeUnderTest;
    }

    /**
     * Inserts a new run, asserting that the store took it.
     *
     * @param s the run
     * @return {@code s}
     */
    protected RunSnapshot insert(RunSnapshot s) {
        assertThat(store.insert(s)).as("insert of the new run %s", s.runId()).isTrue();
        return s;
    }

    /**
     * {@return the run ids of a page, in its order}
     *
     * @param page a page of runs
     */
    protected static List<String> ids(RunPage page) {
        return page.items().stream().map(RunSnapshot::runId).toList();
    }
}
