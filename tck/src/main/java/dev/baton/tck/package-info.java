/**
 * The Baton TCK: abstract JUnit 5 suites (the <em>contracts</em>) that certify a
 * {@link dev.baton.store.SnapshotStore}, and the report that says what a run certified.
 *
 * <p>Every store must pass six contracts (its duties): {@link dev.baton.tck.SnapshotStoreContract},
 * {@link dev.baton.tck.LeaseContract}, {@link dev.baton.tck.ListingContract},
 * {@link dev.baton.tck.AgentContract}, {@link dev.baton.tck.RecoveryContract} and
 * {@link dev.baton.tck.LifecycleContract}. A store that declares a capability also passes the
 * contracts that prove it: {@link dev.baton.tck.ProcessContract} for {@code SHARED} and
 * {@code DURABLE}; {@link dev.baton.tck.MemoryStoreContract} and {@link dev.baton.tck.MemoryContract}
 * for {@code THREAD_MEMORY}; the store-clock tests of {@code LeaseContract} and
 * {@code RecoveryContract} for {@code STORE_CLOCK}. One public test class per contract:
 *
 * <pre>{@code
 * public class MySnapshotStoreTest extends SnapshotStoreContract {
 *     protected SnapshotStore openStore() { return SnapshotStores.open("mystore://..."); }
 * }
 * public class MyLeaseTest extends LeaseContract {
 *     protected SnapshotStore openStore() { return SnapshotStores.open("mystore://..."); }
 * }
 * // ... and likewise MyListingTest, MyAgentTest, MyRecoveryTest, MyLifecycleTest,
 * // MyMemoryStoreTest and MyMemoryTest (THREAD_MEMORY)
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
 * the run: each suite's counts, whether each store passed the duties of every store (naming the
 * required contracts that did not run), the capabilities it declares, and which of them the run
 * proved ({@link dev.baton.tck.ProvesCapability}). {@link dev.baton.tck.StoreFaults} is the
 * optional hook through which {@link dev.baton.tck.SnapshotStoreContract} breaks the store's link
 * to its backend. The guide is {@code docs/certification.md}.
 */
package dev.baton.tck;
