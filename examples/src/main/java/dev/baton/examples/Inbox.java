package dev.baton.examples;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.AgentStream;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.DecisionOptions;
import dev.baton.agent.DeclineOptions;
import dev.baton.agent.ResumeOptions;
import dev.baton.agent.RunOptions;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionRecord;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.jspecify.annotations.Nullable;

/**
 * What each subcommand does, printed for a terminal: the inbox of suspended runs as a table, and
 * the events of a resumed run one line each, as they happen. The demo uses the same methods, so
 * its output is exactly what a person gets from the subcommands.
 */
final class Inbox {
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm").withZone(ZoneOffset.UTC);
    static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
    static final String INDENT = "  ";

    private final PrintStream out;
    private final String actor;

    /** An inbox whose decisions are recorded as taken by the person at this terminal ({@link #defaultActor()}). */
    Inbox(PrintStream out) {
        this(out, defaultActor());
    }

    /**
     * {@return who the command line decides as when {@code --actor} is not given: {@code cli:} and the
     * OS user ({@code user.name}), e.g. {@code cli:alice}, so the audit trail tells the CLI's decisions apart}
     */
    static String defaultActor() {
        String user = System.getProperty("user.name");
        return "cli:" + (user == null || user.isBlank() ? "unknown" : user.strip());
    }

    /** An inbox whose decisions are recorded as taken by {@code actor}. */
    Inbox(PrintStream out, String actor) {
        this.out = out;
        this.actor = actor;
    }

    /** The same inbox, deciding as someone else. */
    Inbox as(String otherActor) {
        return new Inbox(out, otherActor);
    }

    /** {@return who decides here: recorded in the audit trail with each decision} */
    String actor() {
        return actor;
    }

    /** {@code start}: starts one run and says how it ended (suspended on what, or the answer). */
    AgentResult start(Agent agent, String prompt, @Nullable String threadId, @Nullable String resourceId) {
        String at = time(agent.clock().instant());
        AgentResult r = agent.generate(prompt, RunOptions.builder().threadId(threadId).resourceId(resourceId).build());
        String who = (resourceId == null ? "-" : resourceId) + " / " + (threadId == null ? "-" : threadId);
        String pad = " ".repeat(at.length());
        out.printf("%s%s  %-22s \"%s\"%n", INDENT, at, who, prompt);
        switch (r.outcome()) {
            case SUSPENDED -> {
                for (AgentRunToolCall c : r.waitingCalls()) {
                    out.printf("%s%s  -> SUSPENDED run %s, waits for %s%n", INDENT, pad, r.runId(), waitsFor(c));
                }
            }
            case COMPLETED -> out.printf("%s%s  -> COMPLETED at once, no approval needed: \"%s\"%n", INDENT, pad, r.text());
            case FAILED -> out.printf("%s%s  -> FAILED: %s%n", INDENT, pad, r.error() == null ? "?" : r.error().getMessage());
        }
        out.flush();
        return r;
    }

    /** {@code list}: the table of suspended runs and the totals. */
    AgentListSuspendedRunsResult list(Agent agent, AgentListSuspendedRunsOptions options) {
        AgentListSuspendedRunsResult found = agent.listSuspendedRuns(options);
        Table table = new Table("RUN", "CALL", "USER", "THREAD", "SUSPENDED (UTC)", "WAITS FOR", "TOOL", "DETAILS");
        for (AgentRun run : found.runs()) {
            if (run.toolCalls().isEmpty()) {
                table.row(run.runId(), "-", run.resourceId(), run.threadId(), time(run.suspendedAt()), "continue", "-",
                        run.interruption() == null ? "-" : run.interruption());
            }
            for (AgentRunToolCall c : run.toolCalls()) {
                table.row(run.runId(), c.toolCallId(), run.resourceId(), run.threadId(), time(run.suspendedAt()),
                        c.requiresApproval() ? "approval" : "data", c.toolName(), details(c));
            }
        }
        if (!table.isEmpty()) table.print(out, INDENT);
        out.println(INDENT + totals(found, options));
        return found;
    }

    static String totals(AgentListSuspendedRunsResult found, AgentListSuspendedRunsOptions options) {
        long total = found.total();
        String runs = total == 1 ? "run" : "runs";
        if (!options.paginated()) {
            return total == 0 ? "(no suspended runs)" : total + " suspended " + runs + ", total " + total;
        }
        int perPage = options.perPage();
        int page = options.page();
        long pages = (total + perPage - 1) / perPage;
        long first = (long) page * perPage + 1;
        long last = first + found.runs().size() - 1;
        String shown = found.runs().isEmpty() ? "no runs on this page"
                : first == last ? "run " + first : "runs " + first + "-" + last;
        return "page " + page + " of pages 0.." + Math.max(0, pages - 1) + " (" + perPage + " per page): " + shown
                + ", total " + total;
    }

    /** {@code approve}: approves the call as proposed and streams the rest of the run. */
    AgentResult approve(Agent agent, String runId, String toolCallId) {
        return approve(agent, runId, toolCallId, ApproveOptions.builder().actor(actor).build());
    }

    /** {@code approve} with options (edited arguments, the digest shown, a reason), as this inbox's actor. */
    AgentResult approve(Agent agent, String runId, String toolCallId, ApproveOptions options) {
        ApproveOptions as = ApproveOptions.builder().args(options.args()).digest(options.digest()).reason(options.reason())
                .idempotencyKey(options.idempotencyKey()).actor(actor).build();
        return follow(agent.approveToolCall(runId, toolCallId, as));
    }

    /** {@code decline}: declines the call (the tool never runs) and streams the rest of the run. */
    AgentResult decline(Agent agent, String runId, String toolCallId, @Nullable String reason) {
        return decline(agent, runId, toolCallId, DeclineOptions.builder().reason(reason).build());
    }

    /** {@code decline} with options (reason, the digest shown, an idempotency key), as this inbox's actor. */
    AgentResult decline(Agent agent, String runId, String toolCallId, DeclineOptions options) {
        DeclineOptions as = DeclineOptions.builder().reason(options.reason()).digest(options.digest())
                .idempotencyKey(options.idempotencyKey()).actor(actor).build();
        return follow(agent.declineToolCall(runId, toolCallId, as));
    }

    /** {@code resume}: sends the data to the suspended call and streams the rest of the run. */
    AgentResult resume(Agent agent, String runId, @Nullable String toolCallId, JsonNode data) {
        return resume(agent, runId, toolCallId, data, DecisionOptions.none());
    }

    /** {@code resume} with options (reason, digest, idempotency key), as this inbox's actor. */
    AgentResult resume(Agent agent, String runId, @Nullable String toolCallId, JsonNode data, DecisionOptions decision) {
        ResumeOptions options = toolCallId == null ? ResumeOptions.of(runId) : ResumeOptions.of(runId, toolCallId);
        return follow(agent.resumeStream(data, options, as(decision)));
    }

    /** {@code continue}: continues a run that stopped part-way and streams the rest of it. */
    AgentResult continueRun(Agent agent, String runId) {
        return continueRun(agent, runId, DecisionOptions.none());
    }

    /** {@code continue} with options (reason, idempotency key), as this inbox's actor. */
    AgentResult continueRun(Agent agent, String runId, DecisionOptions decision) {
        return follow(agent.continueRun(runId, as(decision)));
    }

    /** {@code cancel}: cancels a stored run (nothing more runs), as this inbox's actor, and says so. */
    AgentResult cancel(Agent agent, String runId, DecisionOptions decision) {
        AgentResult r = agent.cancelRun(runId, as(decision));
        out.println("Cancelled run " + r.runId() + (decision.reason() == null ? "" : ": " + decision.reason()) + " (by " + actor + ")");
        return r;
    }

    /** {@code discard}: removes a stored run nobody will resume, as this inbox's actor, and says so. */
    void discard(Agent agent, String runId, DecisionOptions decision) {
        agent.discardRun(runId, as(decision));
        out.println("Discarded run " + runId + (decision.reason() == null ? "" : ": " + decision.reason()) + " (by " + actor + ")");
    }

    /** {@code decision} with this inbox's actor in place of its own. */
    private DecisionOptions as(DecisionOptions decision) {
        return DecisionOptions.builder().reason(decision.reason()).digest(decision.digest())
                .idempotencyKey(decision.idempotencyKey()).actor(actor).build();
    }

    /** {@code decisions}: the audit trail, newest first: who decided what, when, why, and the digests shown and run. */
    DecisionPage decisions(Agent agent, AgentListDecisionsOptions options) {
        DecisionPage page = agent.listDecisions(options);
        Table table = new Table("DECIDED (UTC)", "WHO", "DECISION", "TOOL", "RUN", "USER", "REASON", "DIGEST SHOWN -> RUN");
        for (DecisionRecord d : page.items()) {
            table.row(SECONDS.format(d.decidedAt()), d.actor(), d.kind().wireName(), d.toolName() == null ? "(the run)" : d.toolName(),
                    d.runId().substring(0, Math.min(8, d.runId().length())), d.resourceId(), d.reason(), digests(d));
        }
        if (!table.isEmpty()) table.print(out, INDENT);
        int n = page.items().size();
        out.println(INDENT + (n == 0 ? "(no decisions)" : n + (n == 1 ? " decision" : " decisions") + ", newest first"
                + page.nextCursor().map(c -> "; more after --cursor " + c).orElse("")));
        return page;
    }

    private static String digests(DecisionRecord d) {
        if (d.argsDigestBefore() == null) return "-";
        String before = d.argsDigestBefore().substring(0, Math.min(12, d.argsDigestBefore().length()));
        if (d.argsDigestAfter() == null || d.argsDigestAfter().equals(d.argsDigestBefore())) return before;
        return before + " -> " + d.argsDigestAfter().substring(0, Math.min(12, d.argsDigestAfter().length())) + " (edited)";
    }

    /** Prints each event as it comes, then how the run ended. */
    AgentResult follow(AgentStream stream) {
        AgentResult result;
        if (stream.replayed()) {   // the same idempotency key again: nothing ran this time
            out.println(INDENT + "(already decided with this idempotency key"
                    + stream.decision().map(d -> ": " + d.kind().wireName() + " by " + d.actor() + " at " + SECONDS.format(d.decidedAt()))
                            .orElse("") + "; nothing ran again)");
        }
        try (stream) {
            result = stream.forEachEvent(e -> {
                out.println(INDENT + "| " + eventLine(e));
                out.flush();
            });
        }
        switch (result.outcome()) {
            case COMPLETED -> out.println(INDENT + "=> run " + result.runId() + " COMPLETED; its snapshot is deleted");
            case SUSPENDED -> out.println(INDENT + "=> run " + result.runId() + " SUSPENDED again, waits for "
                    + (result.waitingCalls().isEmpty() ? "?" : waitsFor(result.waitingCalls().get(0))));
            case FAILED -> out.println(INDENT + "=> run " + result.runId() + " FAILED: "
                    + (result.error() == null ? "?" : result.error().getMessage()));
            case INTERRUPTED -> out.println(INDENT + "=> run " + result.runId() + " INTERRUPTED, still stored: "
                    + (result.error() == null ? "?" : result.error().getMessage()));
            case CANCELLED -> out.println(INDENT + "=> run " + result.runId() + " CANCELLED");
        }
        return result;
    }

    static String eventLine(AgentEvent e) {
        String what;
        if (e instanceof AgentEvent.Start s) {
            what = "run " + s.runId();
        } else if (e instanceof AgentEvent.StepStart s) {
            what = "step " + s.step();
        } else if (e instanceof AgentEvent.TextDelta t) {
            what = quote(t.text());
        } else if (e instanceof AgentEvent.ToolCall c) {
            what = c.toolName() + " " + c.args() + "  (" + c.toolCallId() + ")";
        } else if (e instanceof AgentEvent.ToolCallApproval a) {
            what = a.toolName() + " " + a.args() + " waits for approval  (" + a.toolCallId() + ")";
        } else if (e instanceof AgentEvent.ToolCallApproved a) {
            what = a.toolName() + " " + a.proposedArgs() + " -> " + a.approvedArgs() + " by " + a.actor();
        } else if (e instanceof AgentEvent.ToolCallSuspended s) {
            what = s.toolName() + " asks " + s.suspendPayload() + "  (" + s.toolCallId() + ")";
        } else if (e instanceof AgentEvent.ToolResult r) {
            what = r.toolName() + " -> " + r.result();
        } else if (e instanceof AgentEvent.ToolError r) {
            what = r.toolName() + " failed: " + r.error();
        } else if (e instanceof AgentEvent.ToolOutputDenied d) {
            what = d.toolName() + " did not run: " + quote(d.reason());
        } else if (e instanceof AgentEvent.StepFinish f) {
            what = "step " + f.step() + ", " + f.finishReason().wireName();
        } else if (e instanceof AgentEvent.Finish f) {
            what = f.finishReason().wireName() + ": " + quote(f.text());
        } else if (e instanceof AgentEvent.Error err) {
            what = err.message();
        } else {
            what = e.toString();   // AgentEvent gains new types in minor releases: always keep a default
        }
        return String.format("%-19s %s", e.type(), what);
    }

    static String waitsFor(AgentRunToolCall c) {
        return (c.requiresApproval() ? "approval of " : "data for ") + c.toolName() + " (call " + c.toolCallId() + ")";
    }

    private static String details(AgentRunToolCall c) {
        JsonNode shown = c.requiresApproval() ? c.args() : c.suspendPayload();
        if (shown == null) return "-";
        if (!c.requiresApproval() && shown.hasNonNull("question")) return shown.get("question").asText();
        return shown.toString();
    }

    private static String quote(String s) {
        return "\"" + s.replace("\n", "\\n") + "\"";
    }

    static String time(Instant t) {
        return TIME.format(t);
    }
}
