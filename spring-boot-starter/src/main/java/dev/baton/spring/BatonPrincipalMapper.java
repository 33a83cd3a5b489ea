package dev.baton.spring;

import dev.baton.http.Principal;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;

/**
 * Maps the request's Spring Security {@link Authentication} to the Baton {@link Principal} the HTTP
 * API serves, which decides which runs the caller sees. Called only for an authenticated,
 * non-anonymous authentication. The default ({@link #unrestricted()}) lets every authenticated
 * user see every run; declare a bean to limit users to their resources:
 *
 * <pre>{@code
 * @Bean
 * BatonPrincipalMapper ownRunsOnly() {
 *     return auth -> {
 *         Principal.Builder p = Principal.builder().name(auth.getName()).roles(BatonPrincipalMapper.roles(auth));
 *         return Optional.of(BatonPrincipalMapper.roles(auth).contains("OPS") ? p.build()
 *                 : p.resourceIds(List.of(auth.getName())).build());
 *     };
 * }
 * }</pre>
 *
 * The principal's roles are what the agents' approver rules check each decision against; the default
 * gives it the user's Spring Security authorities as roles ({@link #roles(Authentication)}: {@code ROLE_}
 * stripped, so {@code hasRole("TRAVEL")} is the role {@code TRAVEL}). A mapper of your own sets them
 * as it likes (a principal built without roles holds none).
 *
 * Return empty to answer 401. The principal's name is replaced by {@code auth.getName()} if it
 * differs: the audit trail records Spring Security's user as the actor of each decision.
 * Must be thread-safe: it is called from every request thread at once.
 */
@FunctionalInterface
public interface BatonPrincipalMapper {

    /**
     * The principal of an authenticated caller.
     *
     * @param authentication the request's Spring Security authentication (authenticated, not anonymous)
     * @return the principal, or empty to refuse it (401)
     */
    Optional<Principal> map(Authentication authentication);

    /**
     * Every authenticated user sees every run, under their name, holding their authorities as roles
     * ({@link #roles(Authentication)}).
     *
     * @return the default mapper
     */
    static BatonPrincipalMapper unrestricted() {
        return auth -> Optional.of(Principal.builder().name(auth.getName()).roles(roles(auth)).build());
    }

    /**
     * The authentication's authorities as roles: each authority's name, a {@code ROLE_} prefix
     * stripped ({@code ROLE_FINANCE} is {@code FINANCE}; {@code SCOPE_inbox} stays as it is), blank or
     * null ones left out.
     *
     * @param authentication the request's Spring Security authentication
     * @return the roles, in the authorities' order, without duplicates
     */
    static Set<String> roles(Authentication authentication) {
        Set<String> roles = new LinkedHashSet<>();
        for (GrantedAuthority a : authentication.getAuthorities()) {
            String name = a == null ? null : a.getAuthority();
            if (name == null) continue;
            if (name.startsWith("ROLE_")) name = name.substring("ROLE_".length());
            if (!name.isBlank()) roles.add(name);
        }
        return roles;
    }
}
