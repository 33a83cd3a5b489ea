package dev.baton.tck;

import dev.baton.store.StoreCapability;
import dev.baton.tck.CertificationReport.Suite;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Writes the certification report when a JUnit Platform test run that contains TCK contracts
 * ends: for every suite (a test class extending a contract) the tests passed, failed and skipped;
 * for every store class whether it passed the duties of every store (every contract of
 * {@link #REQUIRED_CONTRACTS}), the capabilities it declares, and which of them the run proved
 * (each through every contract of {@link #PROVING_CONTRACTS}). It warns, in a box that is hard to
 * miss, when a contract suite ran none of its tests, when a required contract did not run, when a
 * declared capability was not proven, and when a test failed.
 *
 * <p>A suite of a contract that only proves capabilities ({@code ProcessContract},
 * {@code MemoryStoreContract}, {@code MemoryContract}) run against a store that declares none of
 * them skips its tests; the report says so, and does not count it against the store.
 *
 * <p>Registered through {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener}
 * in the TCK jar, so Maven Surefire 3.x, Gradle and the IDEs pick it up with nothing to configure.
 * The report goes to standard output and to {@code target/baton-tck-certification.txt} (or the file
 * named by the system property {@code baton.tck.report}). A runner that does not run the JUnit
 * Platform at all never calls it: see the guard method of each contract for that case.
 *
 * <p>Thread-safe (its methods are synchronized): the JUnit Platform may report tests from several
 * threads at once, as in parallel execution. It holds nothing open between runs; it writes the
 * report file when the run ends.
 */
public final class CertificationListener implements TestExecutionListener {

    /** System property naming the report file. */
    public static final String REPORT_PROPERTY = "baton.tck.report";

    /**
     * The contracts every store must pass (the duties of every store), in the order the report
     * lists them. A minor release of the TCK may add one; the report names the TCK version it ran.
     */
    public static final List<String> REQUIRED_CONTRACTS = List.of("SnapshotStoreContract", "LeaseContract",
            "ListingContract", "AgentContract", "RecoveryContract", "LifecycleContract");

    /**
     * For each capability, the contracts whose tests marked with it ({@link ProvesCapability}) prove
     * it: a store that declares the capability is certified for it when a suite of <em>each</em> of
     * these contracts ran such tests against it and none failed. {@code ProcessContract},
     * {@code MemoryStoreContract} and {@code MemoryContract} prove capabilities only; the store-clock
     * tests are part of two required contracts.
     */
    public static final Map<StoreCapability, List<String>> PROVING_CONTRACTS = Collections.unmodifiableMap(new EnumMap<>(Map.of(
            StoreCapability.SHARED, List.of("ProcessContract"),
            StoreCapability.DURABLE, List.of("ProcessContract"),
            StoreCapability.STORE_CLOCK, List.of("LeaseContract", "RecoveryContract"),
            StoreCapability.THREAD_MEMORY, List.of("MemoryStoreContract", "MemoryContract"),
            StoreCapability.NOTIFICATIONS, List.of("LifecycleContract"))));

    private TestPlan plan;
    private final Map<String, Suite> suites = new LinkedHashMap<>();

    /** Public no-argument constructor, for the service loader. */
    public CertificationListener() {
    }

    @Override
    public synchronized void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
        suites.clear();
        Certification.clear();
        for (TestIdentifier root : testPlan.getRoots()) {
            for (TestIdentifier id : testPlan.getDescendants(root)) {
                if (!id.isTest()) continue;
                Suite s = suiteOf(id);
                if (s != null) s.planned++;
            }
        }
    }

    @Override
    public synchronized void executionSkipped(TestIdentifier id, String reason) {
        if (plan == null) return;
        List<TestIdentifier> tests = new ArrayList<>();
        if (id.isTest()) tests.add(id);
        else plan.getDescendants(id).stream().filter(TestIdentifier::isTest).forEach(tests::add);
        for (TestIdentifier t : tests) {
            Suite s = suiteOf(t);
            if (s != null) s.skipped(capabilityOf(t), reason == null ? "skipped" : reason);
        }
    }

    @Override
    public synchronized void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (plan == null) return;
        Suite s = suiteOf(id);
        if (s == null) return;
        if (!id.isTest()) {
            if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                s.failed(Optional.empty(), id.getDisplayName() + " (container): " + message(result));
            }
            return;
        }
        Optional<StoreCapability> cap = capabilityOf(id);
        switch (result.getStatus()) {
            case SUCCESSFUL -> s.passed(cap);
            case ABORTED -> s.skipped(cap, message(result));
            case FAILED -> s.failed(cap, id.getDisplayName());
        }
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan testPlan) {
        if (suites.isEmpty()) return;
        String report = CertificationReport.report(suites.values(), Certification.recorded());
        PrintStream out = System.out;
        out.print(report);
        out.flush();
        Path file = reportFile();
        try {
            if (file.getParent() != null) Files.createDirectories(file.getParent());
            Files.writeString(file, report, StandardCharsets.UTF_8);
        } catch (IOException e) {
            out.println("(could not write the Baton TCK report to " + file + ": " + e + ")");
        }
    }

    private static Path reportFile() {
        String configured = System.getProperty(REPORT_PROPERTY);
        if (configured != null && !configured.isBlank()) return Path.of(configured);
        return Path.of("target", "baton-tck-certification.txt");
    }

    private static String message(TestExecutionResult result) {
        return result.getThrowable().map(t -> String.valueOf(t.getMessage()).replaceFirst("^Assumption failed: ", "").lines().findFirst().orElse(""))
                .orElse(result.getStatus().name());
    }

    // ------------------------------------------------------------------ classification

    /** The suite of a test or container: the nearest enclosing top-level class that extends a contract. */
    private Suite suiteOf(TestIdentifier id) {
        for (TestIdentifier cur = id; cur != null; cur = plan.getParent(cur).orElse(null)) {
            Optional<TestSource> src = cur.getSource();
            if (src.isPresent() && src.get() instanceof ClassSource cs) {
                Class<?> type = load(cs.getClassName());
                if (type == null || type.getEnclosingClass() != null) continue;
                Optional<Class<?>> contract = contractClass(type);
                if (contract.isEmpty()) return null;
                return suites.computeIfAbsent(type.getName(), n -> new Suite(n, type.getSimpleName(), contract.get().getSimpleName()));
            }
        }
        return null;
    }

    /** The TCK contract {@code type} extends: an abstract class of this package named {@code *Contract}. */
    private static Optional<Class<?>> contractClass(Class<?> type) {
        if (type == null || Modifier.isAbstract(type.getModifiers())) return Optional.empty();
        for (Class<?> c = type.getSuperclass(); c != null; c = c.getSuperclass()) {
            if (c.getPackageName().equals(CertificationListener.class.getPackageName())
                    && c.getSimpleName().endsWith("Contract") && Modifier.isAbstract(c.getModifiers())) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /**
     * The capability a test proves: the {@link ProvesCapability} on its method or an enclosing class.
     * A dynamic test has no method of its own: its test factory's counts.
     */
    private Optional<StoreCapability> capabilityOf(TestIdentifier id) {
        for (TestIdentifier cur = id; cur != null; cur = plan.getParent(cur).orElse(null)) {
            Optional<TestSource> src = cur.getSource();
            if (src.isEmpty()) continue;
            if (src.get() instanceof MethodSource ms) return capabilityOf(ms);
            if (src.get() instanceof ClassSource cs) return capabilityOf(load(cs.getClassName()));
        }
        return Optional.empty();
    }

    /**
     * The method's own mark, else one on the class that declares it or an enclosing class, else one
     * on the class the test ran in (a contract's {@code @Nested} class, whose rules its superclass, a
     * rule group, declares) or an enclosing class (the contract).
     */
    private static Optional<StoreCapability> capabilityOf(MethodSource ms) {
        Method m;
        try {
            m = ms.getJavaMethod();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        ProvesCapability p = m.getAnnotation(ProvesCapability.class);
        if (p != null) return Optional.of(p.value());
        Optional<StoreCapability> declared = capabilityOf(m.getDeclaringClass());
        if (declared.isPresent()) return declared;
        try {
            return capabilityOf(ms.getJavaClass());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<StoreCapability> capabilityOf(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
            ProvesCapability p = c.getAnnotation(ProvesCapability.class);
            if (p != null) return Optional.of(p.value());
        }
        return Optional.empty();
    }

    private static Class<?> load(String name) {
        try {
            ClassLoader cl = Thread.currentThread().getContextClassLoader();
            return Class.forName(name, false, cl != null ? cl : CertificationListener.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
