/**
 * The Baton TCK: abstract JUnit 5 suites (the <em>contracts</em>) that certify a
 * {@link dev.baton.store.SnapshotStore}, and the report that says what a run certified.
 *
 * <pre>{@code
 * public class MySnapshotStoreTest extends SnapshotStoreContract {
 *     protected SnapshotStore openStore() { return SnapshotStores.open("mystore://..."); }
 * }
 * public class MyLeaseTest extends LeaseContract {
 *     protected SnapshotStore openStore() { return SnapshotStores.open("mystore://..."); }
 * }
 * public class MyAgentTest extends AgentContract {
 *     protected SnapshotStore openStore() { return SnapshotStores.open("mystore://..."); }
 * }
 * public class MyProcessTest extends ProcessContract {     // stores that declare SHARED or DURABLE
 *     protected String storeUrl() { return "mystore://..."; }
 * }
 * }</pre>
 * {@code openStore()} is called before each test, and again in the restart tests after the
 * previous store was closed: it must open the same database each time. Declare the test classes
 * {@code public}: a runner that cannot run JUnit 5 then fails on the contracts' guard method
 * instead of passing with zero tests.
 *
 * <p>{@link dev.baton.tck.CertificationListener} prints the certification report at the end of
 * the run: each suite's counts, the capabilities the store declares, and which of them the run
 * proved ({@link dev.baton.tck.ProvesCapability}). {@link dev.baton.tck.StoreFaults} is the
 * optional hook through which {@link dev.baton.tck.SnapshotStoreContract} breaks the store's link
 * to its backend.
 */
package dev.baton.tck;
