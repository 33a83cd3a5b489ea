package dev.baton.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plays {@code demo} end to end in real, separate JVMs: the test starts the first JVM, which
 * starts the second one itself, and reads everything both printed.
 */
class InboxDemoTest {

    @TempDir
    Path dir;

    @Test
    void demoOnTheDefaultStorePlaysTheWholeStoryInTwoJvms() throws Exception {
        Jvm.Result r = Jvm.inboxApp(dir, "demo");

        assertThat(r.exitCode()).as(r.all()).isZero();
        assertWholeStory(r);
        assertThat(dir.resolve("data/demo.db")).as("the default store is a SQLite file under ./data/").exists();
    }

    @Test
    void demoRunsOnAnH2FileDatabaseAndCanBePlayedAgain() throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("h2/baton").toAbsolutePath() + ";AUTO_SERVER=TRUE";

        Jvm.Result first = Jvm.inboxApp(dir, "--store", url, "demo");
        assertThat(first.exitCode()).as(first.all()).isZero();
        assertWholeStory(first);
        assertThat(first.out()).contains("store:   H2 jdbc:h2:file:").doesNotContain("left by an earlier demo");

        // the 2 runs left waiting by the first demo (and its audit trail) are removed, and the story is the same
        Jvm.Result again = Jvm.inboxApp(dir, "--store", url, "demo");
        assertThat(again.exitCode()).as(again.all()).isZero();
        assertThat(again.out()).contains("(removed 2 runs left by an earlier demo in this store)");
        assertWholeStory(again);
    }

    private static void assertWholeStory(Jvm.Result r) throws java.io.IOException {
        String out = r.out();
        // the demo's sections are the steps docs/examples.md lists, one for one
        java.util.List<Integer> sections = Pattern.compile("(?m)^== (\\d+)\\. ").matcher(out).results()
                .map(m -> Integer.parseInt(m.group(1))).toList();
        String guide = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "examples.md"));
        String shows = guide.substring(guide.indexOf("## What the demo shows"), guide.indexOf("## Step by step"));
        java.util.List<Integer> steps = Pattern.compile("(?m)^(\\d+)\\. \\*\\*").matcher(shows).results()
                .map(m -> Integer.parseInt(m.group(1))).toList();
        assertThat(sections).as("the demo's sections against the steps of docs/examples.md").isEqualTo(steps)
                .hasSizeGreaterThan(8);
        assertThat(r.err()).as("stderr").doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("[ERROR]");
        assertThat(out).doesNotContain("Exception").doesNotContain("\tat ");

        // two different JVMs
        Matcher firstPid = Pattern.compile("process: pid (\\d+) \\(first JVM\\)").matcher(out);
        Matcher secondPid = Pattern.compile("New JVM \\(pid (\\d+)\\)").matcher(out);
        assertThat(firstPid.find()).as(out).isTrue();
        assertThat(secondPid.find()).as(out).isTrue();
        assertThat(secondPid.group(1)).isNotEqualTo(firstPid.group(1));
        assertThat(out.indexOf("New JVM")).isGreaterThan(out.indexOf("starting: "));

        // part one: the runs suspend, the 40 EUR refund goes through without approval
        assertThat(count(out, "-> SUSPENDED run ")).isEqualTo(7);   // 6 concierge runs + the supervisor's
        assertThat(out).contains("-> COMPLETED at once, no approval needed: \"refund: {\"order\":\"A-1002\",\"refunded\":40}.\"");

        // the inbox table: aligned rows, newest creation first
        String inbox = section(out, "== 2.", "== 3.");
        assertThat(inbox).contains("RUN ", "CALL ", "USER ", "THREAD ", "WAITS FOR ", "TOOL ", "DETAILS");
        List<String> rows = rows(inbox);
        assertThat(rows).hasSize(6);
        assertThat(rows.get(0)).contains("dave", "dave-documents", "2026-06-05 16:40", "data", "askPassportNumber",
                "What is your passport number?");
        assertThat(rows.get(1)).contains("carol", "carol-orders", "approval", "refund", "{\"amount\":180,\"order\":\"A-1003\"}");
        assertThat(rows.get(5)).contains("alice", "alice-lisbon", "2026-06-01 09:00", "approval", "bookFlight", "{\"to\":\"Lisbon\"}");
        assertAligned(inbox);
        assertThat(inbox).contains("6 suspended runs, total 6");

        // supervisor and subagent each list only their own run
        String sup = section(out, "== 3.", "== 4.");
        String outer = section(sup, "> --agent travel-desk list", "> --agent visa-desk list");
        String inner = section(sup, "> --agent visa-desk list", "and 'concierge'");
        assertThat(rows(outer)).singleElement().asString().contains("erin", "applyVisa", "{\"country\":\"Japan\"}");
        assertThat(rows(inner)).singleElement().asString().contains("erin", "applyVisa");
        assertThat(runId(rows(outer).get(0))).isNotEqualTo(runId(rows(inner).get(0)));
        assertThat(sup).contains("and 'concierge' still lists 6 runs: none of these two.");

        // part two, in the new JVM: filters and paging with totals
        String lists = section(out, "== 5.", "== 6.");
        String byThread = section(lists, "> list --thread alice-lisbon", "> list --resource bob");
        assertThat(rows(byThread)).hasSize(2).allSatisfy(row -> assertThat(row).contains("alice-lisbon"));
        assertThat(byThread).contains("2 suspended runs, total 2");
        String byResource = section(lists, "> list --resource bob", "> list --from");
        assertThat(rows(byResource)).singleElement().asString().contains("bob", "{\"amount\":250,\"order\":\"A-1001\"}");
        assertThat(byResource).contains("1 suspended run, total 1");
        String byDate = section(lists, "> list --from 2026-06-02 --to 2026-06-03", "> list --per-page 4 --page 0");
        assertThat(rows(byDate)).hasSize(2);
        assertThat(rows(byDate).get(0)).contains("carol-tokyo", "2026-06-03 11:00");
        assertThat(rows(byDate).get(1)).contains("bob-orders", "2026-06-02 14:30");
        String page0 = section(lists, "> list --per-page 4 --page 0", "> list --per-page 4 --page 1");
        assertThat(rows(page0)).hasSize(4);
        assertThat(page0).contains("page 0 of pages 0..1 (4 per page): runs 1-4, total 6");
        String page1 = section(lists, "> list --per-page 4 --page 1", null);
        assertThat(rows(page1)).hasSize(2);
        assertThat(page1).contains("page 1 of pages 0..1 (4 per page): runs 5-6, total 6");
        assertThat(runIds(page0)).doesNotContainAnyElementsOf(runIds(page1));

        // approve, decline, resume: one line per event, in order
        String acts = section(out, "== 6.", "== 7.");
        assertThat(acts).containsSubsequence(
                "> approve ", "# carol's flight to Tokyo",
                "| start ", "| tool-result         bookFlight -> {\"booked\":\"Tokyo\",\"confirmation\":\"BK-",
                "| step-finish         step 1, tool-calls", "| finish              stop: \"bookFlight: ", "COMPLETED",
                "> decline ", "--reason \"Order A-1001 was already refunded at the till\"",
                "| tool-output-denied  refund did not run: \"Order A-1001 was already refunded at the till\"",
                "| finish              stop: \"refund: Order A-1001 was already refunded at the till.\"", "COMPLETED",
                "> resume ", "'{\"passportNumber\":\"X9876543\"}'",
                "| tool-result         askPassportNumber -> {\"passportOnFile\":\"*****543\"}", "COMPLETED",
                "> --agent travel-desk approve ",
                "| tool-result         agent-visa-desk -> \"applyVisa: {\\\"country\\\":\\\"Japan\\\",\\\"visa\\\":\\\"filed\\\"}.\"",
                "COMPLETED");
        assertThat(acts).doesNotContain("| tool-result         refund");   // declined: the tool never ran
        assertThat(count(acts, "COMPLETED; its snapshot is deleted")).isEqualTo(4);

        // completed runs are gone, the rest still wait
        String end = section(out, "== 7.", null);
        // a second approval of a call that was decided says so (what it says depends on what the store keeps)
        assertThat(end).containsAnyOf("error: No snapshot found for run ", "already decided");
        String left = section(end, "> list\n", "> --agent travel-desk list");
        assertThat(rows(left)).hasSize(3);
        assertThat(rows(left).get(0)).contains("carol-orders", "refund");
        assertThat(rows(left).get(1)).contains("alice-lisbon", "askPassportNumber");
        assertThat(rows(left).get(2)).contains("alice-lisbon", "bookFlight");
        assertThat(left).contains("3 suspended runs, total 3");
        assertThat(section(end, "> --agent travel-desk list", null)).contains("(no suspended runs)");
        assertThat(count(section(end, "> --agent travel-desk list", null), "(no suspended runs)")).isEqualTo(2);
        assertThat(out).contains("Done. Drive it yourself");
        assertEditAndAuditTrail(out);
    }

    /** Sections 9 and 10: an edited approval (after a bad edit and a stale digest were refused), then the audit trail. */
    private static void assertEditAndAuditTrail(String out) {
        String edit = section(out, "== 9.", "== 10.");
        assertThat(edit).containsSubsequence(
                "shown to maria: refund {\"amount\":180,\"order\":\"A-1003\"}, digest ",
                "--args '{\"amount\":\"a lot\",\"order\":\"A-1003\"}'", "refused: Invalid arguments for refund: field 'amount' must be an integer",
                "the run still waits, unchanged",
                "--digest 000000000000...", "refused: Tool call 'call_1_0' of run ", "is no longer the one that was shown", "the run still waits, unchanged",
                "--args '{\"amount\":150,\"order\":\"A-1003\"}' --reason \"30 EUR of it were paid back in store credit\"",
                "| tool-call-approved  refund {\"amount\":180,\"order\":\"A-1003\"} -> {\"amount\":150,\"order\":\"A-1003\"} by maria",
                "| tool-result         refund -> {\"order\":\"A-1003\",\"refunded\":150}",
                "| finish              stop: \"refund: {\"approvedArgs\":{\"amount\":150,\"order\":\"A-1003\"},\"note\":\"A person edited",
                "COMPLETED");

        String twoPeople = section(out, "== 11.", "Done.");
        assertThat(twoPeople).containsSubsequence(
                "-> run ", "waits for 2 approvals of refund {\"amount\":2400,\"order\":\"A-1042\"}",
                "# alice (finance) approves her own refund", "refused: ", "approver rule 'two-person-refunds'",
                "does not let the person who started the run approve its calls",
                "# maria (finance)", "SUSPENDED again", "1 of 2 approvals: maria; nothing ran",
                "# john (finance): the second person", "| tool-result         refund -> {\"order\":\"A-1042\",\"refunded\":2400}",
                "COMPLETED; its snapshot is deleted",
                "--agent payments decisions", "2 decisions, newest first");
        assertThat(twoPeople).doesNotContain("unexpected");

        String trail = section(out, "== 10.", "== 11.");
        String all = section(trail, "> decisions\n", "> decisions --actor tom");
        assertThat(all).contains("DECIDED (UTC)", "WHO", "DECISION", "REASON", "DIGEST SHOWN -> RUN", "4 decisions, newest first");
        List<String> rows = all.lines().filter(l -> l.matches("  \\d{4}-\\d\\d-\\d\\d .*")).toList();
        assertThat(rows).hasSize(4);
        assertThat(rows.get(0)).contains("maria", "edit", "refund", "carol", "30 EUR of it were paid back", "(edited)");
        assertThat(rows.get(1)).contains("maria", "resume", "askPassportNumber", "dave");
        assertThat(rows.get(2)).contains("tom", "decline", "refund", "bob", "Order A-1001 was already refunded");
        assertThat(rows.get(3)).contains("maria", "approve", "bookFlight", "carol").doesNotContain("(edited)");
        String toms = section(trail, "> decisions --actor tom", "> decisions --resource carol");
        assertThat(toms).contains("1 decision, newest first").doesNotContain("maria");
        String carols = section(trail, "> decisions --resource carol", null);
        assertThat(carols).contains("2 decisions, newest first", "edit", "approve").doesNotContain("decline");
    }

    // ---- reading the output -----------------------------------------------------------------

    static final Pattern ROW = Pattern.compile("(?m)^  ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})  .*$");

    /** The table rows (lines starting with a run id) of {@code text}. */
    static List<String> rows(String text) {
        return ROW.matcher(text).results().map(m -> m.group()).toList();
    }

    static List<String> runIds(String text) {
        return ROW.matcher(text).results().map(m -> m.group(1)).toList();
    }

    static String runId(String row) {
        return row.trim().split("\\s+")[0];
    }

    /** The text from the first {@code from} to the next {@code to} after it (or the end). */
    static String section(String text, String from, String to) {
        int start = text.indexOf(from);
        assertThat(start).as("'" + from + "' in:\n" + text).isGreaterThanOrEqualTo(0);
        int end = to == null ? text.length() : text.indexOf(to, start + from.length());
        assertThat(end).as("'" + to + "' after '" + from + "' in:\n" + text).isGreaterThanOrEqualTo(0);
        return text.substring(start, end);
    }

    static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + what.length())) n++;
        return n;
    }

    /** Every column starts at the same offset in the header and in every row. */
    static void assertAligned(String table) {
        List<String> lines = table.lines().toList();
        String header = lines.stream().filter(l -> l.startsWith("  RUN ")).findFirst().orElseThrow();
        int toolColumn = header.indexOf("TOOL ");
        int detailsColumn = header.indexOf("DETAILS");
        for (String row : rows(table)) {
            assertThat(row.charAt(toolColumn - 1)).as(row).isEqualTo(' ');
            assertThat(row.charAt(toolColumn)).as(row).isNotEqualTo(' ');
            assertThat(row.charAt(detailsColumn - 1)).as(row).isEqualTo(' ');
            assertThat(row.charAt(detailsColumn)).as(row).isNotEqualTo(' ');
        }
    }
}
