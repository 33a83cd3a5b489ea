package dev.baton.agent;

import dev.baton.internal.CallState;
import dev.baton.internal.RunState;
import dev.baton.internal.SnapshotCodec;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The "waiting for me" labels: who may decide a suspended run's waiting calls now, written with every
 * suspended snapshot ({@link RunSnapshot#deciders()}), and the label pairs a principal asks with
 * ({@link RunQuery#deciders()}). Stores match them literally, so the one definition of who may decide
 * is {@link Approvals}' (the same rule, the same arguments, the same exclusions as a decision's check):
 *
 * <ul>
 *   <li>{@code *}: some waiting call may be decided by any named principal (no rule applies, or its rule
 *       names no role for the decision);</li>
 *   <li>{@code r:<role>}: some waiting call may be decided by {@code role};</li>
 *   <li>{@code x:*:<name>} and {@code x:<length of role>:<role>:<name>}: {@code name} may decide none of
 *       the waiting calls that {@code *} (or {@code role}) grants: it started the run (separation of duties)
 *       or already approved the call; written only when every such call excludes the name, so a run matches
 *       a principal exactly when one of its calls waits for that principal.</li>
 * </ul>
 * "Decide" is the decision a call waits for: approve a call that waits for approval (its rule's approve
 * roles, as for the arguments it would run with), answer a call that waits for data (its answer roles).
 * A label longer than {@link RunSnapshot#MAX_DECIDER_LENGTH} is stored as {@code #} and the base64url
 * SHA-256 of its text, on both sides alike.
 */
final class DeciderLabels {
    /** The grant of calls any named principal may decide: never a role, as a role is never blank. */
    private static final String ANY = "";
    /** The labels of a waiting run under no approver rule. */
    private static final Set<String> ANY_ONLY = Set.of("*");

    private DeciderLabels() {
    }

    /** {@code state} encoded for a write, with its labels under the rules of {@code agent}. */
    static SnapshotCodec.Encoded encode(Agent agent, RunState state) {
        return SnapshotCodec.encodeAll(state, of(agent.approvals(), state));
    }

    /** The labels of a run in {@code state} under the rules of {@code approvals}: empty when no call waits. */
    static Set<String> of(Approvals approvals, RunState state) {
        List<CallState> waiting = state.waitingCalls();
        if (waiting.isEmpty()) return Set.of();
        if (approvals.none()) return ANY_ONLY;   // no rule: every call grants ANY and excludes nobody (what the loop below gives)
        // per grant (a role, or ANY): the names every call it grants excludes
        Map<String, Set<String>> excluded = new LinkedHashMap<>();
        for (CallState call : waiting) {
            // the call as listed (RunListing.waitingCalls), read from the state without the listing's digest and copies:
            // a subagent's call shows its inner tool and arguments, and no approved arguments
            boolean approval = call.status == CallState.Status.AWAITING_APPROVAL;
            CallState.InnerRun inner = call.inner;
            boolean innerShown = inner != null && !inner.toolName.isEmpty();
            String toolName = innerShown ? inner.toolName : call.toolName;
            com.fasterxml.jackson.databind.JsonNode args = approval ? (innerShown ? inner.args : call.args) : null;
            com.fasterxml.jackson.databind.JsonNode approvedArgs = innerShown ? null : call.approvedArgs;
            ApproverRule.Action action = approval ? ApproverRule.Action.APPROVE : ApproverRule.Action.ANSWER;
            // the rule a decision would be checked against (Approvals.check): for an approval, the arguments it would
            // run with (Approvals.current); ApproverRule.appliesTo gives its condition a copy of them
            ApproverRule rule = approvals.ruleFor(toolName, approval ? (approvedArgs != null ? approvedArgs : args) : call.args);
            // after an escalation, the escalation group's roles (ApproverRule.rolesNow, as the checks use)
            boolean escalated = approval && call.escalatedAt != null;
            Set<String> roles = rule == null ? Set.of() : rule.rolesNow(action, escalated);
            Set<String> grants = roles.isEmpty() ? Set.of(ANY) : roles;
            Set<String> out = new HashSet<>();
            if (approval && rule != null) {
                out.addAll(call.approvedBy);
                if (!rule.requesterMayApprove() && state.startedBy != null) out.add(state.startedBy);
            }
            for (String g : grants) {
                Set<String> before = excluded.get(g);
                if (before == null) excluded.put(g, new HashSet<>(out));
                else before.retainAll(out);
            }
        }
        Set<String> labels = new TreeSet<>();
        excluded.forEach((grant, names) -> {
            labels.add(granted(grant));
            for (String name : names) labels.add(exclusion(grant, name));
        });
        return labels;
    }

    /** The label pairs {@code approver} asks with: any-principal calls, then one pair per role. */
    static List<RunQuery.Decider> asking(Approver approver) {
        List<RunQuery.Decider> out = new ArrayList<>(approver.roles().size() + 1);
        out.add(new RunQuery.Decider(granted(ANY), exclusion(ANY, approver.name())));
        for (String role : approver.roles()) {
            out.add(new RunQuery.Decider(granted(role), exclusion(role, approver.name())));
        }
        return out;
    }

    // a role named "*" is "r:*" and "x:1:*:<name>", apart from the any-principal labels "*" and "x:*:<name>"
    private static String granted(String grant) {
        return grant.equals(ANY) ? "*" : fit("r:" + grant);
    }

    private static String exclusion(String grant, String name) {
        return fit(grant.equals(ANY) ? "x:*:" + name : "x:" + grant.length() + ":" + grant + ":" + name);
    }

    /** A label as stored: itself, or, if longer than a store keeps, {@code #} and its SHA-256 (base64url). */
    static String fit(String label) {
        if (label.length() <= RunSnapshot.MAX_DECIDER_LENGTH && label.indexOf('\0') < 0) return label;
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(label.getBytes(StandardCharsets.UTF_8));
            return "#" + Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
