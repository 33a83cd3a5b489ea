package dev.baton.tck;

import dev.baton.store.StoreCapability;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
 * for every store class the capabilities it declares and which of them the run proved. It warns,
 * in a box that is hard to miss, when a contract suite ran none of its tests, when a declared
 * capability was not proven, and when a test failed.
 *
 * <p>Registered through {@code META-INF/services/org.junit.platform.launcher.TestExecutionListener}
 * in the TCK jar, so Maven Surefire 3.x, Gradle and the IDEs pick it up with nothing to configure.
 * The report goes to standard output and to {@code target/baton-tck-certification.txt} (or the file
 * named by the system property {@code baton.tck.report}). A runner that does not run the JUnit
 * Platform at all never calls it: see the guard method of each contract for that case.
 */
public final class CertificationListener implements TestExecutionListener {

    /** System property naming the report file. */
    public static final String REPORT_PROPERTY = "baton.tck.report";

    /** Contracts scanned for {@link ProvesCapability}, to say which contract proves what. */
    private static final List<Class<?>> CONTRACTS = List.of(SnapshotStoreContract.class, AgentContract.class,
            ProcessContract.class, LeaseContract.class, RecoveryContract.class, ListingContract.class,
            MemoryStoreContract.class, LifecycleContract.class, MemoryContract.class);
    /** The contracts every store must pass. */
    private static final List<String> REQUIRED = List.of("SnapshotStoreContract", "AgentContract");
    private static final String BASE = "duties of every store";

    private static final class Counts {
        int passed;
        int failed;
        int skipped;

        void add(Counts o) {
            passed += o.passed;
            failed += o.failed;
            skipped += o.skipped;
        }

        int ran() {
            return passed + failed;
        }

        @Override
        public String toString() {
            return passed + " passed / " + failed + " failed / " + skipped + " skipped";
        }
    }

    private static final class Suite {
        final String className;
        final String name;
        final String contract;
        final Counts all = new Counts();
        final Counts base = new Counts();
        final Map<StoreCapability, Counts> byCapability = new EnumMap<>(StoreCapability.class);
        final Set<String> skipReasons = new TreeSet<>();
        final List<String> failures = new ArrayList<>();
        int planned;

        Suite(String className, String name, String contract) {
            this.className = className;
            this.name = name;
            this.contract = contract;
        }

        Counts counts(Optional<StoreCapability> c) {
            return c.map(cap -> byCapability.computeIfAbsent(cap, k -> new Counts())).orElse(base);
        }
    }

    private TestPlan plan;
    private final Map<String, Suite> suites = new LinkedHashMap<>();

    /** Public no-argument constructor, for the service loader. */
    public CertificationListener() {
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
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
    public void executionSkipped(TestIdentifier id, String reason) {
        if (plan == null) return;
        List<TestIdentifier> tests = new ArrayList<>();
        if (id.isTest()) tests.add(id);
        else plan.getDescendants(id).stream().filter(TestIdentifier::isTest).forEach(tests::add);
        for (TestIdentifier t : tests) {
            Suite s = suiteOf(t);
            if (s == null) continue;
            s.all.skipped++;
            s.counts(capabilityOf(t)).skipped++;
            s.skipReasons.add(reason == null ? "skipped" : reason);
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (plan == null) return;
        Suite s = suiteOf(id);
        if (s == null) return;
        if (!id.isTest()) {
            if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                s.all.failed++;
                s.base.failed++;
                s.failures.add(id.getDisplayName() + " (container): " + message(result));
            }
            return;
        }
        Counts c = s.counts(capabilityOf(id));
        switch (result.getStatus()) {
            case SUCCESSFUL -> {
                s.all.passed++;
                c.passed++;
            }
            case ABORTED -> {
                s.all.skipped++;
                c.skipped++;
                s.skipReasons.add(message(result));
            }
            case FAILED -> {
                s.all.failed++;
                c.failed++;
                s.failures.add(id.getDisplayName());
            }
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        if (suites.isEmpty()) return;
        String report = report();
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

    // ------------------------------------------------------------------ the report

    private String report() {
        StringBuilder b = new StringBuilder();
        List<String> alarms = new ArrayList<>();
        b.append('\n').append(rule("Baton TCK certification")).append('\n');
        b.append("Suites (test classes extending a TCK contract):\n");
        for (Suite s : suites.values()) {
            b.append(String.format("  %-40s %-24s %s%n", s.name, s.contract, s.all));
            for (String r : s.skipReasons) b.append("      skipped: ").append(r).append('\n');
            if (s.all.ran() == 0) {
                alarms.add(s.name + " (" + s.contract + ") ran none of its " + s.planned + " tests.");
            }
            for (String f : s.failures) alarms.add(s.name + ": FAILED " + f);
        }

        Map<String, Set<Certification.StoreSeen>> recorded = Certification.recorded();
        Map<String, List<Suite>> byStore = new TreeMap<>();
        Set<String> storeClasses = new TreeSet<>();
        recorded.values().forEach(v -> v.forEach(seen -> storeClasses.add(seen.storeClass())));
        List<Suite> unattributed = new ArrayList<>();
        for (Suite s : suites.values()) {
            Set<Certification.StoreSeen> seen = recorded.getOrDefault(s.className, Set.of());
            Set<String> classes = new TreeSet<>();
            seen.forEach(x -> classes.add(x.storeClass()));
            if (classes.isEmpty() && storeClasses.size() == 1) classes.addAll(storeClasses);
            if (classes.isEmpty()) unattributed.add(s);
            for (String c : classes) byStore.computeIfAbsent(c, k -> new ArrayList<>()).add(s);
        }

        Map<StoreCapability, Set<String>> provers = provers();
        List<String> verdicts = new ArrayList<>();
        b.append("Stores:\n");
        for (Map.Entry<String, List<Suite>> e : byStore.entrySet()) {
            String store = e.getKey();
            Set<StoreCapability> declared = EnumSet.noneOf(StoreCapability.class);
            Set<String> descriptions = new LinkedHashSet<>();
            for (Set<Certification.StoreSeen> v : recorded.values()) {
                for (Certification.StoreSeen seen : v) {
                    if (!seen.storeClass().equals(store)) continue;
                    declared.addAll(seen.capabilities());
                    descriptions.add(seen.description() + " " + names(seen.capabilities()));
                }
            }
            b.append("  ").append(store).append('\n');
            b.append("    declares ").append(names(declared)).append(" on:\n");
            descriptions.stream().limit(8).forEach(d -> b.append("      ").append(d).append('\n'));
            if (descriptions.size() > 8) b.append("      ... and ").append(descriptions.size() - 8).append(" more\n");

            List<String> problems = new ArrayList<>();
            Counts base = new Counts();
            Set<String> contracts = new TreeSet<>();
            for (Suite s : e.getValue()) {
                base.add(s.base);
                if (s.base.ran() > 0) contracts.add(s.contract);
            }
            for (String required : REQUIRED) {
                if (!contracts.contains(required)) problems.add("no " + required + " suite ran tests against it");
            }
            if (base.failed > 0) problems.add(base.failed + " test(s) of the " + BASE + " failed");
            b.append(String.format("    %-22s %-12s %s%n", BASE, problems.isEmpty() ? "CERTIFIED" : "NOT CERTIFIED", base));
            List<String> proven = new ArrayList<>();
            for (StoreCapability cap : StoreCapability.values()) {
                Counts c = new Counts();
                List<String> by = new ArrayList<>();
                for (Suite s : e.getValue()) {
                    Counts sc = s.byCapability.get(cap);
                    if (sc == null) continue;
                    c.add(sc);
                    if (sc.ran() > 0) by.add(s.name);
                }
                boolean isDeclared = declared.contains(cap);
                String status;
                if (c.failed > 0) {
                    status = "FAILED";
                    problems.add(cap + ": " + c.failed + " test(s) failed");
                } else if (c.passed > 0 && isDeclared) {
                    status = "CERTIFIED";
                    proven.add(cap.name());
                } else if (c.passed > 0) {
                    status = "passed, not declared";
                } else if (isDeclared) {
                    status = "NOT PROVEN";
                    problems.add(cap + " is declared but no test proved it (it takes "
                            + String.join(" or ", provers.getOrDefault(cap, Set.of("a contract that proves it"))) + ")");
                } else {
                    continue;
                }
                b.append(String.format("    %-22s %-12s %s%s%n", cap, status, c, by.isEmpty() ? "" : " by " + String.join(", ", by)));
            }
            String verdict = problems.isEmpty()
                    ? "CERTIFIED: " + store + " (" + BASE + (proven.isEmpty() ? "" : "; " + String.join(", ", proven)) + ")"
                    : "NOT CERTIFIED: " + store + ": " + String.join("; ", problems);
            verdicts.add(verdict);
            if (!problems.isEmpty()) alarms.add(verdict);
        }
        if (!unattributed.isEmpty()) {
            b.append("  (suites whose store the TCK could not see: ");
            b.append(String.join(", ", unattributed.stream().map(s -> s.name).toList())).append(")\n");
        }
        b.append("Result:\n");
        for (String v : verdicts) b.append("  ").append(v).append('\n');
        if (verdicts.isEmpty()) b.append("  no store recorded: no suite of SnapshotStoreContract or ProcessContract ran\n");
        b.append(rule("")).append('\n');
        if (!alarms.isEmpty()) {
            String bang = "!".repeat(100);
            b.append(bang).append('\n');
            b.append("!!! BATON TCK WARNING: this run does not certify what it may seem to.\n");
            for (String a : alarms) b.append("!!! ").append(a).append('\n');
            b.append(bang).append('\n');
        }
        return b.toString();
    }

    private static String rule(String title) {
        String head = title.isEmpty() ? "" : "=== " + title + " ";
        return head + "=".repeat(Math.max(3, 100 - head.length()));
    }

    private static String names(Set<StoreCapability> caps) {
        return caps.isEmpty() ? "[no capabilities]" : EnumSet.copyOf(caps).toString();
    }

    /** Which contract proves which capability, read from the {@link ProvesCapability} marks. */
    private Map<StoreCapability, Set<String>> provers() {
        Set<Class<?>> contracts = new LinkedHashSet<>(CONTRACTS);
        for (Suite s : suites.values()) contractClass(load(s.className)).ifPresent(contracts::add);
        Map<StoreCapability, Set<String>> m = new EnumMap<>(StoreCapability.class);
        for (Class<?> c : contracts) {
            List<Class<?>> all = new ArrayList<>(List.of(c));
            all.addAll(List.of(c.getDeclaredClasses()));
            for (Class<?> k : all) {
                List<AnnotatedElement> marked = new ArrayList<>(List.of(k.getDeclaredMethods()));
                marked.add(k);
                for (AnnotatedElement el : marked) {
                    ProvesCapability p = el.getAnnotation(ProvesCapability.class);
                    if (p != null) m.computeIfAbsent(p.value(), x -> new TreeSet<>()).add(c.getSimpleName());
                }
            }
        }
        return m;
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

    private static Optional<StoreCapability> capabilityOf(TestIdentifier id) {
        Optional<TestSource> src = id.getSource();
        if (src.isEmpty() || !(src.get() instanceof MethodSource ms)) return Optional.empty();
        Method m;
        try {
            m = ms.getJavaMethod();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        ProvesCapability p = m.getAnnotation(ProvesCapability.class);
        for (Class<?> c = m.getDeclaringClass(); p == null && c != null; c = c.getEnclosingClass()) {
            p = c.getAnnotation(ProvesCapability.class);
        }
        return Optional.ofNullable(p).map(ProvesCapability::value);
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
