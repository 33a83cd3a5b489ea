package dev.baton.http;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** The checks of {@link JwtAuthenticator}: signature, time window, issuer, audience; and the resources claim. */
final class JwtChecks {
    /** The algorithms that may be allowed: public-key signatures only. */
    static final Set<JWSAlgorithm> ASYMMETRIC = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512);

    private JwtChecks() {
    }

    /** Why a token was refused: never holds the token or a claim's value. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String why) {
            super(why, null, false, false);
        }
    }

    /** Refused unless one of {@code candidates} verifies the signature. */
    static void signature(SignedJWT jwt, List<JWK> candidates) throws JOSEException, Refused {
        for (JWK key : candidates) {
            if (jwt.verify(verifier(key))) return;
        }
        throw new Refused("no configured key verifies the signature");
    }

    /** Refused unless {@code exp} is there and not passed, {@code nbf} reached (both within {@code skew}), {@code iss} and {@code aud} fit. */
    static void timeIssuerAudience(JWTClaimsSet claims, Instant now, Duration skew, String issuer, String audience)
            throws Refused {
        Date exp = claims.getExpirationTime();
        if (exp == null) throw new Refused("no exp claim");
        if (now.isAfter(exp.toInstant().plus(skew))) throw new Refused("expired");
        Date nbf = claims.getNotBeforeTime();
        if (nbf != null && now.isBefore(nbf.toInstant().minus(skew))) throw new Refused("not valid yet (nbf)");
        if (!issuer.equals(claims.getIssuer())) throw new Refused("wrong issuer");
        List<String> aud = claims.getAudience();
        if (aud == null || !aud.contains(audience)) throw new Refused("wrong audience");
    }

    private static JWSVerifier verifier(JWK key) throws JOSEException {
        if (key instanceof RSAKey rsa) return new RSASSAVerifier(rsa);
        if (key instanceof ECKey ec) return new ECDSAVerifier(ec);
        throw new JOSEException("unsupported key type");
    }

    /** A string is one resource id, an array of strings several; anything else none. */
    static @Nullable Collection<String> resourceIds(@Nullable Object claim) {
        if (claim instanceof String s) return s.isBlank() ? null : List.of(s);
        if (claim instanceof Collection<?> c) {
            Set<String> ids = new LinkedHashSet<>();
            for (Object o : c) {
                if (!(o instanceof String s) || s.isBlank()) return null;   // an odd claim is no claim
                ids.add(s);
            }
            return ids;
        }
        return null;
    }
}
