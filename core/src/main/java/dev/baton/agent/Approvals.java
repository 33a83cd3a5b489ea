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

    /** {@return true if the agent has no approver rules: every call may be decided by anyone who may see the run} */
    boolean none() {
        return rules.isEmpty();
    }

    /** The first rule that governs a call of {@code tool} with {@code args}, or null. */
    @Nullable ApproverRule ruleFor(String tool, @Nullable JsonNode args) {
        for (ApproverRule r : rules) if (r.appliesTo(tool, args)) return r;
        return null;
    }

    /** True if some rule escalates: the expiry sweep then runs even under {@link ExpiryPolicy#keep()}. */
    boolean escalates() {
        for (ApproverRule r : rules) if (r.escalateAfter().isPresent()) return true;
        return false;
    }

    /** The rule of a call that waits for approval, as it is listed (a subagent's call: the inner tool and arguments). */
    @Nullable ApproverRule ruleOf(CallState c) {
        CallState.InnerRun inner = c.inner;
        if (inner != null && !inner.toolName.isEmpty()) return ruleFor(inner.toolName, inner.args);
        return ruleFor(c.toolName, c.approvedArgs != null ? c.approvedArgs : c.args);
    }

    /** How long a call that waits for approval may wait before its rule escalates it, or null if it does not. */
    java.time.@Nullable Duration escalateAfter(CallState c) {
        ApproverRule r = ruleOf(c);
        return r == null ? null : r.escalateAfter().orElse(null);
    }

    /**
     * The roles that may take {@code action} on a listed waiting call now: its rule's
     * ({@link ApproverRule#rolesNow}, the escalation group's once the call escalated); empty: any
     * named person; null: no rule governs the call (anyone who may see the run may decide it).
     * What computes who a call waits for should call this, so that it agrees with the checks.
     */
    java.util.@Nullable Set<String> rolesNow(AgentRunToolCall listed, ApproverRule.Action action) {
        ApproverRule rule = ruleFor(listed.toolName(), listed.requiresApproval() ? current(listed) : listed.args());
        return rule == null ? null : rule.rolesNow(action, listed.escalated());
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
        boolean escalated = call.escalatedAt != null;
        if (rule != null) admit(state, call, rule, action, who, escalated);
        boolean contested = !call.approvedBy.isEmpty() || rule != null && rule.approvals() > 1;
        if (action == ApproverRule.Action.EDIT) {
            // the edited arguments may fall under another rule: its approvers must accept them too
            ApproverRule after = ruleFor(listed.toolName(), edited);
            if (after != null && after != rule) admit(state, call, after, ApproverRule.Action.APPROVE, who, escalated);
            boolean several = after != null && after.approvals() > 1;
            return new Verdict(!several, contested || several);
        }
        if (action != ApproverRule.Action.APPROVE || rule == null) return new Verdict(true, contested);
        return new Verdict(call.approvedBy.size() + 1 >= rule.approvals(), contested);
    }

    private static void admit(RunState state, CallState call, ApproverRule rule, ApproverRule.Action action, @Nullable Approver who,
                              boolean escalated) {
        Refusal r = refusal(rule, action, who, state.startedBy, call.approvedBy, escalated);
        if (r != null) throw refused(state, call, rule, action.wireName(), who == null ? null : who.name(), r.why());
    }

    /**
     * Why a rule refuses one decision to {@code who}, or null if it admits it: the message of
     * {@link NotAnApproverException} ({@code why}) and the short line a person is shown ({@code toPerson}).
     * One place for both, so the inbox shows exactly what a decision would be refused for.
     */
    record Refusal(String why, String toPerson) { }

    static @Nullable Refusal refusal(ApproverRule rule, ApproverRule.Action action, @Nullable Approver who,
                                     @Nullable String startedBy, List<String> approvedBy, boolean escalated) {
        String decision = action.wireName();
        if (who == null) {
            return new Refusal("needs a named approver (ApproveOptions.approver or actor)", "needs a named approver");
        }
        if (!rule.admits(who, action, escalated)) {
            java.util.Set<String> roles = rule.rolesNow(action, escalated);
            return new Refusal("lets only " + roles + " " + decision + (escalated ? " (the call escalated)" : "")
                    + (who.roles().isEmpty() ? "; '" + who.name() + "' holds no role" : "; '" + who.name() + "' holds " + who.roles()),
                    "needs " + String.join(" or ", roles));
        }
        boolean approving = action == ApproverRule.Action.APPROVE || action == ApproverRule.Action.EDIT;
        if (approving && !rule.requesterMayApprove() && who.name().equals(startedBy)) {
            return new Refusal("does not let the person who started the run approve its calls"
                    + " (separation of duties; requesterMayApprove(true) allows it)", "you started this run");
        }
        if (action == ApproverRule.Action.APPROVE && approvedBy.contains(who.name())) {
            int more = Math.max(1, rule.approvals() - approvedBy.size());
            return new Refusal("needs " + rule.approvals() + " distinct approvers and '"
                    + who.name() + "' has already approved (approved so far: " + approvedBy + ")",
                    "you approved; waiting for " + more + " more");
        }
        return null;
    }

    /**
     * What {@code who} may do with a waiting call now (see {@link Agent#permissions}): each decision
     * of the call checked as {@link #check} would check it, without the edited arguments (an edit that
     * moves the call under another rule is checked when it is sent).
     */
    CallPermissions permissions(@Nullable String startedBy, AgentRunToolCall listed, @Nullable Approver who) {
        List<ApproverRule.Action> actions = listed.requiresApproval()
                ? List.of(ApproverRule.Action.APPROVE, ApproverRule.Action.EDIT, ApproverRule.Action.DECLINE)
                : List.of(ApproverRule.Action.ANSWER);
        ApproverRule rule = ruleFor(listed.toolName(), listed.requiresApproval() ? current(listed) : listed.args());
        java.util.EnumSet<ApproverRule.Action> may = java.util.EnumSet.noneOf(ApproverRule.Action.class);
        String why = null;
        for (ApproverRule.Action a : actions) {
            Refusal r = rule == null ? null : refusal(rule, a, who, startedBy, listed.approvedBy(), listed.escalated());
            if (r == null) may.add(a);
            else if (why == null && a == actions.get(0)) why = r.toPerson();
        }
        return new CallPermissions(may, why);
    }

    private static NotAnApproverException refused(RunState state, CallState call, ApproverRule rule, String decision,
                                                  @Nullable String actor, String why) {
        return new NotAnApproverException(state.runId, call.toolCallId, rule.name(), decision, actor, why);
    }
}
