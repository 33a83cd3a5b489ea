package dev.baton.examples;

import static dev.baton.examples.InboxDemoTest.rows;
import static dev.baton.examples.InboxDemoTest.runId;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person driving the inbox by hand: {@code start} in one invocation, then {@code list},
 * {@code approve}, {@code decline} and {@code resume} in later ones, each a new JVM on the default
 * store under {@code ./data/}.
 */
class InboxStepByStepTest {

    @TempDir
    Path dir;

    @Test
    void startThenListAndActAcrossSeparateInvocations() throws Exception {
        Jvm.Result start = ok("start");
        assertThat(start.out()).contains("Starting sample runs (store: SQLite jdbc:sqlite:./data/baton.db)");
        assertThat(InboxDemoTest.count(start.out(), "-> SUSPENDED run ")).isEqualTo(7);

        Jvm.Result all = ok("list");
        assertThat(rows(all.out())).hasSize(6);
        assertThat(all.out()).contains("6 suspended runs, total 6");

        // approve carol's flight, found with a thread filter
        List<String> tokyo = rows(ok("list", "--thread", "carol-tokyo").out());
        assertThat(tokyo).singleElement().asString().contains("bookFlight", "call_1_0");
        Jvm.Result approved = ok("approve", runId(tokyo.get(0)), "call_1_0");
        assertThat(approved.out()).containsSubsequence("| start ", "| tool-result         bookFlight -> {\"booked\":\"Tokyo\"",
                "| finish ", "COMPLETED; its snapshot is deleted");

        // the same approval again, in yet another JVM: the run is gone, and the store says who approved it and when
        Jvm.Result again = Jvm.inboxApp(dir, "approve", runId(tokyo.get(0)), "call_1_0");
        assertThat(again.exitCode()).as(again.all()).isEqualTo(1);
        assertThat(again.err()).startsWith("error: Run '" + runId(tokyo.get(0)) + "' is no longer suspended: tool call 'call_1_0' "
                        + "was already decided (approve) by '" + Inbox.defaultActor() + "' at ")
                .contains("the run has ended; there is nothing left to decide")
                .doesNotContain("Exception").doesNotContain("\tat ");

        // decline bob's refund with a reason, found with a resource filter
        List<String> bob = rows(ok("list", "--resource", "bob").out());
        assertThat(bob).singleElement().asString().contains("refund", "250");
        Jvm.Result declined = ok("decline", runId(bob.get(0)), "call_1_0", "--reason", "duplicate order");
        assertThat(declined.out()).contains("| tool-output-denied  refund did not run: \"duplicate order\"")
                .doesNotContain("| tool-result         refund");

        // resume dave's passport question with data: too short first, so it asks again under the same run id
        List<String> dave = rows(ok("list", "--resource", "dave").out());
        String daveRun = runId(dave.get(0));
        Jvm.Result tooShort = ok("resume", daveRun, "{\"passportNumber\":\"12\"}");
        assertThat(tooShort.out()).contains("| tool-call-suspended askPassportNumber asks {\"question\":\"That was not a passport number. What is it?\"}",
                "=> run " + daveRun + " SUSPENDED again, waits for data for askPassportNumber");
        assertThat(ok("list", "--resource", "dave").out()).contains(daveRun, "That was not a passport number.");
        Jvm.Result resumed = ok("resume", daveRun, "{\"passportNumber\":\"P1234567\"}");
        assertThat(resumed.out()).contains("| tool-result         askPassportNumber -> {\"passportOnFile\":\"*****567\"}",
                "COMPLETED; its snapshot is deleted");

        // the supervisor's run is listed (and approved) only with --agent travel-desk
        assertThat(ok("list", "--resource", "erin").out()).contains("(no suspended runs)");
        List<String> erin = rows(ok("--agent", "travel-desk", "list").out());
        assertThat(erin).singleElement().asString().contains("erin", "applyVisa");
        assertThat(ok("--agent", "travel-desk", "approve", runId(erin.get(0)), "call_1_0").out())
                .contains("| tool-result         agent-visa-desk -> ", "COMPLETED");
        assertThat(ok("--agent", "visa-desk", "list").out()).contains("(no suspended runs)");

        // paging over what is left: alice's two runs and carol's refund
        Jvm.Result page = ok("list", "--per-page", "2", "--page", "1");
        assertThat(rows(page.out())).singleElement().asString().contains("alice");
        assertThat(page.out()).contains("page 1 of pages 0..1 (2 per page): run 3, total 3");
        assertThat(rows(ok("list", "--from", "2000-01-01", "--to", "2000-12-31").out())).isEmpty();
    }

    @Test
    void startsOneRunFromAPrompt() throws Exception {
        Jvm.Result r = ok("start", "--resource", "zoe", "--thread", "zoe-rome", "Book", "a", "flight", "to", "Rome");
        assertThat(r.out()).contains("zoe / zoe-rome", "\"Book a flight to Rome\"", "waits for approval of bookFlight (call call_1_0)");
        List<String> zoe = rows(ok("list", "--thread", "zoe-rome").out());
        assertThat(zoe).singleElement().asString().contains("zoe", "{\"to\":\"Rome\"}");
        Jvm.Result small = ok("start", "--resource", "zoe", "Refund 20 EUR for order Z-1");
        assertThat(small.out()).contains("-> COMPLETED at once, no approval needed");
    }

    private Jvm.Result ok(String... args) throws Exception {
        Jvm.Result r = Jvm.inboxApp(dir, args);
        assertThat(r.exitCode()).as(r.all()).isZero();
        assertThat(r.err()).as(r.all()).isEmpty();
        return r;
    }
}
