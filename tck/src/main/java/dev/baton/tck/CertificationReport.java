package dev.baton.tck;

import dev.baton.store.StoreCapability;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The certification report: what the suites of a run did, by store, against the duties of every
 * store and the capabilities each store declares. A function of what {@link CertificationListener}
 * counted and {@link Certification} recorded, so that its rules can be tested without running
 * contracts.
 */
final class CertificationReport {

    /** What the report calls the tests every store must pass (the required contracts' tests that prove no capability). */
    static final String BASE = "duties of every store";

    /** The version of this TCK, as its build wrote it, or {@code "(version unknown)"}. */
    static final String TCK_VERSION = tckVersion();

    private CertificationReport() {
    }

    /**
     * The version of a store's implementation: its jar's {@code Implementation-Version}, else the jar's
     * file name, else where its classes were loaded from (a build's own classes carry no version).
     */
    static String versionOf(String storeClass) {
        try {
            Class<?> c = Class.forName(storeClass, false, Thread.currentThread().getContextClassLoader());
            String v = c.getPackage() == null ? null : c.getPackage().getImplementationVersion();
            if (v != null) return v;
            java.security.CodeSource src = c.getProtectionDomain().getCodeSource();
            if (src == null || src.getLocation() == null) return "unknown";
            String where = src.getLocation().getPath();
            return where.endsWith(".jar") ? where.substring(where.lastIndexOf('/') + 1) : "unknown (classes of " + where + ")";
        } catch (ClassNotFoundException | LinkageError | SecurityException e) {
            return "unknown";
        }
    }

    private static String tckVersion() {
        try (InputStream in = CertificationReport.class.getResourceAsStream("tck.properties")) {
            if (in == null) return "(version unknown)";
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "");
            return v.isBlank() || v.startsWith("${") ? "(version unknown)" : v;
        } catch (IOException e) {
            return "(version unknown)";
        }
    }

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


    /** The capabilities {@code contract} proves, if it proves capabilities only (is not required); else empty. */
    private static Set<StoreCapability> provesOnly(String contract) {
        Set<StoreCapability> caps = EnumSet.noneOf(StoreCapability.class);
        if (CertificationListener.REQUIRED_CONTRACTS.contains(contract)) return caps;
        CertificationListener.PROVING_CONTRACTS.forEach((cap, contracts) -> {
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
        b.append('\n').append(rule("Baton TCK certification (baton-tck " + TCK_VERSION + ")")).append('\n');
        b.append("Run ").append(java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)).append(" on Java ")
                .append(System.getProperty("java.version")).append(" (").append(System.getProperty("java.vendor")).append(", ")
                .append(System.getProperty("os.name")).append(")\n");
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
            b.append("    version ").append(versionOf(store)).append('\n');
            b.append("    declares ").append(names(declared)).append(" on:\n");
            descriptions.stream().limit(8).forEach(d -> b.append("      ").append(d).append('\n'));
            if (descriptions.size() > 8) b.append("      ... and ").append(descriptions.size() - 8).append(" more\n");

            // the duties: every required contract ran its tests (those that prove no capability), none failed
            List<String> problems = new ArrayList<>();
            Counts base = new Counts();
            ran.forEach(s -> base.add(s.base));
            List<String> missing = new ArrayList<>();
            StringBuilder lines = new StringBuilder();
            for (String contract : CertificationListener.REQUIRED_CONTRACTS) {
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
                problems.add("not certified for the " + BASE + ": " + areMissing(missing)
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
                List<String> needed = new ArrayList<>(CertificationListener.PROVING_CONTRACTS.getOrDefault(cap, List.of()));
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
}
