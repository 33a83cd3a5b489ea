/**
 * The Baton TCK: abstract JUnit 5 suites that certify a {@link dev.baton.store.SnapshotStore}.
 *
 * <pre>{@code
 * class MySnapshotStoreTest extends SnapshotStoreContract {
 *     protected SnapshotStore openStore() { return MyStore.open(...); }
 * }
 * class MyLeaseTest extends LeaseContract {
 *     protected SnapshotStore openStore() { return MyStore.open(...); }
 * }
 * class MyAgentTest extends AgentContract {
 *     protected SnapshotStore openStore() { return MyStore.open(...); }
 * }
 * }</pre>
 * {@code openStore()} is called before each test, and again in the restart tests after the
 * previous store was closed: it must open the same database each time.
 */
package dev.baton.tck;
