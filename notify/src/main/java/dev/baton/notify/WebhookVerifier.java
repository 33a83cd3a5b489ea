package dev.baton.notify;

import dev.baton.InvalidOptionException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The receiver's check of a {@link WebhookChannel} delivery (Standard Webhooks): the
 * {@code webhook-signature} header must hold a {@code v1,} signature equal to HMAC-SHA256 of
 * {@code webhook-id.webhook-timestamp.body} under the shared secret (compared in constant time),
 * and {@code webhook-timestamp} must be within the tolerance of this clock (5 minutes by default),
 * so that a captured request cannot be replayed later. Check the raw body bytes, before parsing.
 *
 * <pre>{@code
 * WebhookVerifier verifier = WebhookVerifier.of(System.getenv("BATON_WEBHOOK_SECRET"));
 * // in your handler, with the body as bytes:
 * try {
 *     verifier.verify(name -> request.getHeader(name), body);
 * } catch (WebhookVerificationException e) {
 *     return 401;
 * }
 * String id = request.getHeader("webhook-id");   // drop it if you saw this id already
 * }</pre>
 *
 * <p>What it does not do: remember ids. Replays inside the tolerance and redeliveries carry an id
 * seen before: keep the ids of the last tolerance window (a set, a unique key) and drop repeats.
 * Immutable and thread-safe.
 */
public final class WebhookVerifier {
    /** The default tolerance between the timestamp and this clock: 5 minutes, either way. */
    public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

    private final List<WebhookSecret> secrets;
    private final Duration tolerance;
    private final Clock clock;

    private WebhookVerifier(List<WebhookSecret> secrets, Duration tolerance, Clock clock) {
        this.secrets = secrets;
        this.tolerance = tolerance;
        this.clock = clock;
    }

    /**
     * A verifier for one secret (or several while a secret is rotated: any may match).
     *
     * @param secrets the shared secrets: {@code whsec_} and the base64 of at least 24 bytes (Standard Webhooks)
     * @return the verifier, with the default tolerance and the system clock
     * @throws InvalidOptionException ({@code secret}) none given, or one not {@code whsec_<base64>} or too short
     */
    public static WebhookVerifier of(String... secrets) {
        if (secrets == null || secrets.length == 0) throw new InvalidOptionException("secret", "name at least one secret");
        List<WebhookSecret> parsed = new ArrayList<>();
        for (String s : secrets) parsed.add(WebhookSecret.parse("secret", s));
        return new WebhookVerifier(List.copyOf(parsed), DEFAULT_TOLERANCE, Clock.systemUTC());
    }

    /**
     * This verifier with another tolerance.
     *
     * @param tolerance how far the timestamp may be from this clock, either way; positive
     * @return a new verifier
     * @throws InvalidOptionException ({@code tolerance}) not positive
     */
    public WebhookVerifier tolerance(Duration tolerance) {
        Objects.requireNonNull(tolerance, "tolerance");
        if (tolerance.isZero() || tolerance.isNegative()) throw new InvalidOptionException("tolerance", "must be positive, was " + tolerance);
        return new WebhookVerifier(secrets, tolerance, clock);
    }

    /**
     * This verifier judging timestamps by another clock (tests).
     *
     * @param clock the clock
     * @return a new verifier
     */
    public WebhookVerifier clock(Clock clock) {
        return new WebhookVerifier(secrets, tolerance, Objects.requireNonNull(clock, "clock"));
    }

    /**
     * Checks one delivery by its headers.
     *
     * @param headers the request's header of a name ({@code webhook-id}, ...), or null if absent
     * @param body    the raw body, as received
     * @throws WebhookVerificationException if a header is missing, the timestamp is out of tolerance, or no signature matches
     */
    public void verify(Function<String, @Nullable String> headers, byte[] body) {
        verify(headers.apply(WebhookChannel.ID), headers.apply(WebhookChannel.TIMESTAMP), headers.apply(WebhookChannel.SIGNATURE), body);
    }

    /**
     * Checks one delivery.
     *
     * @param id        the {@code webhook-id} header
     * @param timestamp the {@code webhook-timestamp} header: seconds since the epoch
     * @param signature the {@code webhook-signature} header: space-separated {@code v1,<base64>} signatures
     * @param body      the raw body, as received
     * @throws WebhookVerificationException if a header is missing, the timestamp is out of tolerance, or no signature matches
     */
    public void verify(@Nullable String id, @Nullable String timestamp, @Nullable String signature, byte[] body) {
        if (id == null || id.isEmpty()) throw new WebhookVerificationException("no " + WebhookChannel.ID + " header");
        if (timestamp == null || timestamp.isEmpty()) throw new WebhookVerificationException("no " + WebhookChannel.TIMESTAMP + " header");
        if (signature == null || signature.isEmpty()) throw new WebhookVerificationException("no " + WebhookChannel.SIGNATURE + " header");
        Objects.requireNonNull(body, "body");
        long seconds;
        try {
            seconds = Long.parseLong(timestamp.trim());
        } catch (NumberFormatException e) {
            throw new WebhookVerificationException(WebhookChannel.TIMESTAMP + " is not a number of seconds: '" + timestamp + "'");
        }
        long now = clock.instant().getEpochSecond();
        if (Math.abs(now - seconds) > tolerance.toSeconds()) {
            throw new WebhookVerificationException(WebhookChannel.TIMESTAMP + " " + seconds + " is " + (now - seconds)
                    + " s from now, outside the tolerance of " + tolerance.toSeconds() + " s (a replay, or a clock far off)");
        }
        List<byte[]> offered = new ArrayList<>();
        for (String part : signature.trim().split(" +")) {
            if (!part.startsWith("v1,")) continue;   // other schemes (v1a: asymmetric) are not ours
            try {
                offered.add(Base64.getDecoder().decode(part.substring(3)));
            } catch (IllegalArgumentException e) {
                // not base64: matches nothing
            }
        }
        boolean ok = false;
        for (WebhookSecret s : secrets) {
            byte[] expected = s.mac(id, seconds, body);
            for (byte[] o : offered) ok |= MessageDigest.isEqual(expected, o);   // constant time; try every one
        }
        if (!ok) throw new WebhookVerificationException("no " + WebhookChannel.SIGNATURE + " matches the body under the secret");
    }
}
