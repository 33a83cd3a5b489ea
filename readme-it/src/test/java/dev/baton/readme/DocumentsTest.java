package dev.baton.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documents hold together, read from the files alone (no build, a second): every relative link of
 * README.md, CHANGELOG.md and docs/**.md reaches a file, and a heading or anchor of it; the README is
 * a landing page that maps every guide and shows the commands CI runs; and every test docs/rules.md
 * names as the proof of a rule is a test of the TCK.
 */
class DocumentsTest {

    private static final Path ROOT = Path.of(System.getProperty("baton.root", "..")).toAbsolutePath().normalize();

    /** README.md, CHANGELOG.md and every Markdown file under docs/. */
    static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md")));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ Markdown, as GitHub reads it

    /** The lines of {@code text} outside fenced code blocks, with inline code removed; code lines become empty. */
    static List<String> prose(String text) {
        List<String> lines = new ArrayList<>();
        boolean fenced = false;
        for (String line : text.split("\n", -1)) {
            String t = line.strip();
            if (t.startsWith("```") || t.startsWith("~~~")) {
                fenced = !fenced;
                lines.add("");
            } else {
                lines.add(fenced ? "" : line.replaceAll("`[^`]*`", ""));
            }
        }
        return lines;
    }

    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

    /**
     * The anchors of a Markdown file as GitHub makes them: each heading's text lower-cased, without
     * what is neither a letter, a digit, {@code _}, {@code -} nor a space, spaces made {@code -},
     * a repeated one suffixed {@code -1}, {@code -2}, ...; and the ids of HTML anchors.
     */
    static Set<String> anchors(String text) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : text.split("\n", -1)) {
            String t = line.strip();
            if (t.startsWith("```") || t.startsWith("~~~")) {
                fenced = !fenced;
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (fenced || !h.matches()) continue;
            String slug = h.group(1)
                    .replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1")       // a link shows its text
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N}\\p{M}_\\- ]", "")
                    .replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? slug : slug + "-" + n);
        }
        Matcher a = HTML_ANCHOR.matcher(text);
        while (a.find()) anchors.add(a.group(1));
        return anchors;
    }

    private static final Pattern INLINE_LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_LINK = Pattern.compile("^\\s*\\[[^\\]]+\\]:\\s*<?([^\\s>]+)>?");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

    /** A relative link of a document: where it is, and its target as written. */
    record Link(Path from, int line, String target) {
        @Override
        public String toString() {
            return ROOT.relativize(from) + ":" + line + ": " + target;
        }
    }

    /** The links of {@code file} that are not absolute URLs ({@code https:}, {@code mailto:}, ...). */
    static List<Link> relativeLinks(Path file) {
        List<Link> links = new ArrayList<>();
        List<String> lines = prose(read(file));
        for (int i = 0; i < lines.size(); i++) {
            List<String> targets = new ArrayList<>();
            Matcher m = INLINE_LINK.matcher(lines.get(i));
            while (m.find()) targets.add(m.group(1));
            Matcher r = REFERENCE_LINK.matcher(lines.get(i));
            if (r.find()) targets.add(r.group(1));
            for (String target : targets) {
                if (!SCHEME.matcher(target).find()) links.add(new Link(file, i + 1, target));
            }
        }
        return links;
    }

    /** Why {@code link} does not resolve, or null if it does. */
    static String broken(Link link) {
        int hash = link.target().indexOf('#');
        String path = hash < 0 ? link.target() : link.target().substring(0, hash);
        String anchor = hash < 0 ? null : link.target().substring(hash + 1);
        Path target = path.isEmpty() ? link.from() : link.from().getParent().resolve(path).normalize();
        if (!target.startsWith(ROOT)) return "points outside the repository";
        if (!Files.exists(target)) return "no file " + ROOT.relativize(target);
        if (anchor == null) return null;
        if (!target.toString().endsWith(".md")) return "an anchor into a file that is not Markdown";
        Set<String> anchors = anchors(read(target));
        return anchors.contains(anchor) ? null
                : "no heading '#" + anchor + "' in " + ROOT.relativize(target) + " (its anchors: " + anchors + ")";
    }

    // ------------------------------------------------------------------ the checks

    @Test
    void everyRelativeLinkReachesAFileAndAHeadingOfIt() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path doc : documents()) {
            for (Link link : relativeLinks(doc)) {
                checked++;
                String why = broken(link);
                if (why != null) broken.add(link + ": " + why);
            }
        }
        assertThat(checked).as("relative links found").isGreaterThan(50);
        assertThat(broken).as("links that lead nowhere").isEmpty();
    }

    @Test
    void theLinkCheckerFindsAMissingFileAndAMissingHeading() throws IOException {
        // the checker itself can fail: a link to a file that is not there, and to a heading that is not
        Path rules = ROOT.resolve("docs/rules.md");
        assertThat(broken(new Link(rules, 1, "recovery.md#the-state-of-a-call"))).isNull();
        assertThat(broken(new Link(rules, 1, "#the-recovery-rules"))).isNull();
        assertThat(broken(new Link(rules, 1, "no-such-guide.md"))).startsWith("no file docs/no-such-guide.md");
        assertThat(broken(new Link(rules, 1, "recovery.md#no-such-heading"))).startsWith("no heading '#no-such-heading'");
        assertThat(broken(new Link(rules, 1, "../../outside.md"))).isEqualTo("points outside the repository");
        assertThat(anchors("# A `code` heading: (with) punctuation, 0.1.0!\n## Twice\n## Twice\n```\n# not a heading\n```\n"))
                .containsExactly("a-code-heading-with-punctuation-010", "twice", "twice-1");
    }

    @Test
    void theReadmeIsALandingPageOfAtMost300Lines() {
        long lines = read(ROOT.resolve("README.md")).lines().count();
        assertThat(lines).as("README.md's lines: the details belong in docs/ (issue 28)").isLessThanOrEqualTo(300);
    }

    @Test
    void theReadmeMapsEveryGuide() throws IOException {
        Set<String> linked = new TreeSet<>();
        for (Link link : relativeLinks(ROOT.resolve("README.md"))) linked.add(link.target().replaceAll("#.*", ""));
        List<String> guides = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).map(f -> ROOT.relativize(f).toString()).sorted().forEach(guides::add);
        }
        assertThat(guides).as("the guides").contains("docs/rules.md", "docs/certification.md", "docs/stores/jdbc.md");
        assertThat(linked).as("the README's links").containsAll(guides);
    }

    @Test
    void theReadmeShowsTheMainJobAndTheTestCommandCiRuns() throws IOException {
        List<String> commands = read(ROOT.resolve("README.md")).lines().filter(l -> l.startsWith("./mvnw")).distinct().toList();
        String testCommand = "./mvnw -B verify";
        assertThat(commands).containsExactly(
                "./mvnw -q -pl examples -am package -DskipTests && java -jar examples/target/baton-examples.jar demo",
                testCommand);
        assertThat(read(ROOT.resolve(".ci/run")).lines().map(String::strip)).as(".ci/run runs the README's test command")
                .contains(testCommand);
    }

    private static final Pattern RULE = Pattern.compile("^(\\d+|[RMLSDN]\\d+)\\. ");
    private static final Pattern TEST_NAME = Pattern.compile("`([a-z][A-Za-z0-9_]{19,})`");

    @Test
    void everyRuleNamesTheTckTestsThatProveIt_andEachIsATestOfTheTck() throws IOException {
        Set<String> tests = tckTests();
        assertThat(tests).as("test methods of the TCK").hasSizeGreaterThan(150).contains("onlySuspendedRunsAreListed");
        // the security rules (S) are about the HTTP surface: their tests are those of baton-http and the starter
        tests.addAll(testsIn("http/src/test/java"));
        tests.addAll(testsIn("spring-boot-starter-tests/src/test/java"));

        // the delivery rules (N7 to N12) are proven by baton-notify's own tests: delivery is no store duty
        Set<String> delivery = testsIn("notify/src/test/java");
        Map<String, List<String>> rules = new java.util.LinkedHashMap<>();
        String current = null;
        boolean deliverySection = false;
        for (String line : read(ROOT.resolve("docs/rules.md")).split("\n")) {
            if (line.startsWith("#")) deliverySection = line.startsWith("### Delivery");
            Matcher rule = RULE.matcher(line);
            if (rule.find()) {
                current = rule.group(1);
                assertThat(rules).as("rule %s appears once", current).doesNotContainKey(current);
                rules.put(current, new ArrayList<>());
            } else if (line.isBlank() || line.startsWith("#")) {
                current = null;
            }
            Matcher name = TEST_NAME.matcher(line);
            while (name.find()) {
                assertThat(deliverySection ? delivery : tests).as("docs/rules.md names `%s`: a test method of the TCK "
                        + "(tck/src/main/java; for the S rules of http or the starter), or in its Delivery section of baton-notify (notify/src/test/java)", name.group(1))
                        .contains(name.group(1));
                if (current != null) rules.get(current).add(name.group(1));
            }
        }
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 11; i++) expected.add(String.valueOf(i));
        for (int i = 1; i <= 12; i++) expected.add("R" + i);
        for (int i = 1; i <= 9; i++) expected.add("M" + i);
        for (int i = 1; i <= 6; i++) expected.add("L" + i);
        for (int i = 1; i <= 9; i++) expected.add("D" + i);
        for (int i = 1; i <= 12; i++) expected.add("N" + i);
        for (int i = 1; i <= 10; i++) expected.add("S" + i);
        assertThat(rules.keySet()).as("the rules of docs/rules.md").containsExactlyElementsOf(expected);
        rules.forEach((rule, names) -> assertThat(names).as("the tests named by rule %s", rule).isNotEmpty());
    }

    private static final Pattern APPROVER_RULE = Pattern.compile("^(A\\d+)\\. ");

    @Test
    void everyApproverRuleNamesTheTckTestsThatProveIt_andEachIsATestOfTheTck() throws IOException {
        // the approver rules live in docs/approvals.md (issue 37), in the section of that name
        Set<String> tests = tckTests();
        String doc = read(ROOT.resolve("docs/approvals.md"));
        int from = doc.indexOf("### The approver rules");
        assertThat(from).as("docs/approvals.md has a section 'The approver rules'").isGreaterThan(0);
        String section = doc.substring(from, doc.indexOf("\n#", from + 1));
        Map<String, List<String>> rules = new java.util.LinkedHashMap<>();
        String current = null;
        for (String line : section.split("\n")) {
            Matcher rule = APPROVER_RULE.matcher(line);
            if (rule.find()) {
                current = rule.group(1);
                rules.put(current, new ArrayList<>());
            } else if (line.isBlank()) {
                current = null;
            }
            Matcher name = TEST_NAME.matcher(line);
            while (name.find()) {
                assertThat(tests).as("docs/approvals.md names `%s`: a test method of the TCK", name.group(1)).contains(name.group(1));
                if (current != null) rules.get(current).add(name.group(1));
            }
        }
        assertThat(rules.keySet()).as("the approver rules").containsExactly("A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9", "A10", "A11");
        rules.forEach((rule, names) -> assertThat(names).as("the tests named by rule %s", rule).isNotEmpty());
    }

    private static final Pattern TEST_ANNOTATION = Pattern.compile("^\\s*@(Test|RepeatedTest|ParameterizedTest|TestFactory)\\b");
    private static final Pattern METHOD = Pattern.compile("^\\s*(?:(?:public|protected|private|static|final)\\s+)*[\\w<>\\[\\], ?]+\\s+(\\w+)\\s*\\(");

    /** The names of the test methods in the TCK's sources. */
    static Set<String> tckTests() throws IOException {
        return testsIn("tck/src/main/java");
    }

    /** The test methods of the sources under {@code dir} (relative to the repository). */
    static Set<String> testsIn(String dir) throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.walk(ROOT.resolve(dir))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                List<String> lines = read(f).lines().toList();
                for (int i = 0; i < lines.size(); i++) {
                    if (!TEST_ANNOTATION.matcher(lines.get(i)).find()) continue;
                    for (int j = i + 1; j < lines.size(); j++) {
                        if (lines.get(j).strip().startsWith("@")) continue;
                        Matcher m = METHOD.matcher(lines.get(j));
                        if (m.find()) names.add(m.group(1));
                        break;
                    }
                }
            }
        }
        return names;
    }
}
