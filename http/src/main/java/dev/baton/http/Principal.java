package dev.baton.http;

import dev.baton.InvalidOptionException;
import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Who makes a request, as an {@link Authenticator} found it, and which runs they may see.
 *
 * <p>An unrestricted principal ({@code resourceIds() == null}) sees every run of every agent the API
 * serves. A principal limited to resource ids sees only runs whose {@code resourceId} is one of
 * them: listings are filtered to them, and approving, declining or resuming any other run answers
 * 404 exactly like a run that does not exist.
 *
 * <pre>{@code
 * Principal admin = Principal.unrestricted("admin");
 * Principal alice = Principal.limitedTo("alice", "alice");
 * Principal team = Principal.builder().name("team-7").resourceIds(List.of("acme", "globex")).build();
 * Principal maria = Principal.builder().name("maria").roles(List.of("finance")).build();
 * }</pre>
 *
 * <p>The {@link #roles()} are what the agent's approver rules check a decision against: every decision
 * over HTTP is taken by {@code Approver.of(name(), roles())}. Roles grant no access to runs; the
 * resource ids do.
 *
 * <p>Immutable and thread-safe; equal when name, resource ids and roles are equal. Built by the
 * factories or by {@link #builder()}; a later release may add fields through the builder, so code that
 * builds principals keeps compiling.
 */
public final class Principal {
    /** Who {@link Authenticator#anonymous()} lets every request in as: nobody the server knows by name. */
    static final Principal ANONYMOUS = unrestricted("anonymous");

    private final String name;
    private final @Nullable SortedSet<String> resourceIds;
    private final SortedSet<String> roles;

    private Principal(Builder b) {
        this.name = Objects.requireNonNull(b.name, "name");
        this.resourceIds = b.resourceIds == null ? null : Collections.unmodifiableSortedSet(new TreeSet<>(b.resourceIds));
        this.roles = Collections.unmodifiableSortedSet(new TreeSet<>(b.roles));
    }

    /**
     * Starts a principal; {@link Builder#name(String)} is required.
     *
     * @return an empty builder (unrestricted until resource ids are given)
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this principal's values, to build a changed copy.
     *
     * @return a builder with this principal's name, resource ids and roles
     */
    public Builder toBuilder() {
        return new Builder().name(name).resourceIds(resourceIds).roles(roles);
    }

    /**
     * A principal that sees every run.
     *
     * @param name shown in logs and by {@code GET /me}
     * @return an unrestricted principal
     */
    public static Principal unrestricted(String name) {
        return builder().name(name).build();
    }

    /**
     * A principal that sees only runs of these resource ids.
     *
     * @param name        shown in logs and by {@code GET /me}
     * @param resourceIds at least one resource id
     * @return a restricted principal
     * @throws InvalidOptionException {@code resourceIds} is empty
     */
    public static Principal limitedTo(String name, Collection<String> resourceIds) {
        return builder().name(name).resourceIds(Objects.requireNonNull(resourceIds, "resourceIds")).build();
    }

    /**
     * A principal that sees only runs of these resource ids.
     *
     * @param name        shown in logs and by {@code GET /me}
     * @param resourceIds at least one resource id
     * @return a restricted principal
     * @throws InvalidOptionException no resource id is given
     */
    public static Principal limitedTo(String name, String... resourceIds) {
        return limitedTo(name, Set.of(resourceIds));
    }

    /**
     * The name: shown in logs and by {@code GET /me}; never used for authorization.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The resource ids this principal may see, sorted and unmodifiable, or null for all.
     *
     * @return the resource ids, or null for an unrestricted principal
     */
    public @Nullable Set<String> resourceIds() {
        return resourceIds;
    }

    /**
     * The roles this principal holds (from a JWT claim, a token's configuration, Spring Security's
     * authorities), sorted and unmodifiable; empty by default. The agent's approver rules check every
     * decision this principal takes against them.
     *
     * @return the roles, possibly empty
     */
    public Set<String> roles() {
        return roles;
    }

    /**
     * Whether this principal is limited to some resource ids.
     *
     * @return true if {@link #resourceIds()} is not null
     */
    public boolean isRestricted() {
        return resourceIds != null;
    }

    /**
     * Whether this principal may see a run of {@code resourceId} (a run without one: only an
     * unrestricted principal).
     *
     * @param resourceId the run's resource id, or null
     * @return true if the run is visible to this principal
     */
    public boolean mayAccess(@Nullable String resourceId) {
        return resourceIds == null || (resourceId != null && resourceIds.contains(resourceId));
    }

    @Override
    public boolean equals(Object o) {
        return this == o || (o instanceof Principal p && name.equals(p.name) && Objects.equals(resourceIds, p.resourceIds)
                && roles.equals(p.roles));
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, resourceIds, roles);
    }

    @Override
    public String toString() {
        return "Principal[name=" + name + ", resourceIds=" + resourceIds + ", roles=" + roles + "]";
    }

    /** Builder of {@link Principal}: not thread-safe; {@link #build()} validates and copies. */
    public static final class Builder {
        private @Nullable String name;
        private @Nullable Set<String> resourceIds;
        private Set<String> roles = Set.of();

        private Builder() {
        }

        /**
         * The name (required): shown in logs and by {@code GET /me}; never used for authorization.
         *
         * @param name the name
         * @return this builder
         */
        public Builder name(String name) {
            this.name = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * The resource ids the principal may see (at least one), or null for all (the default).
         * The collection is copied.
         *
         * @param resourceIds the resource ids, or null for an unrestricted principal
         * @return this builder
         */
        public Builder resourceIds(@Nullable Collection<String> resourceIds) {
            if (resourceIds == null) {
                this.resourceIds = null;
            } else {
                for (String id : resourceIds) {
                    if (id == null) throw new InvalidOptionException("resourceIds", "a resource id must not be null");
                }
                this.resourceIds = Set.copyOf(resourceIds);
            }
            return this;
        }

        /**
         * The roles the principal holds (none by default), checked by the agent's approver rules. The
         * collection is copied; duplicates are dropped.
         *
         * @param roles the roles
         * @return this builder
         * @throws InvalidOptionException a role is null or blank ({@code roles})
         */
        public Builder roles(Collection<String> roles) {
            Objects.requireNonNull(roles, "roles");
            for (String role : roles) {
                if (role == null || role.isBlank()) throw new InvalidOptionException("roles", "a role must not be null or blank");
            }
            this.roles = Set.copyOf(roles);
            return this;
        }

        /**
         * The principal.
         *
         * @return a new principal
         * @throws InvalidOptionException no name was given ({@code name}), or an empty set of resource
         *                                ids ({@code resourceIds}: a restricted principal needs one)
         */
        public Principal build() {
            if (name == null) throw new InvalidOptionException("name", "a principal needs a name");
            if (resourceIds != null && resourceIds.isEmpty()) {
                throw new InvalidOptionException("resourceIds", "a restricted principal needs at least one resource id");
            }
            return new Principal(this);
        }
    }
}
