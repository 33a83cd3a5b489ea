package dev.baton.http;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.CachingJWKSetSource;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSetCacheRefreshEvaluator;
import com.nimbusds.jose.jwk.source.JWKSetSource;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.OutageTolerantJWKSetSource;
import com.nimbusds.jose.jwk.source.RateLimitedJWKSetSource;
import com.nimbusds.jose.jwk.source.URLBasedJWKSetSource;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import dev.baton.InvalidOptionException;
import jakarta.servlet.http.HttpServletRequest;
import java.net.MalformedURLException;
import java.net.URI;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Authenticates {@code Authorization: Bearer <JWT>} tokens that an identity provider signed: the
 * signature (with the provider's public keys, from its JWKS URL or given), the algorithm, the time
 * window, the issuer and the audience; then maps the token's claims to a {@link Principal}.
 *
 * <pre>{@code
 * Authenticator auth = Authenticator.jwt()
 *         .jwksUri(URI.create("https://idp.example.com/.well-known/jwks.json"))
 *         .issuer("https://idp.example.com/")
 *         .audience("baton-inbox")
 *         .build();   // name from "sub", resources from the "resources" claim
 * }</pre>
 *
 * <p>What a token must be, else it is refused (401, {@code WWW-Authenticate: Bearer error="invalid_token"}):
 * <ul>
 *   <li>a JWS (compact form, at most {@value #MAX_TOKEN_LENGTH} characters) signed with one of the
 *       {@linkplain Builder#algorithms allowed algorithms} (RS256 and ES256 by default; only public-key
 *       algorithms can be allowed, so {@code alg: none} and an HMAC "signed" with a public key are
 *       always refused) by one of the configured keys. The token's own {@code jwk}, {@code jku} and
 *       {@code x5u} headers are ignored: only keys you configured count;</li>
 *   <li>{@code exp} present and not passed, {@code nbf} (if present) reached, both within
 *       {@linkplain Builder#clockSkew the clock skew} (60 s by default);</li>
 *   <li>{@code iss} exactly the configured issuer; {@code aud} containing the configured audience;</li>
 *   <li>a non-blank name claim ({@code sub} by default).</li>
 * </ul>
 * Resources: the principal is limited to the ids of the {@linkplain Builder#resourcesClaim resources
 * claim} (a string or an array of strings; {@code resources} by default) or of
 * {@linkplain Builder#resources(Function) your function of the claims}. A token with none is refused,
 * unless the builder says otherwise ({@link Builder#defaultResources}, or explicitly
 * {@link Builder#unrestrictedWithoutResources}). Why a token was refused is logged at debug level,
 * without the token or its claims.
 *
 * <p>Roles: the principal holds the strings of the {@linkplain Builder#rolesClaim roles claim}
 * ({@code roles} by default) and, if configured, of the {@linkplain Builder#groupsClaim groups claim}
 * (each a string or an array of strings); the agent's approver rules check every decision against
 * them. A token without such a claim, or with one of another shape, gives no role: it is not refused.
 *
 * <p>Keys from a URL are fetched on first use, kept for {@link Builder#cacheLifetime} (5 minutes),
 * and fetched again early when a token's key is not held (key rotation), at most twice per
 * {@link Builder#minRefetchInterval} (30 s), so tokens with made-up key ids cannot make Baton hammer
 * the provider. A failed fetch keeps the keys held. The URL must be {@code https}, or {@code http} on
 * a loopback address. The caching, rate limit and outage tolerance are nimbus' {@code JWKSetSource}s.
 *
 * <p>Thread-safe once built; nothing to close. Its {@link Builder} is not thread-safe.
 */
public final class JwtAuthenticator implements Authenticator {
    private static final Logger LOG = LoggerFactory.getLogger(JwtAuthenticator.class);
    /** Why a token was refused: at INFO, one line per 10 s at most (the rest at DEBUG, counted). */
    private static final RefusalLog REFUSALS = new RefusalLog(LOG);
    /** The longest token read; a longer one is refused without being parsed. */
    public static final int MAX_TOKEN_LENGTH = 16 * 1024;

    /** The algorithms that may be allowed: public-key signatures only. */
    static final Set<JWSAlgorithm> ASYMMETRIC = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384, JWSAlgorithm.RS512,
            JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256, JWSAlgorithm.ES384, JWSAlgorithm.ES512);

    /** The largest JWKS document read. */
    static final int MAX_JWKS_BYTES = 64 * 1024;

    private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final String nameClaim;
    private final List<String> roleClaims;
    private final Function<Map<String, Object>, @Nullable Collection<String>> resources;
    private final boolean unrestricted;
    private final @Nullable List<String> defaultResources;

    private JwtAuthenticator(Builder b, JWKSource<SecurityContext> keys) {
        Set<JWSAlgorithm> algorithms = Set.copyOf(b.algorithms);
        this.nameClaim = b.nameClaim;
        this.roleClaims = b.groupsClaim == null ? List.of(b.rolesClaim) : List.of(b.rolesClaim, b.groupsClaim);
        Clock clock = b.clock;
        // nimbus checks: a JWS (alg none is not one), an allowed algorithm, a configured key of its type and
        // kid verifying it (the token's own jwk, jku, x5u headers are never used), any typ; then the claims
        processor.setJWSTypeVerifier((type, context) -> { });
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(algorithms, keys));
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(Set.of(Objects.requireNonNull(b.audience)),
                new JWTClaimsSet.Builder().issuer(Objects.requireNonNull(b.issuer)).build(), Set.of("exp", nameClaim), null) {
            @Override
            protected Date currentTime() {
                return Date.from(clock.instant());
            }
        };
        claims.setMaxClockSkew((int) b.clockSkew.toSeconds());
        processor.setJWTClaimsSetVerifier(claims);
        String claim = b.resourcesClaim;
        this.resources = b.resources != null ? b.resources : c -> resourceIds(c.get(claim));
        this.unrestricted = b.unrestricted;
        this.defaultResources = b.defaultResources == null ? null : List.copyOf(b.defaultResources);
    }

    /**
     * Starts configuring: {@code jwksUri} (or {@code key}), {@code issuer} and {@code audience} are required.
     *
     * @return an empty builder
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public Optional<Principal> authenticate(HttpServletRequest request) {
        String token = BearerTokenAuthenticator.bearerToken(request.getHeader("Authorization"));
        if (token == null) return Optional.empty();
        if (token.length() > MAX_TOKEN_LENGTH) {
            REFUSALS.refused("bearer JWT refused", "longer than " + MAX_TOKEN_LENGTH + " characters");
            return Optional.empty();
        }
        try {
            return principal(processor.process(token, null));
        } catch (BadJWTException e) {   // never the message: it may quote a claim
            REFUSALS.refused("bearer JWT refused", "its claims (exp, nbf, iss, aud, " + nameClaim + ") do not fit");
        } catch (BadJWSException e) {
            REFUSALS.refused("bearer JWT refused", "no configured key verifies its signature");
        } catch (KeySourceException e) {   // the JWKS could not be fetched, or not again so soon
            REFUSALS.refused("bearer JWT refused", "its key is not held (" + e.getClass().getSimpleName() + ")");
        } catch (Exception e) {   // the class only: a parser's message may quote the token
            REFUSALS.refused("bearer JWT refused", "not a valid JWS of an allowed algorithm and key (" + e.getClass().getSimpleName() + ")");
        }
        return Optional.empty();
    }

    /**
     * The keys of a JWKS URL: nimbus' chain as its {@code JWKSourceBuilder} wires it (fetch, outage tolerance,
     * rate limit, cache), looked up as its {@code JWKSetBasedJWKSource} does (again, with a refresh, when no
     * key fits), but on the builder's clock.
     */
    private static JWKSource<SecurityContext> fetched(URI uri, Duration timeout, Duration lifetime, Duration interval, Clock clock) {
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        JWKSetSource<SecurityContext> url;
        try {
            url = new URLBasedJWKSetSource<>(uri.toURL(), new DefaultResourceRetriever(millis, millis, MAX_JWKS_BYTES));
        } catch (MalformedURLException e) {
            throw new InvalidOptionException("jwksUri", "not a URL: " + uri);
        }
        JWKSetSource<SecurityContext> keys = new CachingJWKSetSource<>(new RateLimitedJWKSetSource<>(
                new OutageTolerantJWKSetSource<>(url, Long.MAX_VALUE, event -> LOG.warn("JWKS from {} could not be fetched, "
                        + "keeping the keys held: {}", uri, ((OutageTolerantJWKSetSource.OutageEvent<?>) event).getException().toString())),
                interval.toMillis(), null), lifetime.toMillis(), 2L * millis, null);
        return (selector, context) -> {
            long now = clock.millis();
            JWKSet held = keys.getJWKSet(JWKSetCacheRefreshEvaluator.noRefresh(), now, context);
            List<JWK> found = selector.select(held);
            return found.isEmpty() ? selector.select(keys.getJWKSet(JWKSetCacheRefreshEvaluator.referenceComparison(held), now, context)) : found;
        };
    }

    private Optional<Principal> principal(JWTClaimsSet claims) {
        Object name = claims.getClaim(nameClaim);
        if (!(name instanceof String n) || n.isBlank()) {
            REFUSALS.refused("bearer JWT refused", "no " + nameClaim + " claim");
            return Optional.empty();
        }
        Set<String> roles = new LinkedHashSet<>();
        for (String claim : roleClaims) {
            Collection<String> held = resourceIds(claims.getClaim(claim));   // the same shapes: a string or an array of strings
            if (held != null) roles.addAll(held);
        }
        Principal.Builder p = Principal.builder().name(n).roles(roles);
        Collection<String> ids = resources.apply(claims.getClaims());
        if (ids != null && !ids.isEmpty()) return Optional.of(p.resourceIds(ids).build());
        if (unrestricted) return Optional.of(p.build());
        if (defaultResources == null) REFUSALS.refused("bearer JWT refused", "no resources");
        return defaultResources == null ? Optional.empty() : Optional.of(p.resourceIds(defaultResources).build());
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

    /** Builder of {@link JwtAuthenticator}. */
    public static final class Builder {
        private @Nullable URI jwksUri;
        private final List<JWK> keys = new ArrayList<>();
        private Set<JWSAlgorithm> algorithms = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);
        private @Nullable String issuer;
        private @Nullable String audience;
        private Duration clockSkew = Duration.ofSeconds(60);
        private String nameClaim = "sub";
        private String resourcesClaim = "resources";
        private String rolesClaim = "roles";
        private @Nullable String groupsClaim;
        private @Nullable Function<Map<String, Object>, @Nullable Collection<String>> resources;
        private @Nullable Collection<String> defaultResources;
        private boolean unrestricted;
        private Duration timeout = Duration.ofSeconds(5);
        private Duration cacheLifetime = Duration.ofMinutes(5);
        private Duration minRefetchInterval = Duration.ofSeconds(30);
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /**
         * Where the identity provider publishes its public keys (a JWKS document).
         *
         * @param jwksUri an {@code https} URL, or {@code http} on a loopback address
         * @return this builder
         * @throws InvalidOptionException ({@code jwksUri}) another scheme, or plain http beyond loopback
         */
        public Builder jwksUri(URI jwksUri) {
            String scheme = Objects.requireNonNull(jwksUri, "jwksUri").getScheme();
            String host = jwksUri.getHost();
            boolean loopback = host != null && (host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]"));
            if (!"https".equalsIgnoreCase(scheme) && !("http".equalsIgnoreCase(scheme) && loopback)) {
                throw new InvalidOptionException("jwksUri", "must be https (or http on loopback), was " + jwksUri);
            }
            this.jwksUri = jwksUri;
            return this;
        }

        /**
         * A public key to check signatures with, instead of a JWKS URL (may be called for several keys).
         *
         * @param keyId the {@code kid} tokens signed with it name, or null to match tokens by key type alone
         * @param key   an RSA or EC public key
         * @return this builder
         * @throws InvalidOptionException ({@code key}) another kind of key
         */
        public Builder key(@Nullable String keyId, PublicKey key) {
            Objects.requireNonNull(key, "key");
            if (key instanceof RSAPublicKey rsa) keys.add(new RSAKey.Builder(rsa).keyID(keyId).build());
            else if (key instanceof ECPublicKey ec) keys.add(new ECKey.Builder(com.nimbusds.jose.jwk.Curve.forECParameterSpec(ec.getParams()), ec).keyID(keyId).build());
            else throw new InvalidOptionException("key", "must be an RSA or EC public key, was " + key.getAlgorithm());
            return this;
        }

        /**
         * The signature algorithms accepted (default RS256 and ES256).
         *
         * @param names JWS names: RS256/384/512, PS256/384/512, ES256/384/512
         * @return this builder
         * @throws InvalidOptionException ({@code algorithms}) none, or one that is not a public-key signature
         *                                ({@code none} and {@code HS*} never are)
         */
        public Builder algorithms(Collection<String> names) {
            Set<JWSAlgorithm> algs = new LinkedHashSet<>();
            for (String n : names) {
                JWSAlgorithm a = JWSAlgorithm.parse(n.trim().toUpperCase(Locale.ROOT));
                if (!ASYMMETRIC.contains(a)) {
                    throw new InvalidOptionException("algorithms", "only public-key signatures " + ASYMMETRIC + ", was " + n);
                }
                algs.add(a);
            }
            if (algs.isEmpty()) throw new InvalidOptionException("algorithms", "at least one is needed");
            this.algorithms = algs;
            return this;
        }

        /**
         * The {@code iss} tokens must have, compared exactly (required).
         *
         * @param issuer the identity provider's issuer identifier
         * @return this builder
         */
        public Builder issuer(String issuer) {
            this.issuer = Objects.requireNonNull(issuer, "issuer");
            return this;
        }

        /**
         * The audience tokens must name in {@code aud} (required): the identifier this API has at the provider.
         *
         * @param audience the audience
         * @return this builder
         */
        public Builder audience(String audience) {
            this.audience = Objects.requireNonNull(audience, "audience");
            return this;
        }

        /**
         * How far {@code exp} and {@code nbf} may be off (default 60 s).
         *
         * @param skew zero to 5 minutes
         * @return this builder
         * @throws InvalidOptionException ({@code clockSkew}) negative or over 5 minutes
         */
        public Builder clockSkew(Duration skew) {
            if (skew.isNegative() || skew.compareTo(Duration.ofMinutes(5)) > 0) {
                throw new InvalidOptionException("clockSkew", "must be 0 to 5 minutes, was " + skew);
            }
            this.clockSkew = skew;
            return this;
        }

        /**
         * The claim whose string is the principal's name (default {@code sub}).
         *
         * @param claim a claim name
         * @return this builder
         */
        public Builder nameClaim(String claim) {
            this.nameClaim = Objects.requireNonNull(claim, "claim");
            return this;
        }

        /**
         * The claim listing the principal's resource ids: a string or an array of strings (default {@code resources}).
         *
         * @param claim a claim name
         * @return this builder
         */
        public Builder resourcesClaim(String claim) {
            this.resourcesClaim = Objects.requireNonNull(claim, "claim");
            return this;
        }

        /**
         * The claim listing the principal's roles, which the agent's approver rules check: a string or an
         * array of strings (default {@code roles}).
         *
         * @param claim a claim name
         * @return this builder
         */
        public Builder rolesClaim(String claim) {
            this.rolesClaim = Objects.requireNonNull(claim, "claim");
            return this;
        }

        /**
         * A second claim whose strings the principal holds as roles too, e.g. {@code groups} of an
         * identity provider that lists group memberships (none by default).
         *
         * @param claim a claim name, or null for none
         * @return this builder
         */
        public Builder groupsClaim(@Nullable String claim) {
            this.groupsClaim = claim;
            return this;
        }

        /**
         * Maps the token's claims to the principal's resource ids, instead of a claim: e.g. from a
         * {@code tenant} claim or your directory. Called only for a token that passed every check.
         *
         * @param resources the verified claims (as nimbus parses them: strings, lists, maps, numbers,
         *                  dates) to resource ids; null or empty for none
         * @return this builder
         */
        public Builder resources(Function<Map<String, Object>, @Nullable Collection<String>> resources) {
            this.resources = Objects.requireNonNull(resources, "resources");
            return this;
        }

        /**
         * The resource ids of a valid token with none of its own (default: such a token is refused).
         *
         * @param resourceIds at least one resource id
         * @return this builder
         * @throws InvalidOptionException ({@code defaultResources}) none given
         */
        public Builder defaultResources(Collection<String> resourceIds) {
            if (resourceIds.isEmpty()) throw new InvalidOptionException("defaultResources", "at least one resource id is needed");
            this.defaultResources = List.copyOf(resourceIds);
            this.unrestricted = false;
            return this;
        }

        /**
         * Makes a valid token with no resources an unrestricted principal, who sees every run. Only
         * when every token your provider issues for this audience belongs to an administrator.
         *
         * @return this builder
         */
        public Builder unrestrictedWithoutResources() {
            this.unrestricted = true;
            this.defaultResources = null;
            return this;
        }

        /**
         * How long a fetch of the JWKS may take to connect and to read (default 5 s).
         *
         * @param timeout positive
         * @return this builder
         * @throws InvalidOptionException ({@code jwksTimeout}) not positive
         */
        public Builder jwksTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) throw new InvalidOptionException("jwksTimeout", "must be positive");
            this.timeout = timeout;
            return this;
        }

        /**
         * How long a fetched JWKS is used before it is fetched again (default 5 minutes).
         *
         * @param lifetime positive
         * @return this builder
         * @throws InvalidOptionException ({@code cacheLifetime}) not positive
         */
        public Builder cacheLifetime(Duration lifetime) {
            if (lifetime.isNegative() || lifetime.isZero()) throw new InvalidOptionException("cacheLifetime", "must be positive");
            this.cacheLifetime = lifetime;
            return this;
        }

        /**
         * The period in which the JWKS is fetched at most twice (default 30 s): tokens naming unknown
         * key ids fetch it again only that often (the second fetch lets a rotation just after a fetch
         * be seen at once). Shorter than {@link #cacheLifetime}.
         *
         * @param interval zero or positive
         * @return this builder
         * @throws InvalidOptionException ({@code minRefetchInterval}) negative
         */
        public Builder minRefetchInterval(Duration interval) {
            if (interval.isNegative()) throw new InvalidOptionException("minRefetchInterval", "must not be negative");
            this.minRefetchInterval = interval;
            return this;
        }

        /**
         * The clock for {@code exp}, {@code nbf} and the JWKS cache (default the system's).
         *
         * @param clock a clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The authenticator.
         *
         * @return a JWT authenticator
         * @throws InvalidOptionException ({@code jwksUri}) neither a JWKS URL nor a key, or both;
         *                                ({@code issuer}, {@code audience}) missing;
         *                                ({@code minRefetchInterval}) not shorter than {@code cacheLifetime}
         */
        public JwtAuthenticator build() {
            if ((jwksUri == null) == keys.isEmpty()) {
                throw new InvalidOptionException("jwksUri", "give either a JWKS URL or keys, not both nor neither");
            }
            if (issuer == null || issuer.isBlank()) throw new InvalidOptionException("issuer", "is required");
            if (audience == null || audience.isBlank()) throw new InvalidOptionException("audience", "is required");
            if (jwksUri != null && minRefetchInterval.compareTo(cacheLifetime) >= 0) {
                throw new InvalidOptionException("minRefetchInterval", "must be shorter than cacheLifetime (" + cacheLifetime + ")");
            }
            return new JwtAuthenticator(this, jwksUri != null ? fetched(jwksUri, timeout, cacheLifetime, minRefetchInterval, clock)
                    : new ImmutableJWKSet<>(new JWKSet(keys)));
        }
    }
}
