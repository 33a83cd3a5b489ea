package dev.baton.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.BatonException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole story in two JVMs. The first process starts runs for several users and threads on
 * different days, prints the inbox and the supervisor / subagent runs, closes its store and starts
 * a second JVM ({@code demo-restart}) with the same class path. That process has nothing in
 * memory: it rebuilds the agents, finds the runs in the store with filters and paging, approves
 * one, declines one, resumes one with data, shows what is left, approves one with edited arguments
 * ({@link DemoDecisions}) and shows the audit trail: who decided what.
 */
final class Demo {
    /** The hidden command the first process gives the second one. */
    static final String RESTART_COMMAND = "demo-restart";

    static final String DECLINE_REASON = "Order A-1001 was already refunded at the till";
    static final String EDIT_REASON = "30 EUR of it were paid back in store credit";
    /** Who decides in the second JVM: recorded in the audit trail with each decision. */
    static final String MARIA = "maria";
    static final String TOM = "tom";
    static final String PASSPORT_JSON = "{\"passportNumber\":\"X9876543\"}";

    /** A run the demo starts: when, by which agent, for whom, saying what. */
    record Sample(String at, String agentId, String resourceId, String threadId, String prompt) {
        Instant instant() {
            return Instant.parse(at);
        }
    }

    /** The concierge's runs, days apart; the 40 EUR refund is under the approval limit and completes at once. */
    static final List<Sample> CONCIERGE_RUNS = List.of(
            new Sample("2026-06-01T09:00:00Z", TravelAgents.CONCIERGE, "alice", "alice-lisbon", "Book a flight to Lisbon"),
            new Sample("2026-06-01T09:20:00Z", TravelAgents.CONCIERGE, "alice", "alice-lisbon", "Take my passport number for the Lisbon trip"),
            new Sample("2026-06-02T14:30:00Z", TravelAgents.CONCIERGE, "bob", "bob-orders", "Refund 250 EUR for order A-1001"),
            new Sample("2026-06-02T14:45:00Z", TravelAgents.CONCIERGE, "bob", "bob-orders", "Refund 40 EUR for order A-1002"),
            new Sample("2026-06-03T11:00:00Z", TravelAgents.CONCIERGE, "carol", "carol-tokyo", "Book a flight to Tokyo"),
            new Sample("2026-06-04T08:15:00Z", TravelAgents.CONCIERGE, "carol", "carol-orders", "Refund 180 EUR for order A-1003"),
            new Sample("2026-06-05T16:40:00Z", TravelAgents.CONCIERGE, "dave", "dave-documents", "Take my passport number for my file"));

    /** The supervisor's run; its subagent's own run starts inside it. */
    static final Sample SUPERVISOR_RUN =
            new Sample("2026-06-05T17:00:00Z", TravelAgents.TRAVEL_DESK, "erin", "erin-japan", "I need a visa for Japan");

    private final PrintStream out;
    private final Inbox inbox;

    Demo(PrintStream out) {
        this.out = out;
        this.inbox = new Inbox(out, MARIA);
    }

    // ---- the first process --------------------------------------------------------------------

    /** Plays part one on {@code url}, then runs part two in a new JVM; returns that JVM's exit code. */
    int firstProcess(String url) throws IOException, InterruptedException {
        out.println("Baton approval inbox demo: runs that wait for people, found again after a restart");
        try (SnapshotStore store = InboxApp.openStore(url)) {
            out.println("store:   " + store.describe());
            out.println("process: pid " + ProcessHandle.current().pid() + " (first JVM)");
            int cleaned = clean(store);
            if (cleaned > 0) out.println("         (removed " + cleaned + " runs left by an earlier demo in this store)");

            SettableClock clock = new SettableClock(CONCIERGE_RUNS.get(0).instant());
            try (TravelAgents agents = new TravelAgents(store, clock)) {
                heading("1. Users start runs; the concierge suspends those that need a person or data");
                for (Sample s : CONCIERGE_RUNS) {
                    clock.set(s.instant());
                    inbox.start(agents.concierge(), s.prompt(), s.threadId(), s.resourceId());
                }

                heading("2. The inbox: listSuspendedRuns() of agent '" + TravelAgents.CONCIERGE + "'");
                command("list");
                inbox.list(agents.concierge(), AgentListSuspendedRunsOptions.ALL);

                heading("3. A supervisor with a subagent: each agent lists only its own run");
                clock.set(SUPERVISOR_RUN.instant());
                inbox.start(agents.travelDesk(), SUPERVISOR_RUN.prompt(), SUPERVISOR_RUN.threadId(), SUPERVISOR_RUN.resourceId());
                out.println();
                command("--agent " + TravelAgents.TRAVEL_DESK + " list" + "     # the outer run, showing the inner tool");
                inbox.list(agents.travelDesk(), AgentListSuspendedRunsOptions.ALL);
                out.println();
                command("--agent " + TravelAgents.VISA_DESK + " list" + "       # the subagent's own inner run");
                inbox.list(agents.visaDesk(), AgentListSuspendedRunsOptions.ALL);
                out.println();
                long conciergeTotal = agents.concierge().listSuspendedRuns().total();
                out.println(Inbox.INDENT + "and '" + TravelAgents.CONCIERGE + "' still lists " + conciergeTotal
                        + " runs: none of these two.");
            }
        }

        heading("4. This JVM closes the store and exits; a new JVM takes over");
        List<String> cmd = List.of(javaBinary(), "-cp", System.getProperty("java.class.path"),
                InboxApp.class.getName(), "--store", url, RESTART_COMMAND);
        out.println(Inbox.INDENT + "starting: " + String.join(" ", shortened(cmd)));
        out.flush();
        Process second = new ProcessBuilder(cmd).inheritIO().start();
        int code = second.waitFor();
        if (code != 0) out.println("the second JVM exited with " + code);
        return code;
    }

    /** Deletes every run of the demo's agents, so the demo can be played again on the same store. */
    private static int clean(SnapshotStore store) {
        int n = 0;
        List<String> ids = new java.util.ArrayList<>(TravelAgents.ids());
        ids.add(DemoDecisions.PAYMENTS);
        for (String id : ids) {
            for (RunSnapshot s : store.list(RunQuery.forAgent(id, Instant.now()).status(null).build()).items()) {
                if (store.delete(s.runId(), s.version())) n++;
            }
        }
        // and its conversations, so a follow-up sees this play's runs only
        if (store.capabilities().contains(StoreCapability.THREAD_MEMORY)) {
            dev.baton.memory.Memory memory = dev.baton.memory.Memory.builder().store(store).build();
            TravelAgents.THREADS.forEach((thread, resource) -> memory.deleteThread(resource, thread));
        }
        // and its audit trail, so the trail shown is this play's
        if (store.capabilities().contains(StoreCapability.DECISIONS)) {
            Instant all = Instant.now().plus(Duration.ofDays(1));
            for (String id : ids) {
                for (int batch = 0; batch < 10_000 && store.purgeDecisions(id, all, 500) == 500; batch++) {
                    // bounded: 5,000,000 records at most
                }
            }
        }
        return n;
    }

    private static String javaBinary() {
        File java = new File(new File(System.getProperty("java.home"), "bin"), "java");
        return java.getPath();
    }

    private static List<String> shortened(List<String> cmd) {
        List<String> shown = new ArrayList<>(cmd);
        // quoted as a shell would need it, so the line can be pasted
        shown.replaceAll(a -> a.matches("[A-Za-z0-9_./:=@-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
        if (cmd.get(2).contains(File.pathSeparator)) shown.set(2, "<same class path>");
        return shown;
    }

    // ---- the second process -------------------------------------------------------------------

    /** Part two, in the new JVM; returns the exit code. */
    int secondProcess(String url) {
        int failures = 0;
        try (SnapshotStore store = InboxApp.openStore(url);
             TravelAgents agents = new TravelAgents(store, Clock.systemUTC())) {
            Agent concierge = agents.concierge();
            heading("5. New JVM (pid " + ProcessHandle.current().pid() + "): nothing in memory, the runs are found in the store");

            command("list --thread alice-lisbon");
            inbox.list(concierge, AgentListSuspendedRunsOptions.builder().threadId("alice-lisbon").build());
            out.println();
            command("list --resource bob" + "                  # bob's 40 EUR refund needed no approval: not here");
            inbox.list(concierge, AgentListSuspendedRunsOptions.builder().resourceId("bob").build());
            out.println();
            command("list --from 2026-06-02 --to 2026-06-03" + "   # creation time, both days inclusive");
            inbox.list(concierge, AgentListSuspendedRunsOptions.builder()
                    .fromDate(InboxApp.fromDate("2026-06-02")).toDate(InboxApp.toDate("2026-06-03")).build());
            out.println();
            command("list --per-page 4 --page 0");
            inbox.list(concierge, AgentListSuspendedRunsOptions.builder().perPage(4).page(0).build());
            out.println();
            command("list --per-page 4 --page 1");
            inbox.list(concierge, AgentListSuspendedRunsOptions.builder().perPage(4).page(1).build());

            heading("6. Approve, decline and resume runs found in storage; events stream as they happen");
            Found flight = find(concierge, "carol", "bookFlight");
            command("approve " + flight.runId() + " " + flight.callId() + "     # carol's flight to Tokyo (maria approves)");
            failures += expect(inbox.approve(concierge, flight.runId(), flight.callId()), RunOutcome.COMPLETED);
            out.println();

            Found refund = find(concierge, "bob", "refund");
            command("decline " + refund.runId() + " " + refund.callId() + " --reason \"" + DECLINE_REASON + "\"     # tom declines");
            failures += expect(inbox.as(TOM).decline(concierge, refund.runId(), refund.callId(), DECLINE_REASON), RunOutcome.COMPLETED);
            out.println();

            Found passport = find(concierge, "dave", "askPassportNumber");
            command("resume " + passport.runId() + " '" + PASSPORT_JSON + "'");
            failures += expect(inbox.resume(concierge, passport.runId(), null, new ObjectMapper().readTree(PASSPORT_JSON)),
                    RunOutcome.COMPLETED);
            out.println();

            Found visa = find(agents.travelDesk(), "erin", "applyVisa");
            command("--agent " + TravelAgents.TRAVEL_DESK + " approve " + visa.runId() + " " + visa.callId()
                    + "     # erin's visa: the supervisor resumes its subagent's run");
            failures += expect(inbox.approve(agents.travelDesk(), visa.runId(), visa.callId()), RunOutcome.COMPLETED);

            heading("7. A follow-up in Carol's thread: only thread memory knows what was booked");
            command("start --thread carol-tokyo --resource carol \"Which flight did you book for me?\"");
            AgentResult followUp = inbox.start(concierge, "Which flight did you book for me?", "carol-tokyo", "carol");
            if (!followUp.text().contains("Tokyo")) failures++;
            out.println();
            command("start --thread carol-new --resource carol \"Which flight did you book for me?\"     # another thread");
            inbox.start(concierge, "Which flight did you book for me?", "carol-new", "carol");
            concierge.memory().ifPresent(m -> m.deleteThread("carol", "carol-new"));
            out.println();

            heading("8. Completed runs are gone; the others are still waiting");
            command("approve " + flight.runId() + " " + flight.callId() + "     # carol's flight, again");
            try {
                concierge.approveToolCall(flight.runId(), flight.callId()).result();
                out.println(Inbox.INDENT + "unexpected: the run was still there");
                failures++;
            } catch (BatonException e) {
                out.println(Inbox.INDENT + "error: " + e.getMessage());
            }
            out.println();
            command("list");
            AgentListSuspendedRunsResult left = inbox.list(concierge, AgentListSuspendedRunsOptions.ALL);
            if (left.total() != 3) failures++;
            out.println();
            command("--agent " + TravelAgents.TRAVEL_DESK + " list");
            inbox.list(agents.travelDesk(), AgentListSuspendedRunsOptions.ALL);
            command("--agent " + TravelAgents.VISA_DESK + " list");
            inbox.list(agents.visaDesk(), AgentListSuspendedRunsOptions.ALL);
            failures += new DemoDecisions(out, inbox).play(concierge);
            out.println();
            out.println(failures == 0
                    ? "Done. Drive it yourself: start, list, approve, decline, resume (see --help)."
                    : "Done, but " + failures + " step(s) did not go as expected.");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return failures == 0 ? 0 : 1;
    }

    record Found(String runId, String callId) {
    }

    /** The first run of {@code resourceId} waiting on {@code toolName}, found through the store. */
    static Found find(Agent agent, String resourceId, String toolName) {
        for (AgentRun run : agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().resourceId(resourceId).build()).runs()) {
            for (AgentRunToolCall c : run.toolCalls()) {
                if (c.toolName().equals(toolName)) return new Found(run.runId(), c.toolCallId());
            }
        }
        throw new BatonException("the demo expected a run of '" + resourceId + "' waiting on " + toolName
                + " in the store, and found none");
    }

    private int expect(AgentResult result, RunOutcome outcome) {
        return result.outcome() == outcome ? 0 : 1;
    }

    private void heading(String title) {
        out.println();
        out.println("== " + title + " " + "=".repeat(Math.max(3, 96 - title.length())));
        out.flush();
    }

    private void command(String line) {
        out.println("> " + line);
    }
}
