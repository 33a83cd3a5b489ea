package dev.baton.examples;

import dev.baton.http.Authenticator;
import java.net.URI;
import java.net.URISyntaxException;
import org.jspecify.annotations.Nullable;

/** {@code serve --jwks URL --issuer ISS --audience AUD}: JWTs of an identity provider instead of the printed token. */
final class ServeJwt {
    private ServeJwt() {
    }

    /**
     * A JWT authenticator: a token's {@code sub} is the principal's name, its {@code resources} claim
     * (a string or an array) the runs it sees; a token without that claim is refused.
     */
    static Authenticator authenticator(@Nullable String jwks, @Nullable String issuer, @Nullable String audience,
                                       @Nullable String token) {
        if (jwks == null || issuer == null || audience == null) {
            throw new UsageException("--jwks, --issuer and --audience go together");
        }
        if (token != null) throw new UsageException("--token and --jwks exclude each other");
        URI uri;
        try {
            uri = new URI(jwks);
        } catch (URISyntaxException e) {
            throw new UsageException("--jwks: not a URL: " + jwks);
        }
        return Authenticator.jwt().jwksUri(uri).issuer(issuer).audience(audience).build();
    }
}
