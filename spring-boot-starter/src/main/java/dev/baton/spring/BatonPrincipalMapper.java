package dev.baton.spring;

import dev.baton.http.Principal;
import java.util.Optional;
import org.springframework.security.core.Authentication;

/**
 * Maps the request's Spring Security {@link Authentication} to the Baton {@link Principal} the HTTP
 * API serves, which decides which runs the caller sees. Called only for an authenticated,
 * non-anonymous authentication. The default ({@link #unrestricted()}) lets every authenticated
 * user see every run; declare a bean to limit users to their resources:
 *
 * <pre>{@code
 * @Bean
 * BatonPrincipalMapper ownRunsOnly() {
 *     return auth -> auth.getAuthorities().stream().anyMatch(a -> a.getAuthority().equals("ROLE_OPS"))
 *             ? Optional.of(Principal.unrestricted(auth.getName()))
 *             : Optional.of(Principal.limitedTo(auth.getName(), auth.getName()));
 * }
 * }</pre>
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
     * Every authenticated user sees every run, under their name.
     *
     * @return the default mapper
     */
    static BatonPrincipalMapper unrestricted() {
        return auth -> Optional.of(Principal.unrestricted(auth.getName()));
    }
}
