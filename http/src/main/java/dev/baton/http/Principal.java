package dev.baton.http;

import dev.baton.InvalidOptionException;
import java.util.Collection;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Who makes a request, as an {@link Authenticator} found it, and which runs they may see.
 *
 * <p>An unrestricted principal ({@code resourceIds == null}) sees every run of every agent the API
 * serves. A principal limited to resource ids sees only runs whose {@code resourceId} is one of
 * them: listings are filtered to them, and approving, declining or resuming any other run answers
 * 404 exactly like a run that does not exist.
 *
 * @param name        shown in logs and by {@code GET /me}; never used for authorization
 * @param resourceIds the resource ids this principal may see, or null for all
 */
public record Principal(String name, @Nullable Set<String> resourceIds) {
    public Principal {
        Objects.requireNonNull(name, "name");
        if (resourceIds != null) {
            if (resourceIds.isEmpty()) {
                throw new InvalidOptionException("resourceIds", "a restricted principal needs at least one resource id");
            }
            resourceIds = Set.copyOf(new TreeSet<>(resourceIds));
        }
    }

    /** A principal that sees every run. */
    public static Principal unrestricted(String name) {
        return new Principal(name, null);
    }

    /** A principal that sees only runs of these resource ids (at least one). */
    public static Principal limitedTo(String name, Collection<String> resourceIds) {
        return new Principal(name, Set.copyOf(resourceIds));
    }

    /** A principal that sees only runs of these resource ids (at least one). */
    public static Principal limitedTo(String name, String... resourceIds) {
        return limitedTo(name, Set.of(resourceIds));
    }

    /** True if this principal is limited to some resource ids. */
    public boolean isRestricted() {
        return resourceIds != null;
    }

    /** True if this principal may see a run of {@code resourceId} (a run without one: only an unrestricted principal). */
    public boolean mayAccess(@Nullable String resourceId) {
        return resourceIds == null || (resourceId != null && resourceIds.contains(resourceId));
    }
}
