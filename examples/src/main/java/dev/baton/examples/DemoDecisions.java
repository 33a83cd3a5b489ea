package dev.baton.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.BatonException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionRecord;
import dev.baton.store.StoreCapability;
import java.io.PrintStream;
import java.util.List;

/**
 * The end of the demo's second JVM: a person edits a call's arguments before approving it (a bad
 * edit and a decision about another version of the call are refused first, and nothing changes),
 * then the audit trail: who decided what, when, why, with the digests of what was shown and what ran.
 */
final class DemoDecisions {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final PrintStream out;
    private final Inbox inbox;

    DemoDecisions(PrintStream out, Inbox inbox) {
        this.out = out;
        this.inbox = inbox;
    }

    /** Plays sections 9 and 10 on the concierge; returns how many steps did not go as expected. */
    int play(Agent concierge) {
        int failures = 0;
        heading("9. Edit, then approve: Carol's refund of 180 EUR is approved as 150 EUR");
        Demo.Found refund = Demo.find(concierge, "carol", "refund");
        AgentRunToolCall shown = waitingCall(concierge, refund);
        out.println(Inbox.INDENT + "shown to " + inbox.actor() + ": refund " + shown.args() + ", digest " + shown.digest());
        String run = refund.runId() + " " + refund.callId();

        JsonNode bad = json("{\"amount\":\"a lot\",\"order\":\"A-1003\"}");
        command("approve " + run + " --args '" + bad + "'     # a bad edit is refused, nothing changes");
        failures += refused(concierge, refund, ApproveOptions.builder().args(bad).digest(shown.digest()).build());

        String stale = "0".repeat(64);
        command("approve " + run + " --digest " + stale.substring(0, 12) + "...     # bound to a call that is not the one waiting");
        failures += refused(concierge, refund, ApproveOptions.builder().digest(stale).build());

        JsonNode edited = json("{\"amount\":150,\"order\":\"A-1003\"}");
        command("approve " + run + " --args '" + edited + "' --reason \"" + Demo.EDIT_REASON + "\"");
        var result = inbox.approve(concierge, refund.runId(), refund.callId(),
                ApproveOptions.builder().args(edited).digest(shown.digest()).reason(Demo.EDIT_REASON).build());
        if (result.outcome() != RunOutcome.COMPLETED || !result.text().contains("150")) failures++;

        heading("10. The audit trail: who decided what and when, kept after the runs ended");
        if (!concierge.store().capabilities().contains(StoreCapability.DECISIONS)) {
            out.println(Inbox.INDENT + "(this store keeps no decisions: " + concierge.store().describe() + ")");
            return failures + 1;
        }
        command("decisions");
        DecisionPage all = inbox.decisions(concierge, AgentListDecisionsOptions.all());
        List<DecisionKind> kinds = all.items().stream().map(DecisionRecord::kind).toList();
        if (!kinds.equals(List.of(DecisionKind.EDIT, DecisionKind.RESUME, DecisionKind.DECLINE, DecisionKind.APPROVE))) failures++;
        out.println();
        command("decisions --actor " + Demo.TOM);
        DecisionPage toms = inbox.decisions(concierge, AgentListDecisionsOptions.builder().actor(Demo.TOM).build());
        if (toms.items().size() != 1) failures++;
        out.println();
        command("decisions --resource carol");
        inbox.decisions(concierge, AgentListDecisionsOptions.builder().resourceId("carol").build());
        return failures;
    }

    /** The call as the inbox lists it (with the digest the person is shown). */
    private static AgentRunToolCall waitingCall(Agent agent, Demo.Found found) {
        for (AgentRun run : agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().resourceId("carol").build()).runs()) {
            for (AgentRunToolCall c : run.toolCalls()) {
                if (run.runId().equals(found.runId()) && c.toolCallId().equals(found.callId())) return c;
            }
        }
        throw new BatonException("the demo expected run " + found.runId() + " to wait on call " + found.callId());
    }

    /** An approval that must be refused before anything changes; 1 if it was not. */
    private int refused(Agent agent, Demo.Found found, ApproveOptions options) {
        try {
            inbox.approve(agent, found.runId(), found.callId(), options);
            out.println(Inbox.INDENT + "unexpected: the approval went through");
            return 1;
        } catch (BatonException e) {
            out.println(Inbox.INDENT + "refused: " + e.getMessage());
        }
        boolean stillWaiting = agent.listSuspendedRuns().runs().stream().anyMatch(r -> r.runId().equals(found.runId()));
        out.println(Inbox.INDENT + (stillWaiting ? "the run still waits, unchanged" : "unexpected: the run is gone"));
        return stillWaiting ? 0 : 1;
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
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
