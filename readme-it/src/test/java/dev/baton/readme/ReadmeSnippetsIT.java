package dev.baton.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import dev.baton.tck.CertificationListener;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Builds the documented snippets, as pasted, the way a newcomer would: the README's quickstart (pom
 * and program), and the pom and test classes of docs/certification.md (with the file store of
 * {@code examples-filestore} as the third party's store). Each runs in a fresh project under
 * {@code target/readme-it}, with Maven 3.8 (the machine's {@code mvn}) and Maven 3.9 (the
 * wrapper's), offline, against a local repository holding the freshly built Baton artifacts. The
 * user's own local repository is only read, as a {@code file:} mirror; nothing is installed into it.
 *
 * <p>docs/certification.md shows two test classes and names the others in its table of the
 * contracts; this test writes those as the page says (see {@link #certificationTests()}), checks the
 * table's test counts against the report of the run, and checks the sample report the page shows
 * against it too.
 *
 * <p>The builds are independent projects in folders of their own, so they run at the same time
 * (JUnit's parallel execution, enabled in this module's pom): the Maven 3.8 certification run and
 * the sample report check that reads its report, in this order, beside the other builds.
 *
 * <p>Run it with {@code ./mvnw -B -pl readme-it -am verify} (about two minutes).
 */
@Execution(ExecutionMode.CONCURRENT)
class ReadmeSnippetsIT {

    private static final Path ROOT = Path.of(System.getProperty("baton.root", "..")).toAbsolutePath().normalize();
    private static final String VERSION = System.getProperty("baton.version", "0.1.0-SNAPSHOT");
    private static final Path WORK = Path.of("target", "readme-it").toAbsolutePath();
    private static final Path REPO = WORK.resolve("repository");
    private static final Path SETTINGS = WORK.resolve("settings.xml");
    private static String readme;
    private static String certification;
    private static Path maven38;
    private static Path maven39;

    @BeforeAll
    static void prepare() throws Exception {
        readme = Files.readString(ROOT.resolve("README.md"));
        certification = Files.readString(ROOT.resolve(CERTIFICATION_DOC));
        Files.createDirectories(REPO);
        for (String module : List.of("core", "tck", "storage-memory")) {
            Path jar = ROOT.resolve(module).resolve("target").resolve("baton-" + module + "-" + VERSION + ".jar");
            if (!Files.isRegularFile(jar)) {
                throw new AssertionError(jar + " is missing: build the modules first, e.g. ./mvnw -B -pl readme-it -am verify");
            }
            deploy("baton-" + module, ROOT.resolve(module).resolve("pom.xml"), jar);
        }
        deploy("baton-parent", ROOT.resolve("pom.xml"), null);
        deploy("baton-bom", ROOT.resolve("bom").resolve("pom.xml"), null);

        Path userRepo = Path.of(System.getProperty("outer.local.repository",
                System.getProperty("user.home") + "/.m2/repository")).toAbsolutePath();
        Files.writeString(SETTINGS, """
                <settings>
                  <!-- every repository is the user's local repository, read as a file: URL; never written -->
                  <mirrors>
                    <mirror><id>user-local-repository</id><mirrorOf>*</mirrorOf><url>%s</url></mirror>
                  </mirrors>
                </settings>
                """.formatted(userRepo.toUri()));

        maven38 = findMaven("3.8.");
        maven39 = findMaven("3.9.");
    }

    /** Copies a module's pom (and jar) into {@link #REPO} in the repository layout, as {@code install} would. */
    private static void deploy(String artifactId, Path pom, Path jar) throws IOException {
        Path dir = REPO.resolve("dev/baton").resolve(artifactId).resolve(VERSION);
        Files.createDirectories(dir);
        Files.copy(pom, dir.resolve(artifactId + "-" + VERSION + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        if (jar != null) Files.copy(jar, dir.resolve(artifactId + "-" + VERSION + ".jar"), StandardCopyOption.REPLACE_EXISTING);
    }

    /** A Maven home whose version starts with {@code prefix}: the outer build's, the machine's, or the wrapper's. */
    private static Path findMaven(String prefix) throws Exception {
        List<Path> candidates = new ArrayList<>();
        String outer = System.getProperty("outer.maven.home");
        if (outer != null && !outer.isBlank()) candidates.add(Path.of(outer));
        candidates.add(Path.of("/usr/share/maven"));
        Path dists = Path.of(System.getProperty("user.home"), ".m2", "wrapper", "dists");
        if (Files.isDirectory(dists)) {
            try (Stream<Path> s = Files.find(dists, 3, (p, a) -> Files.isRegularFile(p.resolve("bin/mvn")))) {
                s.sorted().forEach(candidates::add);
            }
        }
        List<String> seen = new ArrayList<>();
        for (Path home : candidates) {
            Path mvn = home.resolve("bin/mvn");
            if (!Files.isExecutable(mvn)) continue;
            Result v = run(WORK, List.of(mvn.toString(), "-v"), "mvn-version", 60);
            Matcher m = Pattern.compile("Apache Maven (\\S+)").matcher(v.output);
            if (!m.find()) continue;
            seen.add(m.group(1) + " at " + home);
            if (m.group(1).startsWith(prefix)) return mvn;
        }
        throw new AssertionError("No Maven " + prefix + "x found (found: " + seen + "). Install Debian's maven (3.8) and run"
                + " the build with ./mvnw once (3.9).");
    }

    // ------------------------------------------------------------------ parsing the documents

    private static final String CERTIFICATION_DOC = "docs/certification.md";
    /** The section of docs/certification.md with the pom and the test classes to paste. */
    private static final String CERTIFICATION = "Certify a store: the pom and the test classes";
    /** The section of docs/certification.md with the table of the contracts (its number may change). */
    private static final Pattern CONTRACTS = Pattern.compile("(\\d+\\. )?The contracts, and the test classes to write");

    /** The section of {@code doc} (named {@code name}, for messages) whose heading matches {@code heading}, up to the next section. */
    private static String section(String doc, String name, Pattern heading) {
        Matcher m = Pattern.compile("(?m)^## " + heading.pattern() + "$").matcher(doc);
        assertThat(m.find()).as("%s: a section '## %s'", name, heading.pattern()).isTrue();
        int start = m.start();
        int end = doc.indexOf("\n## ", m.end());
        return doc.substring(start, end < 0 ? doc.length() : end);
    }

    private static String readmeSection(String heading) {
        return section(readme, "README.md", Pattern.compile(Pattern.quote(heading)));
    }

    private static String certificationSection() {
        return section(certification, CERTIFICATION_DOC, Pattern.compile(Pattern.quote(CERTIFICATION)));
    }

    /** The fenced code blocks of {@code lang} in {@code section}. */
    private static List<String> blocks(String section, String lang) {
        List<String> found = new ArrayList<>();
        Matcher m = Pattern.compile("```" + lang + "\\n(.*?)```", Pattern.DOTALL).matcher(section);
        while (m.find()) found.add(m.group(1));
        return found;
    }

    private static String quickstartPom() {
        return checkedVersion(blocks(readmeSection("Quickstart"), "xml").get(0));
    }

    private static String certificationPom() {
        return checkedVersion(blocks(certificationSection(), "xml").get(0));
    }

    private static String checkedVersion(String pom) {
        assertThat(pom).as("the documented poms name the version being built (scripts/set-version changes them)")
                .contains("<artifactId>baton-bom</artifactId><version>" + VERSION + "</version>");
        return pom;
    }

    /** The Java sources of {@code section}, keyed by the public class each declares. */
    private static Map<String, String> javaFiles(String section) {
        Map<String, String> files = new LinkedHashMap<>();
        for (String block : blocks(section, "java")) {
            Matcher m = Pattern.compile("public class (\\w+)").matcher(block);
            assertThat(m.find()).as("a public class in %s", block).isTrue();
            files.put(m.group(1), block);
        }
        return files;
    }

    // ------------------------------------------------------------------ projects

    private static Path quickstartProject(String name) throws IOException {
        Path dir = fresh(name);
        Files.writeString(dir.resolve("pom.xml"), quickstartPom());
        Map<String, String> java = javaFiles(readmeSection("Quickstart"));
        assertThat(java).containsOnlyKeys("Quickstart");
        write(dir.resolve("src/main/java/Quickstart.java"), java.get("Quickstart"));
        return dir;
    }

    /** One row of the table of the contracts: the contract, its test count, and the test class that runs it. */
    record ContractRow(String contract, int tests, String testClass) {
    }

    /**
     * The table of the contracts in docs/certification.md: each row starts with the contract and its
     * test count, and ends with the test class to write.
     */
    private static List<ContractRow> contractTable() {
        String section = section(certification, CERTIFICATION_DOC, CONTRACTS);
        Matcher m = Pattern.compile("(?m)^\\| `(\\w+Contract)` \\| (\\d+) \\|.*\\| `(\\w+Test)` \\|\\s*$").matcher(section);
        List<ContractRow> rows = new ArrayList<>();
        while (m.find()) rows.add(new ContractRow(m.group(1), Integer.parseInt(m.group(2)), m.group(3)));
        return rows;
    }

    /**
     * The test classes of docs/certification.md: those it shows, as pasted, and for every other row
     * of its table of the contracts the class it says to write: the {@code openStore()} snippet with
     * the row's class name and contract instead of {@code MySnapshotStoreTest} and
     * {@code SnapshotStoreContract}.
     */
    private static Map<String, String> certificationTests() {
        Map<String, String> files = javaFiles(certificationSection());
        String template = files.get("MySnapshotStoreTest");
        assertThat(template).as("the openStore() snippet of docs/certification.md").contains("extends SnapshotStoreContract");
        for (ContractRow row : contractTable()) {
            if (files.containsKey(row.testClass())) {
                assertThat(files.get(row.testClass())).as("the snippet of %s", row.testClass()).contains("extends " + row.contract());
                continue;
            }
            files.put(row.testClass(), template.replace("SnapshotStoreContract", row.contract())
                    .replace("MySnapshotStoreTest", row.testClass()));
        }
        return files;
    }

    /** The certification snippets around the example file store's sources, as a third party's project. */
    private static Path certificationProject(String name, String pom, boolean publicClasses) throws IOException {
        Path dir = fresh(name);
        Files.writeString(dir.resolve("pom.xml"), pom);
        Path store = ROOT.resolve("examples-filestore/src/main");
        try (Stream<Path> files = Files.walk(store)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path target = dir.resolve("src/main").resolve(store.relativize(f).toString());
                Files.createDirectories(target.getParent());
                Files.copy(f, target);
            }
        }
        for (Map.Entry<String, String> test : certificationTests().entrySet()) {
            String src = test.getValue();
            write(dir.resolve("src/test/java/" + test.getKey() + ".java"), publicClasses ? src : src.replace("public class", "class"));
        }
        return dir;
    }

    private static Path fresh(String name) throws IOException {
        Path dir = WORK.resolve(name);
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
            }
        }
        Files.createDirectories(dir);
        return dir;
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    // ------------------------------------------------------------------ running Maven

    /**
     * The JVM options of the inner Maven processes (not of the tests they fork): a build of a few
     * seconds spends much of its CPU time in the C2 compiler and the parallel collector's threads,
     * on a machine the outer build already keeps busy; C1 alone and the serial collector do the same
     * build with less. They change nothing a check reads.
     */
    static final String INNER_MAVEN_OPTS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto";

    record Result(int exit, String output, Path log) {
        String tail() {
            List<String> lines = output.lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        }
    }

    private static Result mvn(Path mvn, Path project, String name, String... goals) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(mvn.toString(), "-B", "-o", "-U", "-Daether.offline.protocols=file",
                "-s", SETTINGS.toString(), "-Dmaven.repo.local=" + REPO));
        cmd.addAll(List.of(goals));
        return run(project, cmd, name, 600);
    }

    private static Result run(Path dir, List<String> cmd, String name, int timeoutSeconds) throws Exception {
        Files.createDirectories(WORK);
        Path log = WORK.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        // not the outer build's options, but those of a short build: see INNER_MAVEN_OPTS
        pb.environment().put("MAVEN_OPTS", INNER_MAVEN_OPTS);
        pb.environment().remove("MAVEN_ARGS");
        pb.environment().remove("MAVEN_CONFIG");
        long start = System.nanoTime();
        Process p = pb.start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " did not finish in " + timeoutSeconds + " s; see " + log);
        }
        System.out.printf("readme-it: %s took %d s%n", name, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start));
        return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8), log);
    }

    private static void succeeded(Result r) {
        assertThat(r.exit()).as("exit code of the build (log %s):%n%s", r.log(), r.tail()).isZero();
    }

    private static void quickstartRuns(Path mvn, String name) throws Exception {
        Result r = mvn(mvn, quickstartProject(name), name, "-q", "compile", "exec:java");
        succeeded(r);
        assertThat(r.output()).as("the quickstart's output (%s)", r.log())
                .contains("SUSPENDED").contains(" waits for bookFlight ").contains("tool-result").contains("finish");
    }

    /**
     * The numbers of a certification report, by line: {@code suite XContract}, {@code duties},
     * {@code duty XContract}, {@code capability X}, each to its verdict (if any) and its number of
     * tests (passed + failed + skipped).
     */
    static Map<String, String> reportNumbers(String report) {
        Map<String, String> numbers = new LinkedHashMap<>();
        String counts = "(\\d+) passed / (\\d+) failed / (\\d+) skipped";
        Matcher m = Pattern.compile("(?m)^  \\w+ +(\\w+Contract) +" + counts + "$").matcher(report);
        while (m.find()) numbers.put("suite " + m.group(1), tests(m, 2));
        m = Pattern.compile("(?m)^    duties of every store +(CERTIFIED|NOT CERTIFIED) +" + counts).matcher(report);
        while (m.find()) numbers.put("duties", m.group(1) + " " + tests(m, 2));
        m = Pattern.compile("(?m)^      (\\w+Contract) +" + counts + " by ").matcher(report);
        while (m.find()) numbers.put("duty " + m.group(1), tests(m, 2));
        m = Pattern.compile("(?m)^    ([A-Z_]+) +([A-Z][A-Z ]*?) +" + counts).matcher(report);
        while (m.find()) numbers.put("capability " + m.group(1), m.group(2) + " " + tests(m, 3));
        return numbers;
    }

    private static String tests(Matcher m, int firstGroup) {
        int n = 0;
        for (int g = firstGroup; g < firstGroup + 3; g++) n += Integer.parseInt(m.group(g));
        return n + " tests";
    }

    // ------------------------------------------------------------------ the checks

    /** In order, in one thread: the third test reads the report of the second's run. */
    @Nested
    @Execution(ExecutionMode.SAME_THREAD)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class OnMaven38 {

        @Test
        @Order(1)
        void theQuickstartBuildsAndRunsAsPasted() throws Exception {
            quickstartRuns(maven38, "quickstart-maven-3.8");
        }

        @Test
        @Order(2)
        void theCertificationSnippetCertifiesTheExampleStoreAsPasted() throws Exception {
            Path project = certificationProject("certification-maven-3.8", certificationPom(), true);
            Result r = mvn(maven38, project, "certification-maven-3.8", "test");
            succeeded(r);
            String report = Files.readString(project.resolve("target/baton-tck-certification.txt"));
            assertThat(report).as("the certification report (%s)", r.log())
                    .contains("CERTIFIED: dev.baton.examples.filestore.FileSnapshotStore (duties of every store;"
                            + " SHARED, DURABLE, STORE_CLOCK, THREAD_MEMORY, DECISIONS, NOTIFICATIONS)")
                    .doesNotContain("BATON TCK WARNING");
            assertThat(r.output()).as("the report is printed to the console").contains("=== Baton TCK certification");
            theTableOfTheContractsGivesEveryContractWithItsTestCount(report);
        }

        /**
         * docs/certification.md's "| `SnapshotStoreContract` | 71 | ... | `MySnapshotStoreTest` |" must
         * equal the report's count for that suite, as this run printed it; and the table names every
         * contract of the TCK.
         */
        private void theTableOfTheContractsGivesEveryContractWithItsTestCount(String report) {
            Map<String, Integer> ran = new LinkedHashMap<>();
            Matcher line = Pattern.compile("(?m)^  (\\w+) +(\\w+Contract) +(\\d+) passed / (\\d+) failed / (\\d+) skipped$")
                    .matcher(report);
            while (line.find()) {
                ran.put(line.group(2), Integer.parseInt(line.group(3)) + Integer.parseInt(line.group(4))
                        + Integer.parseInt(line.group(5)));
            }
            List<ContractRow> table = contractTable();
            for (ContractRow row : table) {
                assertThat(ran).as("a suite of %s in the report:%n%s", row.contract(), report).containsKey(row.contract());
                assertThat(row.tests()).as("%s, the table of the contracts: the test count of %s. Update the table's number to %d"
                        + " (the certification report prints it)", CERTIFICATION_DOC, row.contract(), ran.get(row.contract()))
                        .isEqualTo(ran.get(row.contract()));
            }
            Set<String> every = new TreeSet<>(CertificationListener.REQUIRED_CONTRACTS);
            CertificationListener.PROVING_CONTRACTS.values().forEach(every::addAll);
            assertThat(table.stream().map(ContractRow::contract).toList()).as("the contracts of the table in %s", CERTIFICATION_DOC)
                    .containsExactlyInAnyOrderElementsOf(every);
        }

        /**
         * The report docs/certification.md shows (the example file store's, every capability) has the
         * numbers of the report this run printed: each suite's, each duty's and each capability's test
         * count, and each verdict. Counts are compared as passed + failed + skipped, since the page's
         * run supplies {@code faults()} and this one does not.
         */
        @Test
        @Order(3)
        void theSampleReportOfTheCertificationPageHasTheCountsOfThisRun() throws Exception {
            Path file = WORK.resolve("certification-maven-3.8/target/baton-tck-certification.txt");
            assertThat(file).as("the report of the certification run (test 2)").isRegularFile();
            Matcher sample = Pattern.compile("```\\n(=== Baton TCK certification .*?)```", Pattern.DOTALL).matcher(certification);
            assertThat(sample.find()).as("a sample report in %s", CERTIFICATION_DOC).isTrue();

            Map<String, String> shown = reportNumbers(sample.group(1));
            Map<String, String> ran = reportNumbers(Files.readString(file));
            assertThat(shown).as("the lines of the sample report in %s", CERTIFICATION_DOC).hasSizeGreaterThan(12);
            assertThat(shown).as("the sample report in %s against this run's (%s): update the page's numbers", CERTIFICATION_DOC, file)
                    .containsExactlyInAnyOrderEntriesOf(ran);
        }

    }

    /** The guards against a silent pass, each on a project of its own, on Maven 3.8 (whose default Surefire is 2.12.4). */
    @Nested
    class WithoutTheSurefirePinOnMaven38 {

        @Test
        void withoutTheSurefirePinTheContractsGuardMethodFailsTheBuild() throws Exception {
            // Surefire 2.12.4 (Maven 3.8's default) runs public test* methods of public classes as plain tests
            String pom = certificationPom()
                    .replaceAll("\\s*<!-- the TCK is JUnit 5.*?-->", "")
                    .replaceAll("\\s*<plugin><artifactId>maven-surefire-plugin</artifactId>.*?</plugin>", "")
                    .replaceAll("\\s*<!-- a run of zero tests.*?-->\\s*<failIfNoTests>true</failIfNoTests>", "");
            assertThat(pom).doesNotContain("surefire").doesNotContain("failIfNoTests");
            Result r = mvn(maven38, certificationProject("no-surefire-pin", pom, true), "no-surefire-pin", "test");
            assertThat(r.exit()).as("exit code without the Surefire pin (log %s):%n%s", r.log(), r.tail()).isNotZero();
            assertThat(r.output()).contains("maven-surefire-plugin:2.12.4").contains("The Baton TCK is a JUnit 5");
        }

        @Test
        void withoutTheSurefirePinAndWithPackagePrivateClassesFailIfNoTestsFailsTheBuild() throws Exception {
            String pom = certificationPom()
                    .replaceAll("\\s*<plugin><artifactId>maven-surefire-plugin</artifactId>.*?</plugin>", "");
            Result r = mvn(maven38, certificationProject("no-surefire-pin-package-private", pom, false),
                    "no-surefire-pin-package-private", "test");
            assertThat(r.exit()).as("exit code (log %s):%n%s", r.log(), r.tail()).isNotZero();
            assertThat(r.output()).contains("maven-surefire-plugin:2.12.4").contains("No tests were executed");
        }
    }

    /**
     * On Maven 3.9 the quickstart runs, and the certification project compiles its tests: the test
     * run itself is the pinned Surefire 3.6.1 on both versions, proven in full on 3.8 above.
     */
    @Nested
    class OnMaven39 {

        @Test
        void theQuickstartBuildsAndRunsAsPasted() throws Exception {
            quickstartRuns(maven39, "quickstart-maven-3.9");
        }

        @Test
        void theCertificationSnippetCompilesAsPasted() throws Exception {
            Result r = mvn(maven39, certificationProject("certification-maven-3.9", certificationPom(), true),
                    "certification-maven-3.9", "test-compile");
            succeeded(r);
        }
    }
}
