package dev.baton.spring;

import dev.baton.http.Authenticator;
import dev.baton.http.Principal;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Objects;
import java.util.Optional;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Takes the HTTP API's principal from Spring Security: the {@link Authentication} of the current
 * request (its security context, on the request's thread), mapped by a {@link BatonPrincipalMapper}.
 * No authentication, an unauthenticated one, or an anonymous one: empty (401, unless another
 * authenticator of the chain knows the caller).
 *
 * <p>The principal's name is always the authentication's ({@link Authentication#getName()}), whatever
 * name the mapper gave: it is the actor recorded with every decision the caller takes (approve,
 * edit, decline, resume, continue, cancel, discard), so the audit trail names the user Spring
 * Security signed in. The mapper decides which resources the caller sees.
 *
 * <p>Thread-safe as its mapper is; nothing to close.
 */
public final class SpringSecurityAuthenticator implements Authenticator {

    private final BatonPrincipalMapper mapper;

    /**
     * Maps authentications with a mapper.
     *
     * @param mapper the authentication-to-principal mapping
     */
    public SpringSecurityAuthenticator(BatonPrincipalMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
    }

    @Override
    public Optional<Principal> authenticate(HttpServletRequest request) {
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        if (auth == null || !auth.isAuthenticated() || auth instanceof AnonymousAuthenticationToken) return Optional.empty();
        String name = auth.getName();
        return mapper.map(auth).map(p -> p.name().equals(name) ? p : p.toBuilder().name(name).build());
    }
}
