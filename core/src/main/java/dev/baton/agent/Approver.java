package dev.baton.agent;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Who decides on a call, and the roles (or groups) they hold: what {@link ApproverRule}s are
 * checked against. The name is recorded as the decision's actor; the roles are not recorded.
 * Where the roles come from is the caller's business (a JWT claim such as {@code roles} or
 * {@code groups}, Spring Security authorities, a token's configuration).
 *
 * <pre>{@code
 * agent.approveToolCall(runId, callId, ApproveOptions.builder().approver(Approver.of("maria", "finance")).build());
 * }</pre>
 *
 * A decision that names only an actor ({@code ApproveOptions.builder().actor("maria")}) is made by
 * an approver of that name without roles. Immutable and thread-safe.
 */
public final class Approver {
    private final String name;
    private final Set<String> roles;

    private Approver(String name, Collection<String> roles) {
        this.name = Objects.requireNonNull(DecisionOptions.check("approver", Objects.requireNonNull(name, "name")));
        LinkedHashSet<String> copy = new LinkedHashSet<>();
        for (String r : roles) {
            Objects.requireNonNull(r, "role");
            if (r.isBlank()) throw new dev.baton.InvalidOptionException("roles", "must not hold a blank role");
            copy.add(r);
        }
        this.roles = Collections.unmodifiableSet(copy);
    }

    /**
     * An approver with roles.
     *
     * @param name  who decides: recorded as the actor (not blank, at most 255 characters)
     * @param roles the roles or groups they hold (none is fine)
     * @return the approver
     * @throws dev.baton.InvalidOptionException a blank or too long name, or a blank role
     */
    public static Approver of(String name, String... roles) {
        return new Approver(name, Arrays.asList(roles));
    }

    /**
     * An approver with roles.
     *
     * @param name  who decides: recorded as the actor
     * @param roles the roles or groups they hold
     * @return the approver
     * @throws dev.baton.InvalidOptionException a blank or too long name, or a blank role
     */
    public static Approver of(String name, Collection<String> roles) {
        return new Approver(name, roles);
    }

    /**
     * The approver an options builder keeps when its actor is set to {@code actor}: the one given
     * before if it is that person, else none (an actor alone has no roles). One rule for every
     * decision's options.
     */
    static @Nullable Approver keptFor(@Nullable Approver approver, @Nullable String actor) {
        return approver != null && approver.name().equals(actor) ? approver : null;
    }

    /** {@return who decides, recorded as the actor} */
    public String name() { return name; }

    /** {@return the roles held, in the order given, without duplicates} */
    public Set<String> roles() { return roles; }

    /**
     * @param role a role
     * @return true if this approver holds it
     */
    public boolean hasRole(String role) { return roles.contains(role); }

    @Override
    public boolean equals(Object o) {
        return o instanceof Approver a && name.equals(a.name) && roles.equals(a.roles);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + roles.hashCode();
    }

    @Override
    public String toString() {
        return "Approver[name=" + name + ", roles=" + roles + "]";
    }
}
