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
 * <p>Each contract is one class with a {@code @Nested} class per group of rules (its chapters:
 * {@code Persistence}, {@code Filters}, {@code Paging}, ...); the rules of each group are in a
 * file of their own, in a package per contract ({@code dev.baton.tck.snapshot},
 * {@code dev.baton.tck.lease}, {@code dev.baton.tck.listing}, {@code dev.baton.tck.agent},
 * {@code dev.baton.tck.recovery}, {@code dev.baton.tck.lifecycle}, {@code dev.baton.tck.memorystore},
 * {@code dev.baton.tck.memory}). Each rule is a test method whose name says the rule.
 *
 * <p>{@link dev.baton.tck.CertificationListener} prints the certification report at the end of
 * the run: the TCK's version, each suite's counts, whether each store passed the duties of every
 * store (naming the required contracts that did not run), the capabilities it declares, and which
 * of them the run proved ({@link dev.baton.tck.ProvesCapability}). {@link dev.baton.tck.StoreFaults}
 * is the optional hook through which {@link dev.baton.tck.SnapshotStoreContract} breaks the store's
 * link to its backend. The guide is {@code docs/certification.md}.
 *
 * <h2>Compatibility policy</h2>
 *
 * <p><b>The API of the TCK</b> is what a store's tests touch: the contract classes of this package
 * (by name, as abstract classes to extend), their hooks ({@code openStore()}, {@code faults()},
 * {@code storeUrl()}, {@code storeProperties()}, {@code leaseMillis()}), {@link dev.baton.tck.StoreFaults}
 * (with {@code throughProxy}), {@link dev.baton.tck.Certification#record} and
 * {@link dev.baton.tck.ProvesCapability} for contracts of one's own, and the report
 * ({@link dev.baton.tck.CertificationListener}: its file, its property, its lists of required and
 * proving contracts). A hook keeps its name, signature and meaning: a new hook arrives with a
 * default that keeps today's behaviour, and a hook is removed only after a release in which it is
 * deprecated.
 *
 * <p><b>What may change, and when.</b> A patch release (0.1.x) only fixes tests: a test that checked
 * less than its name says may check it fully (a store that passed by that mistake may then fail),
 * and a flaky one may be made deterministic; it adds no duty. A minor release (0.x.0 before 1.0,
 * x.y.0 after) may add tests to a contract, groups, contracts, capabilities and the contracts that
 * prove them, and may add a contract to the duties of every store; the CHANGELOG names every new
 * duty and what a store must do for it. Test counts therefore change in minor releases; a rule's
 * name (its test method) is kept while the rule holds. A method added to the store SPI after 0.1.0
 * arrives with a new capability (the rules are in {@link dev.baton.store.SnapshotStore}'s Javadoc),
 * and the TCK tests it only on the stores that declare that capability. The rule groups' classes (the packages of
 * each contract) and {@code dev.baton.tck.support} are <em>not</em> API: extend the contracts, not
 * the groups; anything there may be renamed, split, merged or removed in any release.
 *
 * <p><b>Pinning.</b> A store certifies against one version of the TCK: that of the Baton core it is
 * built against (the {@code baton-bom} manages {@code baton-core} and {@code baton-tck} together),
 * as a {@code test}-scoped dependency. The report's first line names that version ("Baton TCK
 * certification (baton-tck 0.1.0)"); a store's documentation should name it too. Upgrading Baton
 * upgrades the TCK, and a new duty shows as a missing contract or a failing rule in the report.
 */
package dev.baton.tck;
