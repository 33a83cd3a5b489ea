package dev.baton.agent;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What one approver may do with one waiting call now, by the agent's {@link ApproverRule}s: the
 * decisions they may take ({@code approve}, {@code edit}, {@code decline} for a call that waits for
 * approval; {@code answer} for one that waits for data) and, when the call's main decision (approve,
 * or answer) is not open to them, why in a few words for a person: {@code needs finance},
 * {@code you started this run}, {@code you approved; waiting for 1 more}. The same checks refuse the
 * decision itself ({@link dev.baton.NotAnApproverException}), so a page that shows only what is
 * allowed shows nothing that would be refused by a rule. Given by {@link Agent#permissions}.
 * Immutable and thread-safe.
 *
 * @param allowed the decisions the approver may take now (any, without rules)
 * @param why     why the main decision is not open to them, else null
 */
public record CallPermissions(Set<ApproverRule.Action> allowed, @Nullable String why) {
    /**
     * Creates the record.
     *
     * @param allowed the decisions the approver may take now
     * @param why     why the main decision is not open to them, else null
     */
    public CallPermissions {
        Objects.requireNonNull(allowed, "allowed");
        allowed = allowed.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(EnumSet.copyOf(allowed));
    }

    /**
     * @param action a decision
     * @return true if the approver may take it now
     */
    public boolean may(ApproverRule.Action action) {
        return allowed.contains(action);
    }
}
