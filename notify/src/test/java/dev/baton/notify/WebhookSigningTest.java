package dev.baton.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Standard Webhooks signatures: the published test vector, and what {@link WebhookVerifier} refuses. */
class WebhookSigningTest {
    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    static final String ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    static final long TS = 1614265330;
    static final byte[] BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);
    static final String SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    static WebhookVerifier verifierAt(long epochSecond) {
        return WebhookVerifier.of(SECRET).clock(Clock.fixed(Instant.ofEpochSecond(epochSecond), ZoneOffset.UTC));
    }

    @Test
    void signsAsTheStandardWebhooksTestVector() {
        assertThat(WebhookSecret.parse("secret", SECRET).sign(ID, TS, BODY)).isEqualTo(SIGNATURE);
        assertThatCode(() -> verifierAt(TS + 10).verify(ID, Long.toString(TS), SIGNATURE, BODY)).doesNotThrowAnyException();
    }

    @Test
    void acceptsAnyOfSeveralSignaturesAndSecrets_whileASecretIsRotated() {
        String other = WebhookSecret.parse("secret", "whsec_YW5vdGhlci1zZWNyZXQtb2YtZW5vdWdoLWJ5dGVzISE=").sign(ID, TS, BODY);
        assertThatCode(() -> verifierAt(TS).verify(ID, Long.toString(TS), "v1,bm9wZQ== " + other + " " + SIGNATURE, BODY))
                .doesNotThrowAnyException();
        WebhookVerifier both = WebhookVerifier.of("whsec_YW5vdGhlci1zZWNyZXQtb2YtZW5vdWdoLWJ5dGVzISE=", SECRET)
                .clock(Clock.fixed(Instant.ofEpochSecond(TS), ZoneOffset.UTC));
        assertThatCode(() -> both.verify(ID, Long.toString(TS), other, BODY)).doesNotThrowAnyException();
    }

    @Test
    void refusesATamperedBody_anotherId_anotherTimestamp_anotherSecret() {
        WebhookVerifier v = verifierAt(TS);
        byte[] tampered = "{\"test\": 2432232315}".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> v.verify(ID, Long.toString(TS), SIGNATURE, tampered))
                .isInstanceOf(WebhookVerificationException.class).hasMessageContaining("no webhook-signature matches");
        assertThatThrownBy(() -> v.verify(ID + "x", Long.toString(TS), SIGNATURE, BODY)).isInstanceOf(WebhookVerificationException.class);
        assertThatThrownBy(() -> v.verify(ID, Long.toString(TS + 1), SIGNATURE, BODY)).isInstanceOf(WebhookVerificationException.class);
        assertThatThrownBy(() -> WebhookVerifier.of("whsec_YS1kaWZmZXJlbnQtc2VjcmV0LWVudGlyZWx5LTAxMjM=").clock(Clock.fixed(Instant.ofEpochSecond(TS), ZoneOffset.UTC))
                .verify(ID, Long.toString(TS), SIGNATURE, BODY)).isInstanceOf(WebhookVerificationException.class);
        assertThatThrownBy(() -> v.verify(ID, Long.toString(TS), "v1a,abc", BODY)).isInstanceOf(WebhookVerificationException.class);
    }

    @Test
    void refusesATimestampOutsideTheTolerance_eitherWay() {
        assertThatThrownBy(() -> verifierAt(TS + 301).verify(ID, Long.toString(TS), SIGNATURE, BODY))
                .isInstanceOf(WebhookVerificationException.class).hasMessageContaining("outside the tolerance of 300 s");
        assertThatThrownBy(() -> verifierAt(TS - 301).verify(ID, Long.toString(TS), SIGNATURE, BODY))
                .isInstanceOf(WebhookVerificationException.class);
        assertThatCode(() -> verifierAt(TS + 300).verify(ID, Long.toString(TS), SIGNATURE, BODY)).doesNotThrowAnyException();
        assertThatThrownBy(() -> verifierAt(TS + 31).tolerance(Duration.ofSeconds(30)).verify(ID, Long.toString(TS), SIGNATURE, BODY))
                .isInstanceOf(WebhookVerificationException.class);
        assertThatThrownBy(() -> verifierAt(TS).verify(ID, "yesterday", SIGNATURE, BODY))
                .isInstanceOf(WebhookVerificationException.class).hasMessageContaining("not a number");
    }

    @ParameterizedTest
    @ValueSource(strings = {"webhook-id", "webhook-timestamp", "webhook-signature"})
    void refusesAMissingHeader(String missing) {
        java.util.Map<String, String> h = new java.util.HashMap<>(java.util.Map.of("webhook-id", ID,
                "webhook-timestamp", Long.toString(TS), "webhook-signature", SIGNATURE));
        h.remove(missing);
        assertThatThrownBy(() -> verifierAt(TS).verify(h::get, BODY))
                .isInstanceOf(WebhookVerificationException.class).hasMessage("no " + missing + " header");
    }

    /**
     * A secret is {@code whsec_} and the base64 of at least 24 bytes, as Standard Webhooks asks and its
     * official libraries read: plain text, however long, is refused (an official verifier could not
     * check what it signs), and so is a key under 24 bytes.
     */
    @Test
    void aSecretIsWhsecAndTheBase64OfAtLeast24Bytes() {
        assertThatThrownBy(() -> WebhookVerifier.of("a-long-plain-text-secret-that-no-library-reads"))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("whsec_").hasMessageContaining("base64");
        assertThatThrownBy(() -> WebhookChannel.builder(java.net.URI.create("https://hooks.example.com/x"))
                .secret("a-long-plain-text-secret-that-no-library-reads")).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("secret");
        String of23 = "whsec_" + Base64.getEncoder().encodeToString(new byte[23]);
        assertThatThrownBy(() -> WebhookVerifier.of(of23)).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("at least 24 bytes").hasMessageContaining("was 23");
        assertThatCode(() -> WebhookVerifier.of("whsec_" + Base64.getEncoder().encodeToString(new byte[24])))
                .doesNotThrowAnyException();
    }

    @Test
    void badSecretsAreRefusedNamingTheOption() {
        assertThatThrownBy(() -> WebhookVerifier.of("short")).isInstanceOf(InvalidOptionException.class).hasMessageContaining("secret");
        assertThatThrownBy(() -> WebhookVerifier.of("whsec_%%%")).isInstanceOf(InvalidOptionException.class).hasMessageContaining("base64");
        assertThatThrownBy(() -> WebhookVerifier.of()).isInstanceOf(InvalidOptionException.class);
        assertThatThrownBy(() -> WebhookVerifier.of(SECRET).tolerance(Duration.ZERO)).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("tolerance");
    }

    /** Seeded random bodies and ids: what is signed verifies, a flipped bit anywhere in the body does not. */
    @Test
    void randomBodiesRoundTrip_andAnyFlippedBitIsRefused() {
        Random random = new Random(25);
        WebhookSecret secret = WebhookSecret.parse("secret", "whsec_" + Base64.getEncoder().encodeToString(new byte[32]));
        WebhookVerifier v = WebhookVerifier.of("whsec_" + Base64.getEncoder().encodeToString(new byte[32]))
                .clock(Clock.fixed(Instant.ofEpochSecond(TS), ZoneOffset.UTC));
        for (int i = 0; i < 200; i++) {
            byte[] body = new byte[1 + random.nextInt(500)];
            random.nextBytes(body);
            String id = "id-" + random.nextLong();
            String sig = secret.sign(id, TS, body);
            assertThatCode(() -> v.verify(id, Long.toString(TS), sig, body)).doesNotThrowAnyException();
            body[random.nextInt(body.length)] ^= (byte) (1 << random.nextInt(8));
            assertThatThrownBy(() -> v.verify(id, Long.toString(TS), sig, body)).isInstanceOf(WebhookVerificationException.class);
        }
    }
}
