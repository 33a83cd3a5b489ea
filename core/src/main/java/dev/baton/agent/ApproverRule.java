package dev.baton.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.InvalidOptionException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Who may decide on the calls of one tool, optionally only those whose arguments match a
 * predicate: which roles may approve, edit, decline or answer (resume data), how many distinct
 * people must approve (N of M), and whether the person who started the run may approve it
 * (separation of duties, refused by default). Given to {@link AgentBuilder#approverRules}; the
 * first rule (in the order given) whose tool and predicate match a call's arguments applies to it;
 * a call no rule matches is decided as without rules.
 *
 * <pre>{@code
 * ApproverRule twoPersonRefunds = ApproverRule.builder("two-person-refunds")
 *         .tool("refund")
 *         .when(args -> args.path("amount").asDouble() > 1000)
 *         .roles("finance")
 *         .approvals(2)
 *         .build();
 * }</pre>
 *
 * A rule's roles for an action, when none are given, admit any named approver (never a caller who
 * named nobody). Immutable and thread-safe if its predicate is.
 */
public final class ApproverRule {
    /** The decisions a rule governs. */
    public enum Action {
        /** Approve a call as proposed. */
        APPROVE("approve"),
        /** Approve a call with edited arguments. */
        EDIT("edit"),
        /** Decline a call. */
        DECLINE("decline"),
        /** Resume a call that waits for data. */
        ANSWER("answer");

        private final String wireName;

        Action(String wireName) {
            this.wireName = wireName;
        }

        /** {@return the lower-case name used in messages and over HTTP} */
        public String wireName() { return wireName; }
    }

    private final String name;
    private final String toolName;
    private final @Nullable Predicate<JsonNode> when;
    private final Set<String> approveRoles;
    private final Set<String> editRoles;
    private final Set<String> declineRoles;
    private final Set<String> answerRoles;
    private final int approvals;
    private final boolean requesterMayApprove;
    private final java.time.@Nullable Duration escalateAfter;
    private final Set<String> escalationRoles;

    private ApproverRule(Builder b) {
        this.name = b.name;
        if (b.toolName == null) throw new InvalidOptionException("tool", "rule '" + name + "' names no tool");
        this.toolName = b.toolName;
        this.when = b.when;
        this.approveRoles = b.approveRoles;
        this.editRoles = b.editRoles == null ? approveRoles : b.editRoles;
        this.declineRoles = b.declineRoles == null ? approveRoles : b.declineRoles;
        this.answerRoles = b.answerRoles == null ? approveRoles : b.answerRoles;
        this.approvals = b.approvals;
        this.requesterMayApprove = b.requesterMayApprove;
        this.escalateAfter = b.escalateAfter;
        this.escalationRoles = b.escalationRoles;
    }

    /**
     * A builder.
     *
     * @param name the rule's name, shown in {@link dev.baton.NotAnApproverException} (not blank)
     * @return the builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** {@return the rule's name} */
    public String name() { return name; }

    /** {@return the tool whose calls it governs} */
    public String toolName() { return toolName; }

    /** {@return how many distinct people must approve (1: one approval runs the call)} */
    public int approvals() { return approvals; }

    /** {@return true if the person who started the run may approve its calls} */
    public boolean requesterMayApprove() { return requesterMayApprove; }

    /**
     * {@return how long a call of this rule may wait for approval before it moves to the
     * {@link #escalationRoles()}, if the rule escalates}
     */
    public java.util.Optional<java.time.Duration> escalateAfter() { return java.util.Optional.ofNullable(escalateAfter); }

    /** {@return the group a call moves to when it escalates (empty: the rule does not escalate)} */
    public Set<String> escalationRoles() { return escalationRoles; }

    /**
     * The roles that may take {@code action} on a call of this rule now: the escalation group's for
     * every action once the call has escalated (if the rule escalates), else {@link #roles(Action)}.
     * The one place that says who may decide a call, for the checks of a decision and for anything
     * that computes who a waiting call waits for.
     *
     * @param action    a decision
     * @param escalated whether the call has escalated (listed as {@link AgentRunToolCall#escalated()})
     * @return the roles that may take it (any of them); empty: any named approver
     */
    public Set<String> rolesNow(Action action, boolean escalated) {
        return escalated && escalateAfter != null ? escalationRoles : roles(action);
    }

    /**
     * @param action a decision
     * @return the roles that may take it (any of them); empty: any named approver
     */
    public Set<String> roles(Action action) {
        return switch (action) {
            case APPROVE -> approveRoles;
            case EDIT -> editRoles;
            case DECLINE -> declineRoles;
            case ANSWER -> answerRoles;
        };
    }

    /**
     * True if the rule governs a call of {@code tool} with these arguments. A predicate that throws
     * counts as a match: a rule that cannot tell is applied, never skipped.
     *
     * @param tool the call's tool, as listed
     * @param args the call's arguments (a copy is given to the predicate), or null
     * @return whether it applies
     */
    public boolean appliesTo(String tool, @Nullable JsonNode args) {
        if (!toolName.equals(tool)) return false;
        if (when == null) return true;
        JsonNode input = args == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : args.deepCopy();
        try {
            return when.test(input);
        } catch (RuntimeException e) {
            return true;
        }
    }

    /**
     * @param approver who asks
     * @param action   the decision
     * @return true if the approver holds one of the action's roles (or the action admits anyone named)
     */
    public boolean admits(Approver approver, Action action) {
        return admits(approver, action, false);
    }

    /**
     * @param approver  who asks
     * @param action    the decision
     * @param escalated whether the call has escalated (see {@link #rolesNow})
     * @return true if the approver holds one of the roles that may take it now
     */
    public boolean admits(Approver approver, Action action, boolean escalated) {
        Set<String> needed = rolesNow(action, escalated);
        if (needed.isEmpty()) return true;
        for (String r : needed) if (approver.hasRole(r)) return true;
        return false;
    }

    @Override
    public String toString() {
        return "ApproverRule[name=" + name + ", tool=" + toolName + (when == null ? "" : ", when=<predicate>")
                + ", approve=" + approveRoles + ", edit=" + editRoles + ", decline=" + declineRoles + ", answer=" + answerRoles
                + ", approvals=" + approvals + ", requesterMayApprove=" + requesterMayApprove
                + (escalateAfter == null ? "" : ", escalateAfter=" + escalateAfter + " to " + escalationRoles) + "]";
    }

    /** Builder of {@link ApproverRule}. Not thread-safe. */
    public static final class Builder {
        private final String name;
        private @Nullable String toolName;
        private @Nullable Predicate<JsonNode> when;
        private Set<String> approveRoles = Set.of();
        private @Nullable Set<String> editRoles;
        private @Nullable Set<String> declineRoles;
        private @Nullable Set<String> answerRoles;
        private int approvals = 1;
        private boolean requesterMayApprove;
        private java.time.@Nullable Duration escalateAfter;
        private Set<String> escalationRoles = Set.of();

        private Builder(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) throw new InvalidOptionException("name", "an approver rule needs a name");
            this.name = name;
        }

        /**
         * @param v the tool whose calls the rule governs (required)
         * @return this builder
         */
        public Builder tool(String v) { this.toolName = Objects.requireNonNull(v, "tool"); return this; }

        /**
         * @param v a predicate on the call's arguments (a JSON object; a copy): the rule governs only
         *          the calls it accepts. Null: every call of the tool.
         * @return this builder
         */
        public Builder when(@Nullable Predicate<JsonNode> v) { this.when = v; return this; }

        /**
         * Sets the roles of every action (approve, edit, decline, answer); the per-action setters
         * called after it override one.
         *
         * @param v the roles (any of them suffices)
         * @return this builder
         */
        public Builder roles(String... v) {
            approveRoles = set("roles", v);
            editRoles = null;
            declineRoles = null;
            answerRoles = null;
            return this;
        }

        /**
         * @param v the roles that may approve (and, unless set apart, edit, decline and answer)
         * @return this builder
         */
        public Builder approveRoles(String... v) { approveRoles = set("approveRoles", v); return this; }

        /**
         * @param v the roles that may approve with edited arguments
         * @return this builder
         */
        public Builder editRoles(String... v) { editRoles = set("editRoles", v); return this; }

        /**
         * @param v the roles that may decline
         * @return this builder
         */
        public Builder declineRoles(String... v) { declineRoles = set("declineRoles", v); return this; }

        /**
         * @param v the roles that may answer a call that waits for data
         * @return this builder
         */
        public Builder answerRoles(String... v) { answerRoles = set("answerRoles", v); return this; }

        /**
         * @param v how many distinct people must approve a call before it runs (1 to 10; default 1)
         * @return this builder
         */
        public Builder approvals(int v) {
            if (v < 1 || v > 10) throw new InvalidOptionException("approvals", "must be 1 to 10, was " + v);
            this.approvals = v;
            return this;
        }

        /**
         * @param v true to let the person who started the run approve its calls (default false:
         *          separation of duties)
         * @return this builder
         */
        public Builder requesterMayApprove(boolean v) { this.requesterMayApprove = v; return this; }

        /**
         * Escalation: a call of this rule that waited {@code after} for approval without being decided
         * moves to {@code roles}: from then on only they approve, edit, decline it (the quorum and the
         * separation of duties stay). Done by {@link Agent#expireDueRuns(int)} (and so
         * {@link RunExpirer}), recorded as an {@link dev.baton.store.DecisionKind#ESCALATE} decision by
         * {@code system}.
         *
         * @param after how long a call waits before it escalates, positive
         * @param roles the group it moves to (at least one role)
         * @return this builder
         * @throws InvalidOptionException a duration that is not positive, or no role
         */
        public Builder escalateAfter(java.time.Duration after, String... roles) {
            Objects.requireNonNull(after, "after");
            if (after.isNegative() || after.isZero()) throw new InvalidOptionException("escalateAfter", "must be positive, was " + after);
            Set<String> to = set("escalateAfter", roles);
            if (to.isEmpty()) throw new InvalidOptionException("escalateAfter", "names no role to escalate to");
            this.escalateAfter = after;
            this.escalationRoles = to;
            return this;
        }

        /**
         * {@return the rule}
         *
         * @throws InvalidOptionException no tool was named
         */
        public ApproverRule build() {
            return new ApproverRule(this);
        }

        private static Set<String> set(String option, String... roles) {
            LinkedHashSet<String> s = new LinkedHashSet<>();
            for (String r : Arrays.asList(roles)) {
                Objects.requireNonNull(r, option);
                if (r.isBlank()) throw new InvalidOptionException(option, "must not hold a blank role");
                s.add(r);
            }
            return Collections.unmodifiableSet(s);
        }
    }
}
