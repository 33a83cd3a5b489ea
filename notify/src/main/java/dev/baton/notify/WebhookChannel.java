package dev.baton.notify;

import dev.baton.InvalidOptionException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A signed webhook: each notification is a JSON {@code POST} signed the Standard Webhooks way.
 * Headers {@code webhook-id} (the notification's stable id), {@code webhook-timestamp} (seconds
 * since the epoch) and {@code webhook-signature} ({@code v1,} + base64 of HMAC-SHA256 of
 * {@code id.timestamp.body} under the shared secret). The receiver checks them with
 * {@link WebhookVerifier}, or with any Standard Webhooks library (npm {@code standardwebhooks}, Svix's):
 * the secret is {@code whsec_<base64>}, the id holds no {@code .}. The body:
 * <pre>{@code
 * {"type":"run.suspended","timestamp":"2026-06-01T10:00:00Z","id":"<runId>/<ms>-<version>/suspended",
 *  "data":{"agentId":"concierge","runId":"...","threadId":"...","resourceId":"bob","event":"SUSPENDED",
 *          "suspendedAt":"...","expiresAt":null,"interruption":null,
 *          "waitingCalls":[{"toolCallId":"...","toolName":"refund","requiresApproval":true,"expiresAt":null}],
 *          "link":"https://ops.example.com/baton/?agent=concierge&run=...","text":"Run ... waits for an approval: refund (bob)"}}
 * }</pre>
 * A 2xx answer is delivered; 408, 429, 5xx, a timeout or a failed connection are retryable; any
 * other status (another 4xx; a redirect, never followed) is permanent. Thread-safe.
 *
 * <pre>{@code
 * NotificationChannel hook = WebhookChannel.builder(URI.create("https://hooks.example.com/baton"))
 *         .secret(System.getenv("BATON_WEBHOOK_SECRET"))
 *         .build();
 * }</pre>
 */
public final class WebhookChannel implements NotificationChannel {
    /** The header with the notification's stable id. */
    public static final String ID = "webhook-id";
    /** The header with the sending time, in seconds since the epoch. */
    public static final String TIMESTAMP = "webhook-timestamp";
    /** The header with the signature(s), {@code v1,<base64>}. */
    public static final String SIGNATURE = "webhook-signature";

    private final String name;
    private final HttpPoster poster;
    private final WebhookSecret secret;
    private final Clock clock;

    private WebhookChannel(Builder b) {
        this.name = b.name;
        this.poster = new HttpPoster(b.url, b.connectTimeout, b.requestTimeout);
        this.secret = Objects.requireNonNull(b.secret);
        this.clock = b.clock;
    }

    /**
     * Starts a webhook channel.
     *
     * @param url where to POST: an absolute http(s) URL
     * @return the builder; {@link Builder#secret} is required
     * @throws InvalidOptionException ({@code url}) not an http(s) URL with a host
     */
    public static Builder builder(URI url) {
        return new Builder(Urls.http("url", url));
    }

    @Override
    public DeliveryResult deliver(Notification notification) {
        byte[] body = NotificationJson.webhook(notification);
        long timestamp = clock.instant().getEpochSecond();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(ID, notification.id());
        headers.put(TIMESTAMP, Long.toString(timestamp));
        headers.put(SIGNATURE, secret.sign(notification.id(), timestamp, body));
        return poster.post(body, headers);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return "WebhookChannel[" + name + " " + poster.url() + "]";
    }

    /** Builder of {@link WebhookChannel}; not thread-safe. */
    public static final class Builder {
        private final URI url;
        private @Nullable WebhookSecret secret;
        private String name = "webhook";
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration requestTimeout = Duration.ofSeconds(10);
        private Clock clock = Clock.systemUTC();

        private Builder(URI url) {
            this.url = url;
        }

        /**
         * The shared secret; required.
         *
         * @param secret {@code whsec_} and the base64 of at least 24 random bytes (Standard Webhooks: the form
         *               every official verifier library reads); generate one with
         *               {@code echo "whsec_$(openssl rand -base64 32)"}
         * @return this builder
         * @throws InvalidOptionException ({@code secret}) blank, not {@code whsec_<base64>}, or under 24 bytes
         */
        public Builder secret(String secret) {
            this.secret = WebhookSecret.parse("secret", secret);
            return this;
        }

        /**
         * The channel's name in logs, dead letters ({@link DeadLetter#error()} names the failing channel
         * by it) and metrics (the {@code channel} tag of {@code baton.notifications.attempts}); default
         * {@code webhook}. Give each channel its own name when a notifier has several webhooks.
         *
         * @param name a non-blank name
         * @return this builder
         * @throws InvalidOptionException ({@code name}) blank
         */
        public Builder name(String name) {
            if (name == null || name.isBlank()) throw new InvalidOptionException("name", "must not be blank");
            this.name = name;
            return this;
        }

        /**
         * How long connecting may take (default 5 s); longer is a retryable failure.
         *
         * @param timeout positive
         * @return this builder
         * @throws InvalidOptionException ({@code connectTimeout}) not positive
         */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = Urls.positive("connectTimeout", timeout);
            return this;
        }

        /**
         * How long the whole request may take (default 10 s); longer is a retryable failure.
         *
         * @param timeout positive
         * @return this builder
         * @throws InvalidOptionException ({@code requestTimeout}) not positive
         */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = Urls.positive("requestTimeout", timeout);
            return this;
        }

        /**
         * The clock of {@code webhook-timestamp} (default the system's, UTC).
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The channel.
         *
         * @return the channel
         * @throws InvalidOptionException ({@code secret}) no secret given
         */
        public WebhookChannel build() {
            if (secret == null) throw new InvalidOptionException("secret", "is required: the receiver checks the signature with it");
            return new WebhookChannel(this);
        }
    }
}
