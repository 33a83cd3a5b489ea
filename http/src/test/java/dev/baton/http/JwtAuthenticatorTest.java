package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import dev.baton.InvalidOptionException;
import dev.baton.store.memory.MemorySnapshotStore;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link JwtAuthenticator} against a JWKS served on 127.0.0.1 by the test, with RSA and EC keys the
 * test makes: every way a token can be wrong is refused (401), and a valid one is limited to its resources.
 */
class JwtAuthenticatorTest {
    static final String ISSUER = "https://idp.test/";
    static final String AUDIENCE = "baton-inbox";
    static RSAKey rsa;
    static RSAKey rsa2;
    static ECKey ec;
    static RSAKey stranger;

    final TestAgents.MutableClock clock = new TestAgents.MutableClock(Instant.parse("2026-06-01T09:00:00Z"));
    final AtomicInteger jwksHits = new AtomicInteger();
    volatile String jwks;
    HttpServer idp;

    @BeforeAll
    static void keys() throws JOSEException {
        rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        rsa2 = new RSAKeyGenerator(2048).keyID("rsa-2").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
        stranger = new RSAKeyGenerator(2048).keyID("rsa-1").generate();   // same kid, another key
    }

    @BeforeEach
    void startIdp() throws IOException {
        jwks = new JWKSet(List.<JWK>of(rsa, ec)).toPublicJWKSet().toString();
        idp = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        idp.createContext("/jwks.json", ex -> {
            jwksHits.incrementAndGet();
            byte[] b = jwks.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, b.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(b);
            }
        });
        idp.start();
    }

    @AfterEach
    void stopIdp() {
        idp.stop(0);
    }

    URI jwksUri() {
        return URI.create("http://127.0.0.1:" + idp.getAddress().getPort() + "/jwks.json");
    }

    JwtAuthenticator.Builder builder() {
        return Authenticator.jwt().jwksUri(jwksUri()).issuer(ISSUER).audience(AUDIENCE).clock(clock);
    }

    JWTClaimsSet.Builder claims() {
        Instant now = clock.instant();
        return new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject("alice")
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300))).claim("resources", List.of("alice"));
    }

    static String sign(JWK key, JWSAlgorithm alg, JWTClaimsSet claims) throws JOSEException {
        JWSSigner signer = key instanceof RSAKey r ? new RSASSASigner(r) : new ECDSASigner((ECKey) key);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(alg).keyID(key.getKeyID()).build(), claims);
        jwt.sign(signer);
        return jwt.serialize();
    }

    String token(UnaryOperator<JWTClaimsSet.Builder> change) throws JOSEException {
        return sign(rsa, JWSAlgorithm.RS256, change.apply(claims()).build());
    }

    static Optional<Principal> auth(Authenticator a, String token) {
        return a.authenticate(ServletCall.headers(Map.of("Authorization", "Bearer " + token)));
    }

    @Test
    void theRolesClaimAndAConfiguredGroupsClaimAreThePrincipalsRoles() throws JOSEException {
        JwtAuthenticator a = builder().build();
        assertThat(auth(a, token(c -> c.claim("roles", List.of("travel", "finance"))))).contains(Principal.builder()
                .name("alice").resourceIds(List.of("alice")).roles(List.of("finance", "travel")).build());
        assertThat(auth(a, token(c -> c.claim("roles", "travel"))).orElseThrow().roles()).as("a string is one role").containsExactly("travel");
        assertThat(auth(a, token(c -> c)).orElseThrow().roles()).as("no claim, no role").isEmpty();
        assertThat(auth(a, token(c -> c.claim("roles", List.of("travel", 7)))).orElseThrow().roles())
                .as("a claim of another shape gives no role; the token is still valid").isEmpty();
        assertThat(auth(a, token(c -> c.claim("groups", List.of("on-call")))).orElseThrow().roles())
                .as("groups count only when configured").isEmpty();

        JwtAuthenticator custom = builder().rolesClaim("app_roles").groupsClaim("groups").unrestrictedWithoutResources().build();
        Principal p = auth(custom, token(c -> c.claim("resources", null).claim("roles", "ignored")
                .claim("app_roles", List.of("travel")).claim("groups", List.of("on-call", "travel")))).orElseThrow();
        assertThat(p.roles()).containsExactly("on-call", "travel");
        assertThat(p.isRestricted()).isFalse();
    }

    @Test
    void aValidTokenOfEitherKeyTypeIsItsSubjectLimitedToItsResources() throws JOSEException {
        JwtAuthenticator a = builder().build();
        assertThat(auth(a, token(c -> c))).contains(Principal.limitedTo("alice", "alice"));
        String byEc = sign(ec, JWSAlgorithm.ES256, claims().subject("bob").claim("resources", "bob").build());
        assertThat(auth(a, byEc)).contains(Principal.limitedTo("bob", "bob"));
        assertThat(jwksHits.get()).as("the JWKS is fetched once and kept").isEqualTo(1);
    }

    @Test
    void expiredTokensAreRefusedBeyondTheClockSkew() throws JOSEException {
        JwtAuthenticator a = builder().build();
        Instant now = clock.instant();
        assertThat(auth(a, token(c -> c.expirationTime(Date.from(now.minusSeconds(61)))))).isEmpty();
        assertThat(auth(a, token(c -> c.expirationTime(Date.from(now.minusSeconds(30)))))).as("within 60 s of skew").isPresent();
        assertThat(auth(a, token(c -> c.expirationTime(null)))).as("no exp").isEmpty();
        JwtAuthenticator strict = builder().clockSkew(Duration.ZERO).build();
        assertThat(auth(strict, token(c -> c.expirationTime(Date.from(now.minusSeconds(1)))))).isEmpty();
    }

    @Test
    void tokensNotYetValidAreRefusedBeyondTheClockSkew() throws JOSEException {
        JwtAuthenticator a = builder().build();
        Instant now = clock.instant();
        assertThat(auth(a, token(c -> c.notBeforeTime(Date.from(now.plusSeconds(61)))))).isEmpty();
        assertThat(auth(a, token(c -> c.notBeforeTime(Date.from(now.plusSeconds(30)))))).isPresent();
    }

    @Test
    void theWrongAudienceOrIssuerIsRefused() throws JOSEException {
        JwtAuthenticator a = builder().build();
        assertThat(auth(a, token(c -> c.audience("another-api")))).isEmpty();
        assertThat(auth(a, token(c -> c.audience(List.of("another-api", AUDIENCE))))).as("aud contains ours").isPresent();
        assertThat(auth(a, token(c -> c.audience((String) null)))).isEmpty();
        assertThat(auth(a, token(c -> c.issuer("https://idp.test")))).as("iss compared exactly").isEmpty();
        assertThat(auth(a, token(c -> c.issuer("https://evil.test/")))).isEmpty();
        assertThat(auth(a, token(c -> c.issuer(null)))).isEmpty();
    }

    @Test
    void aKeyTheProviderDoesNotPublishIsRefused() throws JOSEException {
        JwtAuthenticator a = builder().build();
        assertThat(auth(a, sign(stranger, JWSAlgorithm.RS256, claims().build()))).as("a known kid, another key").isEmpty();
        RSAKey unknown = new RSAKey.Builder(stranger).keyID("made-up").build();
        assertThat(auth(a, sign(unknown, JWSAlgorithm.RS256, claims().build()))).isEmpty();
        SignedJWT noKid = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).build(), claims().build());
        noKid.sign(new RSASSASigner(stranger));
        assertThat(auth(a, noKid.serialize())).as("no kid: tried against every RSA key").isEmpty();
    }

    @Test
    void unknownKeyIdsRefetchTheJwksAtMostTwicePerInterval() throws JOSEException {
        JwtAuthenticator a = builder().build();
        assertThat(auth(a, token(c -> c))).isPresent();
        for (int i = 0; i < 25; i++) {   // an attacker's made-up kids
            RSAKey made = new RSAKey.Builder(stranger).keyID("kid-" + i).build();
            assertThat(auth(a, sign(made, JWSAlgorithm.RS256, claims().build()))).isEmpty();
        }
        assertThat(jwksHits.get()).as("one refetch within 30 s of the first fetch (nimbus' rate limit: two per interval)").isEqualTo(2);
        clock.set(clock.instant().plusSeconds(31));
        for (int i = 0; i < 25; i++) {
            RSAKey made = new RSAKey.Builder(stranger).keyID("again-" + i).build();
            assertThat(auth(a, sign(made, JWSAlgorithm.RS256, claims().build()))).isEmpty();
        }
        assertThat(jwksHits.get()).isEqualTo(4);
    }

    @Test
    void afterAKeyRotationTheNewKeyIsAcceptedOnceRefetched() throws JOSEException {
        JwtAuthenticator a = builder().build();
        assertThat(auth(a, token(c -> c))).isPresent();
        jwks = new JWKSet(List.<JWK>of(rsa2, ec)).toPublicJWKSet().toString();   // the provider rotates rsa-1 out
        String byNewKey = sign(rsa2, JWSAlgorithm.RS256, claims().build());
        assertThat(auth(a, byNewKey)).as("the interval's second fetch: at once").isPresent();
        RSAKey third = new RSAKey.Builder(stranger).keyID("rsa-3").build();
        jwks = new JWKSet(List.<JWK>of(rsa2, ec, third)).toPublicJWKSet().toString();
        assertThat(auth(a, sign(third, JWSAlgorithm.RS256, claims().build()))).as("refetch rate-limited: not yet").isEmpty();
        clock.set(clock.instant().plusSeconds(31));
        assertThat(auth(a, sign(third, JWSAlgorithm.RS256, claims().build()))).as("new kid: refetched").isPresent();
        assertThat(auth(a, token(c -> c))).as("the retired key").isEmpty();
        clock.set(clock.instant().plus(Duration.ofMinutes(6)));
        jwks = new JWKSet(List.<JWK>of(rsa, rsa2)).toPublicJWKSet().toString();
        assertThat(auth(a, sign(rsa, JWSAlgorithm.RS256, claims().build()))).as("cache lifetime over: refetched").isPresent();
    }

    @Test
    void algNoneIsRefused() throws JOSEException {
        JwtAuthenticator a = builder().build();
        assertThat(auth(a, new PlainJWT(claims().build()).serialize())).isEmpty();
        // a none header with a kid, and the signature of a real token pasted on
        String real = token(c -> c);
        String header = Base64URL.encode("{\"alg\":\"none\",\"kid\":\"rsa-1\"}").toString();
        String[] parts = real.split("\\.");
        assertThat(auth(a, header + "." + parts[1] + "." + parts[2])).isEmpty();
        assertThat(auth(a, header + "." + parts[1] + ".")).isEmpty();
        assertThatThrownBy(() -> builder().algorithms(List.of("none"))).isInstanceOf(InvalidOptionException.class);
    }

    @Test
    void anHmacSignedWithThePublicKeyIsRefused() throws JOSEException {
        JwtAuthenticator a = builder().build();
        for (byte[] secret : List.of(rsa.toRSAPublicKey().getEncoded(), rsa.toPublicJWK().toJSONString().getBytes(StandardCharsets.UTF_8))) {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("rsa-1").build(), claims().build());
            jwt.sign(new MACSigner(secret));
            assertThat(auth(a, jwt.serialize())).isEmpty();
        }
        assertThatThrownBy(() -> builder().algorithms(List.of("RS256", "HS256")))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("algorithms");
        assertThat(auth(builder().algorithms(List.of("ES256")).build(), token(c -> c))).as("RS256 not allowed").isEmpty();
    }

    @Test
    void garbageIsRefusedWithoutAnException() {
        JwtAuthenticator a = builder().build();
        for (String t : List.of("x", "a.b.c", "a.b", "....", "eyJhbGciOiJSUzI1NiJ9.e30.AAAA", "é.é.é", "A".repeat(20_000))) {
            assertThat(auth(a, t)).as(t.length() > 40 ? "long" : t).isEmpty();
        }
        assertThat(a.authenticate(ServletCall.headers(Map.of()))).isEmpty();
    }

    @Test
    void resourcesComeFromTheClaimAFunctionOrTheConfiguredDefault() throws JOSEException {
        String none = token(c -> c.claim("resources", null));
        assertThat(auth(builder().build(), none)).as("no resources: refused by default").isEmpty();
        assertThat(auth(builder().defaultResources(List.of("public")).build(), none)).contains(Principal.limitedTo("alice", "public"));
        assertThat(auth(builder().unrestrictedWithoutResources().build(), none)).contains(Principal.unrestricted("alice"));
        assertThat(auth(builder().build(), token(c -> c.claim("resources", List.of("a", 3))))).as("not strings").isEmpty();
        assertThat(auth(builder().resourcesClaim("tenants").build(), token(c -> c.claim("tenants", List.of("acme", "globex")))))
                .contains(Principal.limitedTo("alice", "acme", "globex"));
        JwtAuthenticator byTenant = builder().nameClaim("email")
                .resources(claims -> claims.get("tenant") instanceof String t ? List.of("tenant-" + t) : (Collection<String>) null).build();
        assertThat(auth(byTenant, token(c -> c.claim("email", "a@acme.test").claim("tenant", "acme"))))
                .contains(Principal.limitedTo("a@acme.test", "tenant-acme"));
        assertThat(auth(byTenant, token(c -> c.claim("tenant", "acme")))).as("no email claim").isEmpty();
    }

    @Test
    void givenKeysNeedNoJwks() throws JOSEException {
        JwtAuthenticator a = Authenticator.jwt().key("ec-1", ec.toECPublicKey()).issuer(ISSUER).audience(AUDIENCE).clock(clock).build();
        assertThat(auth(a, sign(ec, JWSAlgorithm.ES256, claims().build()))).isPresent();
        assertThat(auth(a, token(c -> c))).as("an RSA token, no RSA key given").isEmpty();
        assertThat(jwksHits.get()).isZero();
    }

    @Test
    void theBuilderRefusesWhatCannotBeSafe() {
        assertThatThrownBy(() -> Authenticator.jwt().jwksUri(URI.create("http://idp.example.com/jwks")))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("jwksUri");
        assertThatThrownBy(() -> Authenticator.jwt().jwksUri(jwksUri()).audience(AUDIENCE).build())
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("issuer");
        assertThatThrownBy(() -> Authenticator.jwt().jwksUri(jwksUri()).issuer(ISSUER).build())
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("audience");
        assertThatThrownBy(() -> Authenticator.jwt().issuer(ISSUER).audience(AUDIENCE).build())
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("jwksUri");
        assertThatThrownBy(() -> builder().cacheLifetime(Duration.ofSeconds(30)).build())
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("minRefetchInterval");
    }

    @Test
    void aTokenOfOneResourceActsOnAnotherResourcesRunExactlyLikeAMissingRun() throws JOSEException {
        JwtAuthenticator a = Authenticator.jwt().jwksUri(jwksUri()).issuer(ISSUER).audience(AUDIENCE).build();
        try (TestServer t = new TestServer(MemorySnapshotStore.create(), BatonHttpApi.DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(30), a)) {
            String aliceRun = t.suspend(t.concierge, "2026-06-01T09:00:00Z", "alice", "alice-lisbon", "Book a flight to Lisbon");
            String bobRun = t.suspend(t.concierge, "2026-06-02T09:00:00Z", "bob", "bob-orders", "Refund 250 EUR");
            Instant now = Instant.now();
            String aliceToken = sign(rsa, JWSAlgorithm.RS256, claims().issueTime(Date.from(now))
                    .expirationTime(Date.from(now.plusSeconds(300))).build());
            ApiClient alice = t.client(aliceToken);
            assertThat(alice.get("/me").json().get("name").asText()).isEqualTo("alice");
            assertThat(alice.get("/agents/concierge/suspended-runs").json().get("runs").findValuesAsText("resourceId"))
                    .containsExactly("alice");
            String approve = "{\"toolCallId\":\"call_1_0\"}";
            String missing = "f" + bobRun.substring(1);
            ApiClient.Response gone = alice.post("/agents/concierge/runs/" + missing + "/approve", approve);
            ApiClient.Response theirs = alice.post("/agents/concierge/runs/" + bobRun + "/approve", approve);
            assertThat(theirs.status()).isEqualTo(404);
            assertThat(theirs.body()).isEqualTo(gone.body().replace(missing, bobRun));
            assertThat(t.concierge.listSuspendedRuns().runs()).extracting(r -> r.runId()).contains(bobRun);
            assertThat(alice.post("/agents/concierge/runs/" + aliceRun + "/approve", approve).status()).isEqualTo(200);

            ApiClient.Response expired = t.client(sign(rsa, JWSAlgorithm.RS256, claims()
                    .expirationTime(Date.from(now.minusSeconds(120))).build())).get("/me");
            assertThat(expired.status()).isEqualTo(401);
            assertThat(expired.header("WWW-Authenticate")).contains("invalid_token");
        }
    }
}
