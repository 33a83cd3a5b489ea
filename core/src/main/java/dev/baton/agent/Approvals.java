package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.NotAnApproverException;
import dev.baton.internal.CallState;
import dev.baton.internal.RunState;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The approver rules of an agent, applied to one decision before anything changes: who may take
 * it (roles, separation of duties, distinct people) and whether an approval completes the call's
 * quorum. The state they need is in the run itself (who started it, who has approved the call so
 * far), so every store enforces them alike, and a decision on any instance sees the same.
 */
final class Approvals {
    private final List<ApproverRule> rules;

    Approvals(List<ApproverRule> rules) {
        this.rules = List.copyOf(rules);
    }

    /**
     * What a decision does once it is admitted: whether it completes the call's quorum, and whether
     * the call is contested (its rule needs several approvals, or some were given): a lost race is
     * then read again and retried, since the run may well still wait.
     */
    record Verdict(boolean completes, boolean contested) { }

    /** The first rule that governs a call of {@code tool} with {@code args}, or null. */
    @Nullable ApproverRule ruleFor(String tool, @Nullable JsonNode args) {
        for (ApproverRule r : rules) if (r.appliesTo(tool, args)) return r;
        return null;
    }

    /** How many distinct approvals a listed call needs before it runs (1 without a rule). */
    int needed(AgentRunToolCall listed) {
        if (!listed.requiresApproval()) return 1;
        ApproverRule r = ruleFor(listed.toolName(), current(listed));
        return r == null ? 1 : r.approvals();
    }

    /** The arguments a waiting call would run with: an edit waiting for more approvals, else as proposed. */
    static @Nullable JsonNode current(AgentRunToolCall listed) {
        return listed.approvedArgs() != null ? listed.approvedArgs() : listed.args();
    }

    /**
     * Checks a decision on a waiting call; throws {@link NotAnApproverException} naming the rule if it
     * is refused. {@code edited} is the new arguments of an edit, else null.
     */
    Verdict check(RunState state, CallState call, AgentRunToolCall listed, ApproverRule.Action action, Decisions.Meta m,
                  @Nullable JsonNode edited) {
        ApproverRule rule = ruleFor(listed.toolName(), action == ApproverRule.Action.ANSWER ? call.args : current(listed));
        Approver who = m.approver() != null ? m.approver() : m.actor() == null ? null : Approver.of(m.actor());
        if (rule != null) admit(state, call, rule, action, who);
        boolean contested = !call.approvedBy.isEmpty() || rule != null && rule.approvals() > 1;
        if (action == ApproverRule.Action.EDIT) {
            // the edited arguments may fall under another rule: its approvers must accept them too
            ApproverRule after = ruleFor(listed.toolName(), edited);
            if (after != null && after != rule) admit(state, call, after, ApproverRule.Action.APPROVE, who);
            boolean several = after != null && after.approvals() > 1;
            return new Verdict(!several, contested || several);
        }
        if (action != ApproverRule.Action.APPROVE || rule == null) return new Verdict(true, contested);
        return new Verdict(call.approvedBy.size() + 1 >= rule.approvals(), contested);
    }

    private static void admit(RunState state, CallState call, ApproverRule rule, ApproverRule.Action action, @Nullable Approver who) {
        String decision = action.wireName();
        if (who == null) {
            throw refused(state, call, rule, decision, null, "needs a named approver (ApproveOptions.approver or actor)");
        }
        if (!rule.admits(who, action)) {
            throw refused(state, call, rule, decision, who.name(), "lets only " + rule.roles(action) + " " + decision
                    + (who.roles().isEmpty() ? "; '" + who.name() + "' holds no role" : "; '" + who.name() + "' holds " + who.roles()));
        }
        boolean approving = action == ApproverRule.Action.APPROVE || action == ApproverRule.Action.EDIT;
        if (approving && !rule.requesterMayApprove() && who.name().equals(state.startedBy)) {
            throw refused(state, call, rule, decision, who.name(), "does not let the person who started the run approve its calls"
                    + " (separation of duties; requesterMayApprove(true) allows it)");
        }
        if (action == ApproverRule.Action.APPROVE && call.approvedBy.contains(who.name())) {
            throw refused(state, call, rule, decision, who.name(), "needs " + rule.approvals() + " distinct approvers and '"
                    + who.name() + "' has already approved (approved so far: " + call.approvedBy + ")");
        }
    }

    private static NotAnApproverException refused(RunState state, CallState call, ApproverRule rule, String decision,
                                                  @Nullable String actor, String why) {
        return new NotAnApproverException(state.runId, call.toolCallId, rule.name(), decision, actor, why);
    }
}
