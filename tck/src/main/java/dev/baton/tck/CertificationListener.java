package dev.baton.tck;

import dev.baton.store.StoreCapability;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
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
 */
public final class CertificationListener implements TestExecutionListener {

    /** System property naming the report file. */
    public static final String REPORT_PROPERTY = "baton.tck.report";

    /**
     * The contracts every store must pass, in the order the report lists them: Baton 0.2's duties.
     * Baton 0.1's were {@code SnapshotStoreContract} and {@code AgentContract}; 0.2 added the lease,
     * listing, recovery and lifecycle contracts.
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
            StoreCapability.THREAD_MEMORY, List.of("MemoryStoreContract", "MemoryContract"))));

    /** The release whose duties {@link #REQUIRED_CONTRACTS} are. */
    static final String DUTIES_OF = "Baton 0.2";
    private static final String BASE = "duties of every store";

    /** Tests passed, failed and skipped (aborted by an assumption, disabled, or filtered). */
    static final class Counts {
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

    /** One test class extending a contract, and what its tests did, by the capability they prove (none: a duty). */
    static final class Suite {
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

        void passed(Optional<StoreCapability> c) {
            all.passed++;
            counts(c).passed++;
        }

        void failed(Optional<StoreCapability> c, String test) {
            all.failed++;
            counts(c).failed++;
            failures.add(test);
        }

        void skipped(Optional<StoreCapability> c, String reason) {
            all.skipped++;
            counts(c).skipped++;
            skipReasons.add(reason);
        }

        /** True if the tests of this suite proving {@code cap} ran and none failed. */
        boolean proved(StoreCapability cap) {
            Counts c = byCapability.get(cap);
            return c != null && c.passed > 0 && c.failed == 0;
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
            if (s != null) s.skipped(capabilityOf(t), reason == null ? "skipped" : reason);
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
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
    public void testPlanExecutionFinished(TestPlan testPlan) {
        if (suites.isEmpty()) return;
        String report = report(suites.values(), Certification.recorded());
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

    /** The capabilities {@code contract} proves, if it proves capabilities only (is not required); else empty. */
    private static Set<StoreCapability> provesOnly(String contract) {
        Set<StoreCapability> caps = EnumSet.noneOf(StoreCapability.class);
        if (REQUIRED_CONTRACTS.contains(contract)) return caps;
        PROVING_CONTRACTS.forEach((cap, contracts) -> {
            if (contracts.contains(contract)) caps.add(cap);
        });
        return caps;
    }

    /**
     * The report for {@code suites}, whose stores {@code recorded} names (by suite class name). A
     * function of its arguments only, so that its rules can be tested without running contracts.
     */
    static String report(Collection<Suite> suites, Map<String, Set<Certification.StoreSeen>> recorded) {
        // which store each suite ran against, and what each store declared
        Set<String> storeClasses = new TreeSet<>();
        recorded.values().forEach(v -> v.forEach(seen -> storeClasses.add(seen.storeClass())));
        Map<String, Set<StoreCapability>> declaredBy = new TreeMap<>();
        Map<String, Set<String>> descriptionsOf = new TreeMap<>();
        for (Set<Certification.StoreSeen> v : recorded.values()) {
            for (Certification.StoreSeen seen : v) {
                declaredBy.computeIfAbsent(seen.storeClass(), k -> EnumSet.noneOf(StoreCapability.class)).addAll(seen.capabilities());
                descriptionsOf.computeIfAbsent(seen.storeClass(), k -> new TreeSet<>())
                        .add(seen.description() + " " + names(seen.capabilities()));
            }
        }
        Map<String, List<Suite>> byStore = new TreeMap<>();
        Map<Suite, Set<String>> storesOf = new LinkedHashMap<>();
        List<Suite> unattributed = new ArrayList<>();
        for (Suite s : suites) {
            Set<String> classes = new TreeSet<>();
            recorded.getOrDefault(s.className, Set.of()).forEach(x -> classes.add(x.storeClass()));
            if (classes.isEmpty() && storeClasses.size() == 1) classes.addAll(storeClasses);
            if (classes.isEmpty()) unattributed.add(s);
            storesOf.put(s, classes);
            for (String c : classes) byStore.computeIfAbsent(c, k -> new ArrayList<>()).add(s);
        }

        StringBuilder b = new StringBuilder();
        List<String> alarms = new ArrayList<>();
        b.append('\n').append(rule("Baton TCK certification")).append('\n');
        b.append("Suites (test classes extending a TCK contract):\n");
        for (Suite s : suites) {
            b.append(String.format("  %-40s %-24s %s%n", s.name, s.contract, s.all));
            Set<StoreCapability> only = provesOnly(s.contract);
            Set<StoreCapability> declared = EnumSet.noneOf(StoreCapability.class);
            storesOf.get(s).forEach(c -> declared.addAll(declaredBy.getOrDefault(c, Set.of())));
            boolean nothingToProve = !only.isEmpty() && !storesOf.get(s).isEmpty()
                    && only.stream().noneMatch(declared::contains);
            if (nothingToProve && s.all.ran() == 0 && s.failures.isEmpty()) {
                b.append("      not run: ").append(s.contract).append(" proves ").append(or(only))
                        .append(", which the store does not declare; nothing to prove, not a failure\n");
                continue;
            }
            for (String r : s.skipReasons) b.append("      skipped: ").append(r).append('\n');
            if (s.all.ran() == 0) {
                alarms.add(s.name + " (" + s.contract + ") ran none of its " + s.planned + " tests.");
            }
            for (String f : s.failures) alarms.add(s.name + ": FAILED " + f);
        }

        List<String> verdicts = new ArrayList<>();
        b.append("Stores:\n");
        for (Map.Entry<String, List<Suite>> e : byStore.entrySet()) {
            String store = e.getKey();
            List<Suite> ran = e.getValue();
            Set<StoreCapability> declared = declaredBy.getOrDefault(store, EnumSet.noneOf(StoreCapability.class));
            Set<String> descriptions = descriptionsOf.getOrDefault(store, Set.of());
            b.append("  ").append(store).append('\n');
            b.append("    declares ").append(names(declared)).append(" on:\n");
            descriptions.stream().limit(8).forEach(d -> b.append("      ").append(d).append('\n'));
            if (descriptions.size() > 8) b.append("      ... and ").append(descriptions.size() - 8).append(" more\n");

            // the duties: every required contract ran its tests (those that prove no capability), none failed
            List<String> problems = new ArrayList<>();
            Counts base = new Counts();
            ran.forEach(s -> base.add(s.base));
            List<String> missing = new ArrayList<>();
            StringBuilder lines = new StringBuilder();
            for (String contract : REQUIRED_CONTRACTS) {
                Counts c = new Counts();
                List<String> by = new ArrayList<>();
                for (Suite s : ran) {
                    if (!s.contract.equals(contract)) continue;
                    c.add(s.base);
                    by.add(s.name);
                }
                if (c.ran() == 0) {
                    missing.add(contract);
                    lines.append(String.format("      %-24s MISSING: no suite ran its tests against this store%n", contract));
                } else {
                    lines.append(String.format("      %-24s %s by %s%n", contract, c, String.join(", ", by)));
                }
            }
            if (!missing.isEmpty()) {
                problems.add("not certified for " + DUTIES_OF + "'s duties: " + areMissing(missing)
                        + " (no suite ran their tests against it)");
            }
            if (base.failed > 0) problems.add(base.failed + " test(s) of the " + BASE + " failed");
            b.append(String.format("    %-22s %-13s %s%n", BASE, problems.isEmpty() ? "CERTIFIED" : "NOT CERTIFIED", base));
            b.append(lines);

            // the capabilities: each declared one proven by every contract that proves it
            List<String> proven = new ArrayList<>();
            for (StoreCapability cap : StoreCapability.values()) {
                Counts c = new Counts();
                List<String> by = new ArrayList<>();
                Set<String> provedBy = new TreeSet<>();
                for (Suite s : ran) {
                    Counts sc = s.byCapability.get(cap);
                    if (sc == null) continue;
                    c.add(sc);
                    if (sc.ran() > 0) by.add(s.name);
                    if (s.proved(cap)) provedBy.add(s.contract);
                }
                List<String> needed = new ArrayList<>(PROVING_CONTRACTS.getOrDefault(cap, List.of()));
                needed.removeAll(provedBy);
                boolean isDeclared = declared.contains(cap);
                String status;
                String note = by.isEmpty() ? "" : " by " + String.join(", ", by);
                if (c.failed > 0) {
                    status = "FAILED";
                    problems.add(cap + ": " + c.failed + " test(s) failed");
                } else if (isDeclared && needed.isEmpty()) {
                    status = "CERTIFIED";
                    proven.add(cap.name());
                } else if (isDeclared) {
                    status = "NOT PROVEN";
                    note += (note.isEmpty() ? " " : "; ") + "needs " + and(needed);
                    problems.add(cap + " is declared but not proven: " + areMissing(needed) + " (no suite ran their "
                            + cap + " tests against it)");
                } else if (c.passed > 0) {
                    status = "passed, not declared";
                } else {
                    continue;
                }
                b.append(String.format("    %-22s %-13s %s%s%n", cap, status, c, note));
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
        if (verdicts.isEmpty()) b.append("  no store recorded: no contract suite ran a test against a store\n");
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

    /** "A is missing", "A and B are missing". */
    private static String areMissing(List<String> contracts) {
        return and(contracts) + (contracts.size() == 1 ? " is" : " are") + " missing";
    }

    /** "A", "A or B", "A, B or C". */
    private static String or(Collection<?> items) {
        return join(items, " or ");
    }

    /** "A", "A and B", "A, B and C". */
    private static String and(Collection<?> items) {
        return join(items, " and ");
    }

    private static String join(Collection<?> items, String last) {
        List<String> s = items.stream().map(String::valueOf).toList();
        if (s.size() <= 1) return String.join("", s);
        return String.join(", ", s.subList(0, s.size() - 1)) + last + s.get(s.size() - 1);
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

    private static Optional<StoreCapability> capabilityOf(MethodSource ms) {
        Method m;
        try {
            m = ms.getJavaMethod();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        ProvesCapability p = m.getAnnotation(ProvesCapability.class);
        return p != null ? Optional.of(p.value()) : capabilityOf(m.getDeclaringClass());
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
