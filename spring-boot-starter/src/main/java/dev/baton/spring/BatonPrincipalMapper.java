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
 * Return empty to answer 401.
 */
@FunctionalInterface
public interface BatonPrincipalMapper {

    /** The principal for {@code authentication}, or empty to refuse it. */
    Optional<Principal> map(Authentication authentication);

    /** Every authenticated user sees every run, under their name. */
    static BatonPrincipalMapper unrestricted() {
        return auth -> Optional.of(Principal.unrestricted(auth.getName()));
    }
}
