package dev.baton.tck;

import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the contracts learned in this JVM about the stores they ran against: for each test class
 * (a <em>suite</em>, such as {@code MySnapshotStoreTest}), the store's class, its
 * {@link SnapshotStore#describe() description} and the capabilities it declares. The
 * {@link CertificationListener} reads it to write the certification report.
 *
 * <p>Every contract of the TCK records its store itself, before each test. A contract of one's own
 * (or a suite whose store the TCK cannot see) may call {@link #record(Class, SnapshotStore)} from a
 * {@code @BeforeEach}.
 *
 * <p>Thread-safe: suites running in parallel may record at the same time. It holds nothing to close.
 */
public final class Certification {

    /** The message of the guard that fails when a runner that cannot run JUnit 5 picks up a contract. */
    static final String WRONG_RUNNER = "The Baton TCK is a JUnit 5 (JUnit Platform) suite, and this test runner does not run"
            + " JUnit 5: it would have run none of the contract's tests and reported success. With Maven, pin"
            + " maven-surefire-plugin 3.x (Maven 3.8 defaults to 2.12.4): see the certification section of the README."
            + " This method is not a test; JUnit 5 never calls it.";

    /**
     * One store a suite ran against.
     *
     * @param storeClass   the implementation's class name
     * @param description  what {@link SnapshotStore#describe()} said
     * @param capabilities what {@link SnapshotStore#capabilities()} declared
     */
    public record StoreSeen(String storeClass, String description, Set<StoreCapability> capabilities) {
        /**
         * Copies the capabilities.
         *
         * @param storeClass   the implementation's class name
         * @param description  what {@link SnapshotStore#describe()} said
         * @param capabilities what {@link SnapshotStore#capabilities()} declared
         */
        public StoreSeen {
            Objects.requireNonNull(storeClass, "storeClass");
            Objects.requireNonNull(description, "description");
            capabilities = capabilities.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(capabilities));
        }
    }

    private static final Map<String, Set<StoreSeen>> BY_SUITE = new ConcurrentHashMap<>();

    private Certification() {
    }

    /**
     * Records that the tests of {@code suite} run against {@code store}. Cheap and idempotent:
     * call it for every test.
     *
     * @param suite the test class (the suite the report lists)
     * @param store the store its tests run against
     */
    public static void record(Class<?> suite, SnapshotStore store) {
        Objects.requireNonNull(suite, "suite");
        Objects.requireNonNull(store, "store");
        String description;
        try {
            description = store.describe();
        } catch (RuntimeException e) {
            description = store.getClass().getSimpleName() + " (describe() failed: " + e + ")";
        }
        BY_SUITE.computeIfAbsent(suite.getName(), k -> ConcurrentHashMap.newKeySet())
                .add(new StoreSeen(store.getClass().getName(), description, store.capabilities()));
    }

    /**
     * What was recorded so far, by suite class name.
     *
     * @return a copy: the stores each suite ran against
     */
    public static Map<String, Set<StoreSeen>> recorded() {
        Map<String, Set<StoreSeen>> copy = new TreeMap<>();
        BY_SUITE.forEach((k, v) -> copy.put(k, Set.copyOf(v)));
        return copy;
    }

    /** Forgets what was recorded; the listener calls it when a test plan starts. */
    static void clear() {
        BY_SUITE.clear();
    }
}
