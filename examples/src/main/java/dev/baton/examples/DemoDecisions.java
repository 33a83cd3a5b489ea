package dev.baton.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.BatonException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.AgentResult;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.Approver;
import dev.baton.agent.ApproverRule;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionRecord;
import dev.baton.store.StoreCapability;
import java.io.PrintStream;
import java.util.List;

/**
 * The end of the demo's second JVM: a person edits a call's arguments before approving it (a bad
 * edit and a decision about another version of the call are refused first, and nothing changes),
 * then the audit trail: who decided what, when, why, with the digests of what was shown and what ran;
 * then a refund two people of finance must approve, which its requester may not.
 */
final class DemoDecisions {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The agent of section 11, whose refunds above 1,000 EUR need two of finance. */
    static final String PAYMENTS = "payments";
    static final String TWO_PERSON_PROMPT = "refund 2400 EUR for order A-1042";

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
        return failures + twoPeople(concierge);
    }

    /**
     * Section 11: an approver rule with {@code approvals(2)}. Alice asks for a 2,400 EUR refund; she may
     * not approve it herself (separation of duties); maria's approval leaves it waiting ("1 of 2
     * approvals: maria"); john's, the second distinct person of finance, runs it once.
     */
    private int twoPeople(Agent concierge) {
        heading("11. Two people approve: Alice's 2,400 EUR refund needs two of finance, and not Alice");
        int failures = 0;
        try (Agent payments = Agent.builder(PAYMENTS)
                .model(DeterministicModel.builder()
                        .whenUserSays("refund", "refund", text -> TravelAgents.ordered("amount", TravelAgents.amount(text),
                                "order", TravelAgents.order(text)))
                        .build())
                .tools(TravelAgents.refund())
                .store(concierge.store())
                .clock(concierge.clock())
                .approverRules(ApproverRule.builder("two-person-refunds").tool("refund")
                        .when(args -> args.path("amount").asDouble() > 1000)
                        .roles("finance").approvals(2).build())
                .build()) {
            out.println(Inbox.INDENT + "rule: two-person-refunds: refund above 1000 EUR, roles [finance], approvals 2,"
                    + " the requester may not approve");
            command("--agent " + PAYMENTS + " start --resource alice \"" + TWO_PERSON_PROMPT + "\"     # started by alice");
            AgentResult started = payments.generate(TWO_PERSON_PROMPT, RunOptions.builder().resourceId("alice").threadId("alice-refunds")
                    .startedBy("alice").build());
            if (started.outcome() != RunOutcome.SUSPENDED) {
                out.println(Inbox.INDENT + "unexpected: " + started.outcome());
                return 1;
            }
            AgentRunToolCall call = started.waitingCalls().get(0);
            String run = started.runId() + " " + call.toolCallId();
            out.println(Inbox.INDENT + "-> run " + started.runId() + " waits for " + call.approvalsNeeded()
                    + " approvals of refund " + call.args());

            command("--agent " + PAYMENTS + " approve " + run + "     # alice (finance) approves her own refund");
            try {
                payments.approveToolCall(started.runId(), call.toolCallId(), as(Approver.of("alice", "finance"))).result();
                out.println(Inbox.INDENT + "unexpected: the approval went through");
                failures++;
            } catch (BatonException e) {
                out.println(Inbox.INDENT + "refused: " + e.getMessage());
            }

            command("--agent " + PAYMENTS + " approve " + run + "     # maria (finance)");
            AgentResult first = inbox.follow(payments.approveToolCall(started.runId(), call.toolCallId(),
                    as(Approver.of("maria", "finance"))));
            AgentRunToolCall waiting = first.waitingCalls().isEmpty() ? null : first.waitingCalls().get(0);
            if (first.outcome() != RunOutcome.SUSPENDED || waiting == null || !waiting.approvedBy().equals(List.of("maria"))) failures++;
            else out.println(Inbox.INDENT + waiting.approvedBy().size() + " of " + waiting.approvalsNeeded() + " approvals: "
                    + String.join(", ", waiting.approvedBy()) + "; nothing ran");

            command("--agent " + PAYMENTS + " approve " + run + "     # john (finance): the second person");
            AgentResult second = inbox.follow(payments.approveToolCall(started.runId(), call.toolCallId(),
                    as(Approver.of("john", "finance"))));
            if (second.outcome() != RunOutcome.COMPLETED || !second.text().contains("2400")) failures++;

            out.println();
            command("--agent " + PAYMENTS + " decisions");
            DecisionPage trail = inbox.decisions(payments, AgentListDecisionsOptions.all());
            if (!concierge.store().capabilities().contains(StoreCapability.DECISIONS)) return failures;
            if (!trail.items().stream().map(DecisionRecord::actor).sorted().toList().equals(List.of("john", "maria"))) failures++;
        }
        return failures;
    }

    private static ApproveOptions as(Approver approver) {
        return ApproveOptions.builder().approver(approver).build();
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
