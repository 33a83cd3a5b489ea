package dev.baton.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * What a release uploads, checked the way Maven Central's Publisher Portal checks it, on a bundle built
 * by {@code scripts/central-bundle} (the {@code release} profile) from a copy of this project set to the
 * release version and signed with a {@link ThrowAwayKey}; built twice, in two folders, to prove the
 * build reproducible.
 *
 * <p>In CI ({@code ./mvnw -B verify}) it builds the parent, the BOM, core, the TCK and the memory store
 * ({@code release.it.modules}); {@code -Drelease.it.modules=all} builds every module, as a release does,
 * and {@code -Drelease.it.builds=1} builds once (the bundle checks without the comparison). See
 * docs/releasing.md.
 */
class ReleaseBundleIT {

    private static final Path ROOT = Path.of(System.getProperty("baton.root", "..")).toAbsolutePath().normalize();
    private static final Path WORK = Path.of("target", "release-it").toAbsolutePath();
    /** The outer build's local repository: the inner builds read it and install nothing into it. */
    private static final Path REPO = Path.of(System.getProperty("outer.local.repository",
            System.getProperty("user.home") + "/.m2/repository")).toAbsolutePath();
    private static final String GROUP_PATH = "dev/baton";
    /** The kinds of checksum file the bundle carries for every file but the signatures. */
    private static final Map<String, String> CHECKSUMS = new LinkedHashMap<>(Map.of(
            "md5", "MD5", "sha1", "SHA-1", "sha256", "SHA-256", "sha512", "SHA-512"));

    private static String snapshot;
    private static String release;
    private static List<String> built;
    private static ThrowAwayKey key;
    private static ReleaseBuild first;
    private static ReleaseBuild second;

    @BeforeAll
    static void buildTheBundle() throws Exception {
        snapshot = Poms.version(Poms.read(ROOT.resolve("pom.xml")));
        release = snapshot.replace("-SNAPSHOT", "");
        String modules = System.getProperty("release.it.modules", ".,bom,core,tck,storage-memory").trim();
        built = modules.equals("all") ? null : List.of(modules.split(","));
        int builds = Integer.parseInt(System.getProperty("release.it.builds", "2"));

        Files.createDirectories(WORK);
        key = ThrowAwayKey.generate();
        Map<String, String> env = Map.of("MAVEN_GPG_KEY", key.armoredSecretKey(), "MAVEN_GPG_PASSPHRASE", key.passphrase());
        List<String> extra = built == null ? List.of() : List.of("-pl", modules);

        first = ReleaseBuild.copy(ROOT, WORK.resolve("first"), built, snapshot, release);
        if (builds >= 2) {
            // another folder, so that no absolute path of the build can hide in what it writes
            second = ReleaseBuild.copy(ROOT, WORK.resolve("second-build"), built, snapshot, release);
        }
        // the two builds share nothing but the outer local repository: they run at the same time (a Maven build
        // keeps about one core busy, and the machine has two or more). A deploy keeps a copy of its target's
        // maven-metadata.xml in the local repository, as maven-metadata-<repository id>.xml: the second build
        // deploys to its staging folder under an id of its own (a later -D wins over the script's), or both would
        // write dev/baton/*/maven-metadata-staging.xml at the same time (seen once: "Could not transfer metadata")
        List<String> extraSecond = new ArrayList<>(extra);
        if (second != null) extraSecond.add("-DaltDeploymentRepository=second-build::file:" + second.staging());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<ReleaseBuild.Result> secondRun = second == null ? null : pool.submit(() -> second.bundle(env, REPO, extraSecond));
            ReleaseBuild.Result a = first.bundle(env, REPO, extra);
            ReleaseBuild.Result b = secondRun == null ? null : secondRun.get();
            System.out.printf("release-it: first release build of %s took %d s%n", modules, a.took().toSeconds());
            assertThat(a.exitCode()).as("scripts/central-bundle in %s:%n%s", first.dir, tail(a.output())).isZero();
            if (b != null) {
                System.out.printf("release-it: second release build (at the same time) took %d s%n", b.took().toSeconds());
                assertThat(b.exitCode()).as("scripts/central-bundle in %s:%n%s", second.dir, tail(b.output())).isZero();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ------------------------------------------------------------------ what is published

    /** The published modules that were built: artifactId to its pom in the copy. */
    private static Map<String, Element> publishedModules() {
        Map<String, Element> found = new LinkedHashMap<>();
        List<String> dirs = new ArrayList<>(List.of("."));
        dirs.addAll(Poms.modules(first.dir));
        for (String dir : dirs) {
            if (built != null && !built.contains(dir)) continue;
            Element pom = Poms.read(first.dir.resolve(dir).resolve("pom.xml"));
            if (Poms.published(pom)) found.put(Poms.text(pom, "artifactId"), pom);
        }
        return found;
    }

    /** The files a module must upload: its pom, its SBOMs, and for a jar its jar, sources and Javadoc. */
    private static List<String> requiredFiles(String artifactId, Element pom) {
        String base = artifactId + "-" + release;
        List<String> files = new ArrayList<>(List.of(base + ".pom", base + "-cyclonedx.json", base + "-cyclonedx.xml"));
        if (Poms.packaging(pom).equals("jar")) files.addAll(List.of(base + ".jar", base + "-sources.jar", base + "-javadoc.jar"));
        return files;
    }

    private static List<Path> stagedFiles(ReleaseBuild build) throws IOException {
        try (Stream<Path> all = Files.walk(build.staging())) {
            return all.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static boolean isSignature(Path p) {
        return p.getFileName().toString().endsWith(".asc");
    }

    private static boolean isChecksum(Path p) {
        String name = p.getFileName().toString();
        return CHECKSUMS.keySet().stream().anyMatch(ext -> name.endsWith("." + ext));
    }

    // ------------------------------------------------------------------ the rules

    @Test
    void everyPublishedModuleUploadsItsPomJarSourcesJavadocAndSboms_eachSignedAndChecksummed() throws IOException {
        Map<String, Element> modules = publishedModules();
        assertThat(modules).as("published modules built").containsKeys("baton-parent", "baton-bom", "baton-core");
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, Element> m : modules.entrySet()) {
            Path dir = first.staging().resolve(GROUP_PATH).resolve(m.getKey()).resolve(release);
            for (String file : requiredFiles(m.getKey(), m.getValue())) {
                List<String> needed = new ArrayList<>(List.of(file, file + ".asc"));
                CHECKSUMS.keySet().forEach(ext -> needed.add(file + "." + ext));
                for (String n : needed) if (!Files.isRegularFile(dir.resolve(n))) missing.add(m.getKey() + "/" + release + "/" + n);
            }
        }
        assertThat(missing).as("files Maven Central requires, missing from %s", first.staging()).isEmpty();
    }

    @Test
    void theBundleHoldsOnlyPublishedModulesAtTheReleaseVersion_inTheRepositoryLayout() throws IOException {
        TreeSet<String> artifactDirs = new TreeSet<>();
        for (Path f : stagedFiles(first)) {
            Path rel = first.staging().relativize(f);
            assertThat(rel.toString()).as("a file of the bundle").startsWith(GROUP_PATH + "/");
            assertThat(rel.getNameCount()).as("groupId/artifactId/version/file: %s", rel).isEqualTo(5);
            assertThat(rel.getName(3).toString()).as("the version folder of %s", rel).isEqualTo(release);
            assertThat(rel.getFileName().toString()).as("%s", rel)
                    .startsWith(rel.getName(2) + "-" + release).doesNotStartWith("maven-metadata");
            artifactDirs.add(rel.getName(2).toString());
        }
        assertThat(artifactDirs).containsExactlyInAnyOrderElementsOf(publishedModules().keySet());
        assertThat(release).doesNotContain("SNAPSHOT");
    }

    @Test
    void noPomOrSbomOfTheReleaseNamesASnapshot() throws IOException {
        for (Path f : stagedFiles(first)) {
            String name = f.getFileName().toString();
            if (name.endsWith(".pom") || name.endsWith("-cyclonedx.json") || name.endsWith("-cyclonedx.xml")) {
                assertThat(Files.readString(f, StandardCharsets.UTF_8)).as("%s", f).doesNotContain("-SNAPSHOT");
            }
        }
    }

    @Test
    void everyFileIsSignedByTheReleaseKey() throws IOException {
        List<String> bad = new ArrayList<>();
        int checked = 0;
        for (Path f : stagedFiles(first)) {
            if (isSignature(f) || isChecksum(f)) continue;
            Path asc = f.resolveSibling(f.getFileName() + ".asc");
            if (!Files.isRegularFile(asc) || !key.signed(f, asc)) bad.add(first.staging().relativize(f).toString());
            checked++;
        }
        assertThat(bad).as("files whose signature is missing or does not verify").isEmpty();
        int required = publishedModules().entrySet().stream().mapToInt(m -> requiredFiles(m.getKey(), m.getValue()).size()).sum();
        assertThat(checked).as("files signed").isEqualTo(required);
    }

    @Test
    void aChangedFileNoLongerVerifies() throws IOException {
        Path jar = first.staging().resolve(GROUP_PATH + "/baton-core/" + release + "/baton-core-" + release + ".jar");
        Path changed = WORK.resolve("changed.jar");
        byte[] bytes = Files.readAllBytes(jar);
        bytes[bytes.length / 2] ^= 1;
        Files.write(changed, bytes);

        assertThat(key.signed(jar, jar.resolveSibling(jar.getFileName() + ".asc"))).isTrue();
        assertThat(key.signed(changed, jar.resolveSibling(jar.getFileName() + ".asc"))).isFalse();
    }

    @Test
    void everyChecksumFileHoldsTheFilesHash() throws Exception {
        List<String> bad = new ArrayList<>();
        for (Path f : stagedFiles(first)) {
            if (isSignature(f) || isChecksum(f)) continue;
            byte[] content = Files.readAllBytes(f);
            for (Map.Entry<String, String> c : CHECKSUMS.entrySet()) {
                Path sum = f.resolveSibling(f.getFileName() + "." + c.getKey());
                String expected = HexFormat.of().formatHex(MessageDigest.getInstance(c.getValue()).digest(content));
                if (!Files.isRegularFile(sum) || !Files.readString(sum).trim().equals(expected)) bad.add(sum.getFileName().toString());
            }
        }
        assertThat(bad).isEmpty();
    }

    @Test
    void everyPomHasTheMetadataMavenCentralRequires() {
        Map<String, Element> poms = new LinkedHashMap<>();
        for (String artifactId : publishedModules().keySet()) {
            poms.put(artifactId, Poms.read(first.staging().resolve(GROUP_PATH + "/" + artifactId + "/" + release + "/"
                    + artifactId + "-" + release + ".pom")));
        }
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, Element> e : poms.entrySet()) {
            for (String path : List.of("name", "description", "url", "licenses/license/name", "licenses/license/url",
                    "developers/developer/name", "scm/url", "scm/connection", "scm/developerConnection")) {
                if (inherited(e.getValue(), path, poms) == null) missing.add(e.getKey() + ": " + path);
            }
            assertThat(inherited(e.getValue(), "groupId", poms)).isEqualTo("dev.baton");
            assertThat(Poms.version(e.getValue())).as("version of %s", e.getKey()).isEqualTo(release);
        }
        assertThat(missing).as("metadata Central requires (https://central.sonatype.org/publish/requirements/)").isEmpty();
        assertThat(inherited(poms.get("baton-core"), "licenses/license/name", poms)).isEqualTo("Apache-2.0");
    }

    /** The value at {@code path} in the pom or the nearest parent in the bundle that has it. */
    private static String inherited(Element pom, String path, Map<String, Element> poms) {
        for (Element p = pom; p != null; p = poms.get(Poms.text(p, "parent/artifactId"))) {
            String v = Poms.text(p, path);
            if (v != null) return v;
        }
        return null;
    }

    @Test
    void theZipHoldsExactlyTheStagedFiles() throws IOException {
        TreeSet<String> staged = new TreeSet<>();
        for (Path f : stagedFiles(first)) staged.add(first.staging().relativize(f).toString().replace('\\', '/'));
        TreeSet<String> zipped = new TreeSet<>();
        try (ZipFile zip = new ZipFile(first.zip().toFile())) {
            zip.stream().filter(e -> !e.isDirectory()).forEach(e -> zipped.add(e.getName()));
        }
        assertThat(zipped).isEqualTo(staged);
    }

    @Test
    void buildingTwiceInTwoFoldersGivesTheSameBytes() throws IOException {
        assumeTrue(second != null, "release.it.builds=1: built once");
        List<Path> a = stagedFiles(first);
        List<Path> b = stagedFiles(second);
        assertThat(b.stream().map(p -> second.staging().relativize(p).toString()).toList())
                .isEqualTo(a.stream().map(p -> first.staging().relativize(p).toString()).toList());
        List<String> differ = new ArrayList<>();
        int compared = 0;
        for (Path f : a) {
            // a signature has its own time in it: the signed bytes are what must be equal
            if (isSignature(f)) continue;
            Path other = second.staging().resolve(first.staging().relativize(f).toString());
            if (Files.mismatch(f, other) != -1) differ.add(first.staging().relativize(f).toString());
            compared++;
        }
        assertThat(differ).as("files that differ between %s and %s", first.dir, second.dir).isEmpty();
        assertThat(compared).isGreaterThan(0);
        System.out.printf("release-it: %d files byte-identical across two builds%n", compared);
    }

    @Test
    void everyJarTheBuildWritesIsTheSameTwice_shadedAndSpringBootJarsIncluded() throws IOException {
        assumeTrue(second != null, "release.it.builds=1: built once");
        List<String> jars = new ArrayList<>();
        try (Stream<Path> modules = Files.list(first.dir)) {
            for (Path module : modules.filter(Files::isDirectory).sorted().toList()) {
                Path target = module.resolve("target");
                if (!Files.isDirectory(target)) continue;
                try (Stream<Path> files = Files.list(target)) {
                    files.filter(f -> f.getFileName().toString().endsWith(".jar"))
                            .forEach(f -> jars.add(first.dir.relativize(f).toString()));
                }
            }
        }
        List<String> differ = new ArrayList<>();
        for (String jar : jars) {
            Path other = second.dir.resolve(jar);
            if (!Files.isRegularFile(other) || Files.mismatch(first.dir.resolve(jar), other) != -1) differ.add(jar);
        }
        // with -Drelease.it.modules=all: examples' shaded jar, examples-spring's Spring Boot jar, the benchmarks' jar
        assertThat(jars).as("jars written").isNotEmpty();
        assertThat(differ).as("jars that differ between the two builds").isEmpty();
        System.out.printf("release-it: %d jars byte-identical across two builds: %s%n", jars.size(), jars);
    }

    // ------------------------------------------------------------------ baton-core and its relocated victools

    private static Path coreFile(String suffix) {
        return first.staging().resolve(GROUP_PATH + "/baton-core/" + release + "/baton-core-" + release + suffix);
    }

    @Test
    void coreCarriesVictoolsRelocated_withItsLicence_andItsPomDependsOnNoVictools() throws IOException {
        List<String> entries;
        try (ZipFile zip = new ZipFile(coreFile(".jar").toFile())) {
            entries = zip.stream().map(ZipEntry::getName).toList();
            assertThat(new String(zip.getInputStream(zip.getEntry("META-INF/NOTICE")).readAllBytes(), StandardCharsets.UTF_8))
                    .contains("victools jsonschema-generator 4.38.0", "dev.baton.internal.shaded.victools");
        }
        assertThat(entries).contains("module-info.class", "META-INF/LICENSE", "META-INF/NOTICE",
                "dev/baton/internal/shaded/victools/jsonschema/generator/SchemaGenerator.class",
                "dev/baton/internal/shaded/victools/jsonschema/module/jackson/JacksonModule.class",
                "META-INF/maven/com.github.victools/jsonschema-generator/pom.properties");
        assertThat(entries).as("victools under its own name, or its module descriptors")
                .noneMatch(e -> e.startsWith("com/github/victools/") || e.startsWith("META-INF/versions/"));

        List<String> dependencies = new ArrayList<>();
        Element deps = Poms.child(Poms.read(coreFile(".pom")), "dependencies");
        for (org.w3c.dom.Node n = deps.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element d) dependencies.add(Poms.text(d, "groupId") + ":" + Poms.text(d, "artifactId"));
        }
        assertThat(dependencies).contains("com.fasterxml.jackson.core:jackson-databind", "com.fasterxml:classmate")
                .noneMatch(d -> d.startsWith("com.github.victools:"));
        // the SBOM says what is in the jar: victools too
        assertThat(Files.readString(coreFile("-cyclonedx.json"), StandardCharsets.UTF_8))
                .contains("pkg:maven/com.github.victools/jsonschema-generator@4.38.0", "pkg:maven/com.github.victools/jsonschema-module-jackson@4.38.0");
    }

    /** A typed tool's schema, made by dev.baton.core on the module path, with what its SBOM requires and no victools. */
    @Test
    void coreWorksOnTheModulePath_itsRelocatedVictoolsInsideTheModule() throws Exception {
        List<Path> modulePath = new ArrayList<>(List.of(coreFile(".jar")));
        Element components = Poms.child(Poms.read(coreFile("-cyclonedx.xml")), "components");
        for (org.w3c.dom.Node n = components.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element c) || !"required".equals(Poms.text(c, "scope"))) continue;
            String group = Poms.text(c, "group"), name = Poms.text(c, "name"), version = Poms.text(c, "version");
            modulePath.add(REPO.resolve(group.replace('.', '/')).resolve(name).resolve(version).resolve(name + "-" + version + ".jar"));
        }
        assertThat(modulePath).as("the module path").allMatch(Files::isRegularFile)
                .noneMatch(p -> p.getFileName().toString().startsWith("jsonschema-"));

        ModuleFinder finder = ModuleFinder.of(modulePath.toArray(Path[]::new));
        ModuleDescriptor core = finder.find("dev.baton.core").orElseThrow().descriptor();
        assertThat(core.requires()).extracting(ModuleDescriptor.Requires::name).contains("com.fasterxml.classmate")
                .noneMatch(r -> r.startsWith("com.github.victools"));
        assertThat(core.packages()).contains("dev.baton.internal.shaded.victools.jsonschema.generator");
        assertThat(core.exports()).extracting(ModuleDescriptor.Exports::source).noneMatch(p -> p.startsWith("dev.baton.internal"));

        Configuration graph = ModuleLayer.boot().configuration().resolve(finder, ModuleFinder.of(), Set.of("dev.baton.core"));
        ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(graph, ClassLoader.getPlatformClassLoader());
        Class<?> tool = layer.findLoader("dev.baton.core").loadClass("dev.baton.tool.Tool");
        assertThat(tool.getModule().getName()).isEqualTo("dev.baton.core");
        Object builder = tool.getMethod("builder", String.class).invoke(null, "bookFlight");
        Object typed = builder.getClass().getMethod("input", Class.class).invoke(builder, Booking.class);
        String schema = typed.getClass().getMethod("inputSchema").invoke(typed).toString();
        assertThat(schema).isEqualTo("{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"},"
                + "\"passengers\":{\"type\":\"integer\"}},\"required\":[\"to\",\"passengers\"]}");
    }

    /** A typed tool's input: public, so that the module on the module path may read it. */
    public record Booking(String to, int passengers) { }

    @Test
    void withoutAKeyTheScriptRefusesAndNamesWhatToSet() throws Exception {
        ReleaseBuild.Result r = ReleaseBuild.run(first.dir, List.of(first.dir.resolve("scripts/central-bundle").toString()),
                Map.of(), WORK.resolve("no-key.log"));

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.output()).contains("MAVEN_GPG_KEY is not set").contains("docs/releasing.md");
        assertThat(first.zip()).as("the bundle already built is left alone").exists();
    }

    @Test
    void theReleaseProfileRefusesASnapshotVersion() throws Exception {
        // the project as it is (version x.y.z-SNAPSHOT); validate runs the enforcer and builds nothing
        ReleaseBuild.Result r = ReleaseBuild.run(WORK, List.of(ROOT.resolve("mvnw").toString(), "-B", "-N", "-Prelease",
                "-f", ROOT.resolve("pom.xml").toString(), "-Dmaven.repo.local=" + REPO, "validate"),
                Map.of(), WORK.resolve("snapshot-refused.log"));

        assertThat(r.exitCode()).as(tail(r.output())).isNotZero();
        assertThat(r.output()).contains("A release has a release version");
    }

    private static String tail(String output) {
        String[] lines = output.split("\n");
        return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 60), lines.length));
    }
}
