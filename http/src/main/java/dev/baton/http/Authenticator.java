package dev.baton.http;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;

/**
 * Maps a request to the {@link Principal} making it: the hook for your own authentication (a
 * session service, a header set by an authenticating proxy); {@link #bearerTokens()} and {@link #jwt()}
 * are built in.
 *
 * <pre>{@code
 * Authenticator byProxyHeader = request -> Optional.ofNullable(request.getHeader("X-Authenticated-User"))
 *         .map(user -> Principal.limitedTo(user, user));
 * }</pre>
 *
 * <p>Called once per API request (not for the inbox page's static files or {@code /openapi.json},
 * which hold no data). Return empty to answer {@code 401}. Must be thread-safe. Do not use cookies:
 * the API keeps no cookie-based state, so a browser never sends credentials on its own and there is
 * nothing for cross-site request forgery to abuse.
 *
 * <p>Thread-safety: implementations must be thread-safe (the API calls one from every request
 * thread at once); the ones returned here are immutable. Nothing to close.
 */
@FunctionalInterface
public interface Authenticator {

    /**
     * Who makes a request.
     *
     * @param request the request (its headers; do not read its body)
     * @return the principal making {@code request}, or empty if it is not authenticated (401)
     */
    Optional<Principal> authenticate(HttpServletRequest request);

    /**
     * Lets every request in as one unrestricted principal named {@code anonymous}. Only for a server
     * bound to loopback on a single-user machine, or behind a proxy that already authenticates.
     *
     * @return an authenticator that lets everyone in
     */
    static Authenticator anonymous() {
        Optional<Principal> anonymous = Optional.of(Principal.ANONYMOUS);
        return request -> anonymous;
    }

    /**
     * Bearer tokens ({@code Authorization: Bearer <token>}), each mapped to its principal.
     *
     * @return a builder of a {@link BearerTokenAuthenticator}
     */
    static BearerTokenAuthenticator.Builder bearerTokens() {
        return BearerTokenAuthenticator.builder();
    }

    /**
     * Bearer JWTs signed by an identity provider ({@code Authorization: Bearer <jwt>}): signature,
     * algorithm, {@code exp}/{@code nbf}, {@code iss} and {@code aud} checked, claims mapped to the principal.
     *
     * @return a builder of a {@link JwtAuthenticator}
     */
    static JwtAuthenticator.Builder jwt() {
        return JwtAuthenticator.builder();
    }
}
