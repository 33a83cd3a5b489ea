package dev.baton.tck.support;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.Certification;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * The store a suite tests, as the rule groups of its contract open it: a contract makes one from its
 * {@code openStore()} hook and hands it to each of its {@code @Nested} groups. Every store opened
 * through it is recorded for the certification report ({@link Certification#record}). Not API.
 */
public final class StoreUnderTest {
    private final Class<?> suite;
    private final Callable<SnapshotStore> opener;

    /**
     * The store under test of a suite.
     *
     * @param suite  the test class that extends the contract (the store's suite in the report)
     * @param opener the contract's {@code openStore()} hook
     */
    public StoreUnderTest(Class<?> suite, Callable<SnapshotStore> opener) {
        this.suite = Objects.requireNonNull(suite, "suite");
        this.opener = Objects.requireNonNull(opener, "opener");
    }

    /**
     * Opens a store on the database under test (the same database on every call, as
     * {@code openStore()} promises) and records it for the report.
     *
     * @return the store; the caller closes it
     * @throws Exception whatever {@code openStore()} throws
     */
    public SnapshotStore open() throws Exception {
        SnapshotStore store = opener.call();
        if (store == null) {
            throw new IllegalStateException(suite.getName() + ".openStore() returned null: it must open the store under test");
        }
        Certification.record(suite, store);
        return store;
    }

    /**
     * The test class that extends the contract.
     *
     * @return the suite
     */
    public Class<?> suite() {
        return suite;
    }
}
