package dev.baton.examples;

import static dev.baton.examples.InboxDemoTest.rows;
import static dev.baton.examples.InboxDemoTest.runId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionRecord;
import dev.baton.store.SnapshotStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deciding commands' options, in-process on a SQLite store of their own: {@code approve --args}
 * (an edit, validated by core before anything runs), {@code --actor} on every command that decides
 * and its default ({@code cli:} and the OS user), {@code --idempotency-key}, and the
 * {@code decisions} command that reads the audit trail back.
 */
class InboxDecisionsTest {

    @TempDir
    Path dir;

    private String store;

    @BeforeEach
    void startSampleRuns() {
        store = "jdbc:sqlite:" + dir.resolve("baton.db");
        assertThat(ok("start").out()).contains("-> SUSPENDED run ");
    }

    @Test
    void anEditedApprovalRunsTheToolWithTheEditedInputAndRecordsTheActorAndBothDigests() {
        String run = runOf("carol", "refund");

        Cli approved = ok("approve", run, "call_1_0", "--args", "{\"amount\":150,\"order\":\"A-1003\"}",
                "--actor", "tom", "--reason", "part was store credit");
        assertThat(approved.out()).containsSubsequence(
                "| tool-call-approved  refund {\"amount\":180,\"order\":\"A-1003\"} -> {\"amount\":150,\"order\":\"A-1003\"} by tom",
                "| tool-result         refund -> {\"order\":\"A-1003\",\"refunded\":150}",
                "COMPLETED");

        DecisionRecord d = onlyDecision(run);
        assertThat(d.kind()).isEqualTo(DecisionKind.EDIT);
        assertThat(d.actor()).isEqualTo("tom");
        assertThat(d.reason()).isEqualTo("part was store credit");
        assertThat(d.argsDigestBefore()).isNotBlank();
        assertThat(d.argsDigestAfter()).isNotBlank().isNotEqualTo(d.argsDigestBefore());

        // the same trail, as the decisions command prints it
        Cli trail = ok("decisions", "--run", run);
        assertThat(trail.out()).contains("DIGEST SHOWN -> RUN", "1 decision, newest first");
        assertThat(trail.out().lines().filter(l -> l.contains("edit")).findFirst()).get().asString()
                .contains("tom", "refund", "carol", "part was store credit",
                        d.argsDigestBefore().substring(0, 12) + " -> " + d.argsDigestAfter().substring(0, 12) + " (edited)");
    }

    @Test
    void aBadEditExitsNonZeroNamingTheFieldAndTheRuleAndTheRunStillWaits() {
        String run = runOf("carol", "refund");

        Cli refused = cli("approve", run, "call_1_0", "--args", "{\"amount\":\"a lot\",\"order\":\"A-1003\"}", "--actor", "tom");
        assertThat(refused.code()).as(refused.err()).isEqualTo(1);
        assertThat(refused.err().lines()).as(refused.err()).singleElement().asString()
                .startsWith("error: Invalid arguments for refund: field 'amount' must be an integer");
        assertThat(refused.out()).doesNotContain("tool-result");

        assertThat(rows(ok("list", "--resource", "carol").out())).anySatisfy(r -> assertThat(r).contains(run, "refund"));
        assertThat(ok("decisions", "--run", run).out()).contains("(no decisions)");

        // not JSON, or not an object: a usage error (2) before the store is touched
        Cli notJson = cli("approve", run, "call_1_0", "--args", "{amount");
        assertThat(notJson.code()).isEqualTo(2);
        assertThat(notJson.err()).startsWith("error: --args: not valid JSON: ");
        Cli notObject = cli("approve", run, "call_1_0", "--args", "[150]");
        assertThat(notObject.code()).isEqualTo(2);
        assertThat(notObject.err()).startsWith("error: args: must be a JSON object, was array");
    }

    @Test
    void cancelAndDiscardRecordTheGivenActorOrByDefaultCliAndTheOsUser() {
        String cancelled = runOf("bob", "250");
        String discarded = runOf("alice", "bookFlight");

        assertThat(ok("cancel", cancelled, "--actor", "ops:erin", "--reason", "customer withdrew").out())
                .contains("Cancelled run " + cancelled + ": customer withdrew (by ops:erin)");
        assertThat(ok("discard", discarded).out()).contains("Discarded run " + discarded + " (by " + Inbox.defaultActor() + ")");

        assertThat(Inbox.defaultActor()).isEqualTo("cli:" + System.getProperty("user.name"));
        DecisionRecord c = onlyDecision(cancelled);
        assertThat(c.kind()).isEqualTo(DecisionKind.CANCEL);
        assertThat(c.actor()).isEqualTo("ops:erin");
        assertThat(c.reason()).isEqualTo("customer withdrew");
        DecisionRecord d = onlyDecision(discarded);
        assertThat(d.kind()).isEqualTo(DecisionKind.DISCARD);
        assertThat(d.actor()).isEqualTo(Inbox.defaultActor()).isNotEqualTo(DecisionRecord.UNKNOWN);

        assertThat(ok("decisions", "--actor", "ops:erin").out()).contains("1 decision, newest first", "cancel")
                .doesNotContain("discard");
    }

    @Test
    void approveAndDeclineWithoutActorRecordTheDefaultActor() {
        String flight = runOf("carol", "bookFlight");
        String refund = runOf("bob", "250");
        ok("approve", flight, "call_1_0");
        ok("decline", refund, "call_1_0", "--reason", "duplicate");

        assertThat(onlyDecision(flight).actor()).isEqualTo(Inbox.defaultActor());
        assertThat(onlyDecision(refund).actor()).isEqualTo(Inbox.defaultActor());
        assertThat(onlyDecision(refund).kind()).isEqualTo(DecisionKind.DECLINE);
    }

    @Test
    void theSameApprovalSentAgainWithItsIdempotencyKeyAnswersWithTheFirstDecision() {
        String run = runOf("carol", "bookFlight");
        ok("approve", run, "call_1_0", "--idempotency-key", "k-1", "--actor", "tom");

        Cli again = ok("approve", run, "call_1_0", "--idempotency-key", "k-1", "--actor", "tom");
        assertThat(again.out()).contains("(already decided with this idempotency key: approve by tom at ", "nothing ran again)")
                .doesNotContain("tool-result");
        assertThat(onlyDecision(run).idempotencyKey()).isEqualTo("k-1");
    }

    @Test
    void aDecisionBoundToAnotherDigestIsRefusedAndNothingRuns() {
        String run = runOf("carol", "bookFlight");
        Cli stale = cli("approve", run, "call_1_0", "--digest", "0".repeat(64));
        assertThat(stale.code()).as(stale.err()).isEqualTo(1);
        assertThat(stale.err()).startsWith("error: Tool call 'call_1_0' of run ").contains("is no longer the one that was shown");
        assertThat(stale.out()).doesNotContain("tool-result");
        assertThat(rows(ok("list", "--resource", "carol").out())).anySatisfy(r -> assertThat(r).contains(run, "bookFlight"));
    }

    @Test
    void decisionsArePagedByTheCursorPrintedUnderTheTable() {
        ok("approve", runOf("carol", "bookFlight"), "call_1_0", "--actor", "maria");
        ok("decline", runOf("bob", "250"), "call_1_0", "--actor", "tom");

        Cli first = ok("decisions", "--limit", "1");
        assertThat(first.out()).contains("tom", "decline").doesNotContain("maria");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("more after --cursor (\\S+)").matcher(first.out());
        assertThat(m.find()).as(first.out()).isTrue();
        Cli second = ok("decisions", "--limit", "1", "--cursor", m.group(1));
        assertThat(second.out()).contains("maria", "approve").doesNotContain("tom");

        java.time.LocalDate today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);   // yesterday too: a test run across midnight
        assertThat(ok("decisions", "--from", today.minusDays(1).toString(), "--to", today.toString()).out())
                .contains("2 decisions, newest first");
        assertThat(ok("decisions", "--to", "2000-01-01").out()).contains("(no decisions)");
        Cli badLimit = cli("decisions", "--limit", "0");
        assertThat(badLimit.code()).isEqualTo(2);
        assertThat(badLimit.err()).startsWith("error: limit: must be 1..1000, was 0");
    }

    @Test
    void aBlankActorIsAUsageError() {
        Cli blank = cli("cancel", "some-run", "--actor", " ");
        assertThat(blank.code()).isEqualTo(2);
        assertThat(blank.err()).startsWith("error: actor: ");
    }

    @Test
    void theUsageNamesTheNewOptions() {
        String usage = ok("--help").out();
        assertThat(usage).contains("approve [--args JSON] [--reason TEXT] RUN CALL", "decisions [--run RUN]",
                "approve, decline, resume, continue, cancel and discard also take:", "--actor NAME", "--idempotency-key KEY",
                "--digest D");
    }

    // ---- helpers ------------------------------------------------------------------------------

    record Cli(int code, String out, String err) { }

    private Cli cli(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--store";
        all[1] = store;
        System.arraycopy(args, 0, all, 2, args.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = InboxApp.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Cli(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Cli ok(String... args) {
        Cli r = cli(args);
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        return r;
    }

    /** The run of {@code resource} whose row mentions {@code what}. */
    private String runOf(String resource, String what) {
        List<String> rows = rows(ok("list", "--resource", resource).out()).stream().filter(r -> r.contains(what)).toList();
        assertThat(rows).as(resource + " / " + what).hasSize(1);
        return runId(rows.get(0));
    }

    /** The run's one decision, read from the store as a Java caller would. */
    private DecisionRecord onlyDecision(String runId) {
        try (SnapshotStore s = InboxApp.openStore(store);
             TravelAgents agents = new TravelAgents(s, Clock.systemUTC())) {
            List<DecisionRecord> items = agents.concierge().listDecisions(AgentListDecisionsOptions.builder().runId(runId).build()).items();
            assertThat(items).hasSize(1);
            return items.get(0);
        }
    }
}
