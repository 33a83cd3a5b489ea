package dev.baton.http;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jose.util.Resource;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The public keys a {@link JwtAuthenticator} checks signatures with: a fixed set, or a JWKS fetched
 * from a URL. A fetched set is kept for {@code cacheLifetime}, and fetched again earlier when a token
 * names a key id it does not hold (the identity provider rotated its keys), but never more often than
 * once per {@code minRefetchInterval}: tokens with made-up key ids cannot make it hammer the provider.
 * A failed fetch keeps the keys it had. Thread-safe: readers see a snapshot; one fetch at a time.
 */
final class JwtKeys implements JWKSource<SecurityContext> {
    private static final Logger LOG = LoggerFactory.getLogger(JwtAuthenticator.class);
    /** The largest JWKS document read. */
    static final int MAX_JWKS_BYTES = 64 * 1024;

    private final @Nullable URI jwksUri;
    private final @Nullable DefaultResourceRetriever retriever;
    private final Duration cacheLifetime;
    private final Duration minRefetchInterval;
    private final Clock clock;
    private final ReentrantLock fetchLock = new ReentrantLock();
    private volatile List<JWK> keys;
    private volatile @Nullable Instant fetchedAt;
    private volatile @Nullable Instant lastAttempt;
    private volatile int fetches;

    /** A fixed set of keys. */
    JwtKeys(List<JWK> keys) {
        this.jwksUri = null;
        this.retriever = null;
        this.cacheLifetime = Duration.ZERO;
        this.minRefetchInterval = Duration.ZERO;
        this.clock = Clock.systemUTC();
        this.keys = List.copyOf(keys);
    }

    /** Keys fetched from {@code jwksUri}, on first use. */
    JwtKeys(URI jwksUri, Duration timeout, Duration cacheLifetime, Duration minRefetchInterval, Clock clock) {
        this.jwksUri = jwksUri;
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        this.retriever = new DefaultResourceRetriever(millis, millis, MAX_JWKS_BYTES);
        this.cacheLifetime = cacheLifetime;
        this.minRefetchInterval = minRefetchInterval;
        this.clock = clock;
        this.keys = List.of();
    }

    /** How many times the JWKS was fetched (tried): for tests. */
    int fetches() {
        return fetches;
    }

    /**
     * The keys that may have signed a token ({@link JWSVerificationKeySelector} asks with a matcher of
     * the header's algorithm, key type, curve and key id); a key id not held fetches the JWKS again.
     */
    @Override
    public List<JWK> get(JWKSelector selector, @Nullable SecurityContext context) {
        if (jwksUri == null) return selector.select(new JWKSet(keys));
        Instant now = clock.instant();
        Instant fetched = fetchedAt;
        if (fetched == null || !now.isBefore(fetched.plus(cacheLifetime))) refresh(now, fetched);
        List<JWK> found = selector.select(new JWKSet(keys));
        Set<String> kid = selector.getMatcher().getKeyIDs();   // the token's key id, or null when it names none
        if (found.isEmpty() && kid != null && keys.stream().noneMatch(k -> kid.contains(k.getKeyID()))) {
            // a key id it does not know: perhaps the provider rotated its keys
            refresh(now, fetchedAt);
            found = selector.select(new JWKSet(keys));
        }
        return found;
    }

    /**
     * Fetches the JWKS unless another thread just did, or the last attempt is too recent. Only the
     * first fetch is waited for: while one is under way, the others go on with the keys held, so a
     * slow provider never holds up tokens of the keys already known.
     */
    private void refresh(Instant now, @Nullable Instant seen) {
        if (keys.isEmpty() && fetchedAt == null) fetchLock.lock();
        else if (!fetchLock.tryLock()) return;
        try {
            if (fetchedAt != seen && fetchedAt != null) return;   // another thread fetched meanwhile
            Instant last = lastAttempt;
            if (last != null && now.isBefore(last.plus(minRefetchInterval))) return;
            lastAttempt = now;
            fetches++;
            try {
                Resource r = java.util.Objects.requireNonNull(retriever).retrieveResource(jwksUri.toURL());
                List<JWK> fetched = JWKSet.parse(r.getContent()).getKeys();
                keys = List.copyOf(fetched.stream().filter(k -> !k.isPrivate()).toList());
                fetchedAt = now;
                LOG.debug("JWKS fetched from {}: {} keys", jwksUri, keys.size());
            } catch (Exception e) {   // keep the keys we had; the message names the URL, never a token
                LOG.warn("JWKS from {} could not be fetched, keeping the {} keys held: {}", jwksUri, keys.size(), e.toString());
            }
        } finally {
            fetchLock.unlock();
        }
    }
}
