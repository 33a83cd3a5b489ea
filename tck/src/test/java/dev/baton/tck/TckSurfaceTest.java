package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.tck.support.StoreRules;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The TCK's public surface is its contracts and their hooks: what a store's test extends and
 * overrides. Everything else a contract uses is private, or lives in a rule group or in
 * {@code dev.baton.tck.support}, which are not API.
 */
class TckSurfaceTest {

    private static final List<Class<?>> CONTRACTS = List.of(SnapshotStoreContract.class, LeaseContract.class,
            ListingContract.class, AgentContract.class, RecoveryContract.class, LifecycleContract.class,
            ProcessContract.class, MemoryStoreContract.class, MemoryContract.class, DecisionContract.class);
    private static final Set<String> HOOKS = Set.of("openStore", "faults", "storeUrl", "storeProperties", "leaseMillis",
            "scenariosAtOnce");
    private static final String GUARD = "testRunnerRunsTheJUnitPlatform";

    private static boolean visibleToSubclasses(Member m) {
        return Modifier.isPublic(m.getModifiers()) || Modifier.isProtected(m.getModifiers());
    }

    @Test
    void aContractShowsTheTestsThatExtendItOnlyItsHooksAndItsGuard() {
        List<String> exposed = new ArrayList<>();
        for (Class<?> contract : CONTRACTS) {
            assertThat(Modifier.isAbstract(contract.getModifiers()) && Modifier.isPublic(contract.getModifiers()))
                    .as("%s is a public abstract class", contract.getSimpleName()).isTrue();
            for (Field f : contract.getDeclaredFields()) {
                if (visibleToSubclasses(f)) exposed.add(contract.getSimpleName() + "." + f.getName());
            }
            for (Method m : contract.getDeclaredMethods()) {
                if (m.isSynthetic() || !visibleToSubclasses(m)) continue;
                if (!HOOKS.contains(m.getName()) && !m.getName().equals(GUARD)) {
                    exposed.add(contract.getSimpleName() + "." + m.getName() + "()");
                }
            }
            for (Class<?> k : contract.getDeclaredClasses()) {
                if (Modifier.isPublic(k.getModifiers()) || Modifier.isProtected(k.getModifiers())) {
                    exposed.add(contract.getSimpleName() + "." + k.getSimpleName());
                }
            }
        }
        assertThat(exposed).as("fields, methods and classes a store's test could use besides the hooks").isEmpty();
    }

    @Test
    void everyGroupOfAContractIsANestedClassExtendingTheRuleGroupOfItsNameInThePackageOfTheContract() {
        for (Class<?> contract : CONTRACTS) {
            Set<String> packages = new TreeSet<>();
            for (Class<?> nested : contract.getDeclaredClasses()) {
                if (!nested.isAnnotationPresent(Nested.class)) {
                    assertThat(Modifier.isPrivate(nested.getModifiers())).as("%s, not a group, is private", nested.getName()).isTrue();
                    continue;
                }
                Class<?> group = nested.getSuperclass();
                assertThat(group.getSimpleName()).as("the rule group of %s", nested.getName()).isEqualTo(nested.getSimpleName());
                assertThat(group.getPackageName()).startsWith("dev.baton.tck.").isNotEqualTo("dev.baton.tck.support");
                assertThat(Modifier.isAbstract(group.getModifiers())).as("%s is abstract", group.getName()).isTrue();
                packages.add(group.getPackageName());
                for (Constructor<?> c : group.getDeclaredConstructors()) {
                    assertThat(Modifier.isProtected(c.getModifiers())).as("the constructor of %s is protected", group.getName())
                            .isTrue();
                }
                // up to the base every group shares (support, not API): its members are for the groups alone
                for (Class<?> k = group; k != Object.class && k != StoreRules.class; k = k.getSuperclass()) {
                    for (Field f : k.getDeclaredFields()) {
                        assertThat(visibleToSubclasses(f)).as("%s.%s is hidden", k.getName(), f.getName()).isFalse();
                    }
                    for (Method m : k.getDeclaredMethods()) {
                        assertThat(visibleToSubclasses(m)).as("%s.%s() is hidden", k.getName(), m.getName()).isFalse();
                    }
                }
            }
            assertThat(packages).as("the packages of the rule groups of %s", contract.getSimpleName())
                    .hasSizeLessThanOrEqualTo(1);
        }
    }

    @Test
    void theBaseOfEveryRuleGroupIsNotApiAndCannotBeExtendedFromOutsideTheTck() {
        assertThat(StoreRules.class.getPackageName()).isEqualTo("dev.baton.tck.support");
        assertThat(Modifier.isAbstract(StoreRules.class.getModifiers())).isTrue();
        for (Constructor<?> c : StoreRules.class.getDeclaredConstructors()) {
            assertThat(Modifier.isProtected(c.getModifiers())).as("the constructor of StoreRules is protected").isTrue();
        }
        for (Field f : StoreRules.class.getDeclaredFields()) {
            assertThat(Modifier.isPublic(f.getModifiers())).as("StoreRules.%s is not public", f.getName()).isFalse();
        }
        for (Method m : StoreRules.class.getDeclaredMethods()) {
            assertThat(Modifier.isPublic(m.getModifiers())).as("StoreRules.%s() is not public", m.getName()).isFalse();
        }
    }

    @Test
    void thePublicTypesOfTheTckAreTheContractsAndWhatTheirTestsAndTheReportNeed() throws Exception {
        Set<String> expected = new TreeSet<>(List.of("Certification", "CertificationListener", "ProvesCapability", "StoreFaults"));
        CONTRACTS.forEach(c -> expected.add(c.getSimpleName()));
        Set<String> found = new TreeSet<>();
        try (Stream<Path> files = Files.list(packageDirectory())) {
            for (Path f : files.toList()) {
                String file = f.getFileName().toString();
                if (!file.endsWith(".class") || file.contains("$") || file.equals("package-info.class")) continue;
                Class<?> type = Class.forName("dev.baton.tck." + file.substring(0, file.length() - ".class".length()));
                if (Modifier.isPublic(type.getModifiers())) found.add(type.getSimpleName());
            }
        }
        assertThat(found).isEqualTo(expected);
    }

    private static Path packageDirectory() throws URISyntaxException {
        Path root = Path.of(CertificationListener.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = root.resolve("dev/baton/tck");
        assertThat(dir).as("the TCK's classes, as a directory (the tck module's own build)").isDirectory();
        return dir;
    }
}
