package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.StoreCapability;
import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The rules of the certification report, on made-up suite results: which contracts every store
 * must pass, which prove which capability, and how a suite for a capability the store does not
 * declare is reported.
 */
class CertificationListenerTest {

    private static final String STORE = "com.example.MyStore";
    private static final List<Class<?>> CONTRACTS = List.of(SnapshotStoreContract.class, LeaseContract.class,
            ListingContract.class, AgentContract.class, RecoveryContract.class, LifecycleContract.class,
            ProcessContract.class, MemoryStoreContract.class, MemoryContract.class, DecisionContract.class);

    private final List<CertificationReport.Suite> suites = new ArrayList<>();
    private final Map<String, Set<Certification.StoreSeen>> recorded = new LinkedHashMap<>();
    private Set<StoreCapability> declared = EnumSet.noneOf(StoreCapability.class);

    /** A suite of {@code contract} against the store, with {@code passed} duty tests passed. */
    private CertificationReport.Suite suite(String contract, int passed) {
        String name = "My" + contract.replace("Contract", "Test");
        CertificationReport.Suite s = new CertificationReport.Suite("com.example." + name, name, contract);
        for (int i = 0; i < passed; i++) s.passed(Optional.empty());
        suites.add(s);
        recorded.put(s.className, Set.of(new Certification.StoreSeen(STORE, "my store", declared)));
        return s;
    }

    private void every(String... contracts) {
        for (String c : contracts) suite(c, 3);
    }

    private void everyRequired() {
        every(CertificationListener.REQUIRED_CONTRACTS.toArray(String[]::new));
    }

    private static void times(int n, Runnable r) {
        for (int i = 0; i < n; i++) r.run();
    }

    private String report() {
        return CertificationReport.report(suites, recorded);
    }

    @Nested
    class Duties {

        @Test
        void aStoreThatRanEveryRequiredContractIsCertifiedForTheDuties() {
            everyRequired();
            String report = report();
            assertThat(report).contains("CERTIFIED: " + STORE + " (duties of every store)")
                    .contains("LeaseContract            3 passed / 0 failed / 0 skipped by MyLeaseTest")
                    .doesNotContain("MISSING").doesNotContain("WARNING");
        }

        @Test
        void aStoreThatLeftOutRequiredContractsIsNotCertifiedAndTheMissingOnesAreNamed() {
            declared = EnumSet.of(StoreCapability.SHARED, StoreCapability.DURABLE);
            every("SnapshotStoreContract", "AgentContract");
            CertificationReport.Suite process = suite("ProcessContract", 0);
            times(6, () -> process.passed(Optional.of(StoreCapability.DURABLE)));
            String report = report();
            assertThat(report).contains("NOT CERTIFIED: " + STORE + ": not certified for the duties of every store: LeaseContract,"
                    + " ListingContract, RecoveryContract and LifecycleContract are missing (no suite ran their tests against it)");
            assertThat(report).contains("ListingContract          MISSING: no suite ran its tests against this store")
                    .contains("!!! NOT CERTIFIED: " + STORE);
        }

        @Test
        void theReportNamesTheVersionOfTheTckWhoseDutiesItChecked() {
            everyRequired();
            assertThat(CertificationReport.TCK_VERSION).as("the version the build wrote into tck.properties")
                    .matches("\\d+\\.\\d+\\.\\d+.*");
            assertThat(report()).contains("=== Baton TCK certification (baton-tck " + CertificationReport.TCK_VERSION + ") ===")
                    .doesNotContain("Baton 0.");
        }

        @Test
        void aFailedDutyFailsTheCertification() {
            everyRequired();
            suites.get(2).failed(Optional.empty(), "aCursorContinuesStrictlyAfterTheLastRun");
            assertThat(report()).contains("NOT CERTIFIED: " + STORE + ": 1 test(s) of the duties of every store failed")
                    .contains("!!! MyListingTest: FAILED aCursorContinuesStrictlyAfterTheLastRun");
        }

        @Test
        void aRequiredSuiteThatRanNoneOfItsTestsSoundsTheAlarmAndCountsAsMissing() {
            everyRequired();
            CertificationReport.Suite lifecycle = suites.get(5);
            lifecycle.all.passed = 0;
            lifecycle.base.passed = 0;
            lifecycle.planned = 14;
            times(14, () -> lifecycle.skipped(Optional.empty(), "filtered"));
            assertThat(report()).contains("!!! MyLifecycleTest (LifecycleContract) ran none of its 14 tests.")
                    .contains("not certified for the duties of every store: LifecycleContract is missing");
        }
    }

    @Nested
    class Capabilities {

        @Test
        void aDeclaredCapabilityIsCertifiedWhenASuiteOfEveryContractProvingItRan() {
            declared = EnumSet.of(StoreCapability.THREAD_MEMORY, StoreCapability.STORE_CLOCK);
            everyRequired();
            suites.get(1).passed(Optional.of(StoreCapability.STORE_CLOCK));
            suites.get(4).passed(Optional.of(StoreCapability.STORE_CLOCK));
            times(15, () -> suite("MemoryStoreContract", 0).passed(Optional.of(StoreCapability.THREAD_MEMORY)));
            suite("MemoryContract", 0).passed(Optional.of(StoreCapability.THREAD_MEMORY));
            assertThat(report()).contains("CERTIFIED: " + STORE + " (duties of every store; STORE_CLOCK, THREAD_MEMORY)")
                    .doesNotContain("WARNING");
        }

        @Test
        void aDeclaredCapabilityProvenByOnlySomeOfItsContractsIsNotProvenAndTheMissingOnesAreNamed() {
            declared = EnumSet.of(StoreCapability.THREAD_MEMORY);
            everyRequired();
            suite("MemoryStoreContract", 0).passed(Optional.of(StoreCapability.THREAD_MEMORY));
            assertThat(report()).contains("THREAD_MEMORY          NOT PROVEN")
                    .contains("NOT CERTIFIED: " + STORE + ": THREAD_MEMORY is declared but not proven: MemoryContract is missing"
                            + " (no suite ran their THREAD_MEMORY tests against it)");
        }

        @Test
        void theStoreClockTakesItsTestsInBothTheLeaseAndTheRecoveryContract() {
            declared = EnumSet.of(StoreCapability.STORE_CLOCK);
            everyRequired();
            suites.get(1).passed(Optional.of(StoreCapability.STORE_CLOCK));
            suites.get(4).skipped(Optional.of(StoreCapability.STORE_CLOCK), "filtered");
            assertThat(report()).contains("STORE_CLOCK is declared but not proven: RecoveryContract is missing");
        }

        @Test
        void aSuiteForACapabilityTheStoreDoesNotDeclareIsReportedAsNotRunAndNotAsAFailure() {
            everyRequired();
            CertificationReport.Suite memory = suite("MemoryStoreContract", 0);
            memory.planned = 15;
            times(15, () -> memory.skipped(Optional.of(StoreCapability.THREAD_MEMORY), "the store has no thread memory"));
            CertificationReport.Suite process = suite("ProcessContract", 0);
            times(6, () -> process.skipped(Optional.of(StoreCapability.DURABLE), "the store does not declare DURABLE"));
            String report = report();
            assertThat(report).contains("not run: MemoryStoreContract proves THREAD_MEMORY, which the store does not declare;"
                            + " nothing to prove, not a failure")
                    .contains("not run: ProcessContract proves SHARED or DURABLE, which the store does not declare")
                    .contains("CERTIFIED: " + STORE + " (duties of every store)")
                    .doesNotContain("ran none of its").doesNotContain("WARNING");
        }

        @Test
        void aCapabilitySuiteThatRanNothingForAStoreThatDeclaresTheCapabilitySoundsTheAlarm() {
            declared = EnumSet.of(StoreCapability.THREAD_MEMORY);
            everyRequired();
            CertificationReport.Suite memory = suite("MemoryStoreContract", 0);
            times(15, () -> memory.skipped(Optional.of(StoreCapability.THREAD_MEMORY), "filtered"));
            assertThat(report()).contains("!!! MyMemoryStoreTest (MemoryStoreContract) ran none of its");
        }
    }

    @Nested
    class TheMapping {

        @Test
        void everyContractIsEitherRequiredOrProvesCapabilitiesOnly() {
            Set<String> named = new TreeSet<>(CertificationListener.REQUIRED_CONTRACTS);
            CertificationListener.PROVING_CONTRACTS.values().forEach(named::addAll);
            assertThat(named).isEqualTo(new TreeSet<>(CONTRACTS.stream().map(Class::getSimpleName).toList()));
        }

        @Test
        void theCapabilityMappingIsExactlyWhatTheContractsMarkWithProvesCapability() {
            Map<StoreCapability, Set<String>> marked = new EnumMap<>(StoreCapability.class);
            for (Class<?> contract : CONTRACTS) {
                List<Class<?>> classes = new ArrayList<>(List.of(contract));
                for (Class<?> nested : contract.getDeclaredClasses()) {
                    // a @Nested group and the rule group it extends, with that group's own base classes
                    for (Class<?> k = nested; k != null && k != Object.class; k = k.getSuperclass()) classes.add(k);
                }
                for (Class<?> k : classes) {
                    List<AnnotatedElement> elements = new ArrayList<>(List.of(k.getDeclaredMethods()));
                    elements.add(k);
                    for (AnnotatedElement el : elements) {
                        ProvesCapability p = el.getAnnotation(ProvesCapability.class);
                        if (p != null) marked.computeIfAbsent(p.value(), x -> new TreeSet<>()).add(contract.getSimpleName());
                    }
                }
            }
            Map<StoreCapability, Set<String>> mapping = new EnumMap<>(StoreCapability.class);
            CertificationListener.PROVING_CONTRACTS.forEach((cap, contracts) -> mapping.put(cap, new TreeSet<>(contracts)));
            assertThat(marked).isEqualTo(mapping);
        }
    }
}
