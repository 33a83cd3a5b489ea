package dev.baton.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * One version, told the same everywhere, and the list of what is published: read from the poms and
 * the docs, no build needed (a second; {@link ReleaseBundleIT} builds the bundle).
 */
class ReleaseLayoutTest {

    private static final Path ROOT = Path.of(System.getProperty("baton.root", "..")).toAbsolutePath().normalize();
    /** What Baton publishes to Maven Central (docs/releasing.md names them too). */
    private static final List<String> PUBLISHED = List.of("baton-parent", "baton-bom", "baton-core", "baton-tck",
            "baton-storage-memory", "baton-storage-jdbc", "baton-storage-mongo", "baton-storage-redis", "baton-http",
            "baton-model-langchain4j", "baton-model-spring-ai", "baton-mcp", "baton-a2a", "baton-notify", "baton-spring-boot-starter",
            "baton-spring-boot3-starter");

    private static final Element PARENT = Poms.read(ROOT.resolve("pom.xml"));
    private static final String VERSION = Poms.text(PARENT, "version");

    private static Map<String, Element> modules() {
        Map<String, Element> all = new LinkedHashMap<>();
        for (String dir : Poms.modules(ROOT)) {
            Element pom = Poms.read(ROOT.resolve(dir).resolve("pom.xml"));
            all.put(Poms.text(pom, "artifactId"), pom);
        }
        return all;
    }

    private static String releasing() throws IOException {
        return Files.readString(ROOT.resolve("docs/releasing.md"), StandardCharsets.UTF_8);
    }

    @Test
    void thePublishedModulesAreExactlyTheOnesTheReleaseDocumentNames() throws IOException {
        List<String> published = new ArrayList<>(List.of("baton-parent"));
        modules().forEach((artifactId, pom) -> {
            if (Poms.published(pom)) published.add(artifactId);
        });

        assertThat(published).as("modules without maven.deploy.skip").containsExactlyInAnyOrderElementsOf(PUBLISHED);
        assertThat(releasing()).contains(PUBLISHED.stream().map(a -> "`" + a + "`").toList());
    }

    @Test
    void everyModuleIsOnTheParentsVersion_andTheBomToo() {
        assertThat(VERSION).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
        modules().forEach((artifactId, pom) -> {
            assertThat(Poms.version(pom)).as("version of %s", artifactId).isEqualTo(VERSION);
            if (Poms.text(pom, "parent/artifactId") != null) {
                assertThat(Poms.text(pom, "parent/version")).as("parent version of %s", artifactId).isEqualTo(VERSION);
            }
        });
        assertThat(Poms.text(modules().get("baton-bom"), "version")).isEqualTo(VERSION);
    }

    @Test
    void theBomManagesEveryPublishedJar() {
        TreeSet<String> managed = new TreeSet<>();
        Element bom = modules().get("baton-bom");
        for (String artifactId : PUBLISHED) {
            if (artifactId.equals("baton-parent") || artifactId.equals("baton-bom")) continue;
            managed.add(artifactId);
        }
        String text = Poms.child(bom, "dependencyManagement").getTextContent();
        List<String> missing = managed.stream().filter(a -> !text.contains(a)).toList();
        assertThat(missing).as("published jars the BOM does not manage").isEmpty();
    }

    @Test
    void theBomHasTheParentsOutputTimestamp_anInstant() {
        String parent = Poms.text(PARENT, "properties/project.build.outputTimestamp");
        String bom = Poms.text(modules().get("baton-bom"), "properties/project.build.outputTimestamp");

        assertThat(bom).isEqualTo(parent);
        assertThat(Instant.parse(parent)).isAfter(Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void theDocumentedPomsNameTheProjectVersion() throws IOException {
        // the README's quickstart and docs/certification.md's pom: scripts/set-version changes them
        // with the poms, readme-it builds them
        Pattern bom = Pattern.compile("<artifactId>baton-bom</artifactId><version>([^<]+)</version>");
        Map<String, List<String>> versions = new LinkedHashMap<>();
        for (Path doc : documents()) {
            Matcher m = bom.matcher(Files.readString(doc, StandardCharsets.UTF_8));
            while (m.find()) versions.computeIfAbsent(ROOT.relativize(doc).toString(), d -> new ArrayList<>()).add(m.group(1));
        }
        assertThat(versions).as("documents with a pom that imports baton-bom").containsKeys("README.md", "docs/certification.md");
        versions.forEach((doc, found) -> assertThat(found).as("the baton-bom versions in %s", doc).allMatch(VERSION::equals));
    }

    /** "Baton 0.2", "baton-tck 0.1.0", "Baton v1.0": a Baton artifact or Baton itself, then a version. */
    private static final Pattern BATON_VERSION =
            Pattern.compile("(?i)\\bbaton(?:-[a-z0-9]+)*\\s+v?(\\d+(?:\\.\\d+)+(?:-[A-Za-z0-9.]+)?)");
    /** A release heading of the CHANGELOG: {@code ## [0.1.0] - unreleased} or {@code ## [0.1.0] - 2026-12-15}. */
    private static final Pattern RELEASE_HEADING = Pattern.compile("(?m)^## \\[([^\\]]+)\\] - (unreleased|\\d{4}-\\d{2}-\\d{2})$");

    @Test
    void theDocumentsNameNoBatonVersionButTheRelease_andStoredDataByItsOwnNumbers() throws IOException {
        // stored data is named by its snapshot format or JDBC migration (docs/releasing.md), never by
        // the Baton that wrote it; the CHANGELOG's release headings are the one place for other versions
        String release = VERSION.replace("-SNAPSHOT", "");
        List<String> others = new ArrayList<>();
        for (Path doc : documents()) {
            String text = Files.readString(doc, StandardCharsets.UTF_8);
            if (doc.endsWith("CHANGELOG.md")) text = RELEASE_HEADING.matcher(text).replaceAll("");
            Matcher m = BATON_VERSION.matcher(text);   // the whole text: a line may break between "Baton" and "0.2"
            while (m.find()) {
                if (m.group(1).equals(release)) continue;
                long line = text.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
                others.add(ROOT.relativize(doc) + ":" + line + ": " + m.group().replaceAll("\\s+", " "));
            }
        }
        assertThat(others).as("versions of Baton other than the release, %s", release).isEmpty();
    }

    @Test
    void theChangelogsNewestSectionIsTheRelease() throws IOException {
        Matcher m = RELEASE_HEADING.matcher(Files.readString(ROOT.resolve("CHANGELOG.md"), StandardCharsets.UTF_8));
        assertThat(m.find()).as("a heading '## [VERSION] - unreleased' (or a date) in CHANGELOG.md").isTrue();
        assertThat(m.group(1)).as("the CHANGELOG's newest section").isEqualTo(VERSION.replace("-SNAPSHOT", ""));
        if (VERSION.endsWith("-SNAPSHOT")) assertThat(m.group(2)).as("the section of a version not released yet").isEqualTo("unreleased");
    }

    /** README.md, CHANGELOG.md and every Markdown file under docs/. */
    private static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md")));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    @Test
    void theReleaseDocumentNamesTheReleaseVersion_theSnapshotFormat_andTheLatestMigration() throws IOException {
        String doc = releasing();
        String release = VERSION.replace("-SNAPSHOT", "");

        assertThat(doc).contains(release);
        assertThat(doc).as("docs/releasing.md names the snapshot format this Baton writes")
                .contains("snapshot format " + snapshotFormat());
        assertThat(doc).as("docs/releasing.md names the newest JDBC migration").contains(latestMigration());
    }

    /** The payload format core writes (SnapshotCodec.FORMAT_VERSION), read from its source. */
    private static int snapshotFormat() throws IOException {
        Pattern p = Pattern.compile("static final int FORMAT_VERSION = (\\d+);");
        try (Stream<Path> sources = Files.walk(ROOT.resolve("core/src/main/java"))) {
            for (Path f : sources.filter(s -> s.toString().endsWith(".java")).toList()) {
                Matcher m = p.matcher(Files.readString(f, StandardCharsets.UTF_8));
                if (m.find()) return Integer.parseInt(m.group(1));
            }
        }
        throw new AssertionError("no FORMAT_VERSION constant in core/src/main/java");
    }

    /** The newest migration of the JDBC store, e.g. {@code V003}: the same for every dialect. */
    private static String latestMigration() throws IOException {
        Path migrations = ROOT.resolve("storage-jdbc/src/main/resources/dev/baton/store/jdbc/migrations");
        TreeSet<String> newest = new TreeSet<>();
        try (Stream<Path> dialects = Files.list(migrations)) {
            for (Path dialect : dialects.toList()) {
                try (Stream<Path> files = Files.list(dialect)) {
                    newest.add(files.map(f -> f.getFileName().toString().substring(0, 4)).max(String::compareTo).orElseThrow());
                }
            }
        }
        assertThat(newest).as("the newest migration of each dialect").hasSize(1);
        return newest.first();
    }
}
