package dev.baton.a2a;

import dev.baton.InvalidOptionException;
import dev.baton.a2a.A2aProtocol.PushConfig;
import dev.baton.a2a.A2aProtocol.TaskView;
import dev.baton.agent.Agent;
import dev.baton.notify.DeliveryResult;
import dev.baton.notify.Notification;
import dev.baton.notify.NotificationChannel;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * The push notification configs of A2A tasks, delivered as Baton notifications: a
 * {@link NotificationChannel} for the {@code Notifier}, so a task that goes {@code input-required}
 * is pushed at least once, from whichever instance claims the notification, and retried with the
 * notifier's backoff. For each of the task's configs it POSTs the task (A2A JSON) to the config's
 * URL with the config's token in {@code X-A2A-Notification-Token} and, when a secret is set, the
 * Standard Webhooks headers ({@code webhook-id}: the notification's stable id, for dedupe;
 * {@code webhook-timestamp}; {@code webhook-signature}) that {@code WebhookVerifier} checks.
 * A run without A2A push configs is delivered at once (nothing to send).
 *
 * <pre>{@code
 * Notifier.builder().agents(agent)
 *         .channels(A2aPushChannel.builder(agent).secret(System.getenv("A2A_PUSH_SECRET")).build())
 *         .build().start();
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class A2aPushChannel implements NotificationChannel {
    /** The header carrying the config's token. */
    public static final String TOKEN_HEADER = "X-A2A-Notification-Token";

    private final Map<String, A2aTasks> byAgent = new HashMap<>();
    private final byte @Nullable [] secret;
    private final HttpClient http;
    private final Duration timeout;
    private final Clock clock;

    private A2aPushChannel(Builder b) {
        for (Agent a : b.agents) byAgent.put(a.id(), new A2aTasks(a));
        this.secret = b.secret;
        this.timeout = b.timeout;
        this.clock = b.clock;
        this.http = HttpClient.newBuilder().connectTimeout(b.timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /**
     * Starts a channel for the tasks of these agents (the ones their {@link A2aServlet}s serve).
     *
     * @param agents the agents
     * @return the builder
     */
    public static Builder builder(Agent... agents) {
        return new Builder(List.of(agents));
    }

    @Override
    public DeliveryResult deliver(Notification n) {
        A2aTasks tasks = byAgent.get(n.agentId());
        if (tasks == null || n.threadId() == null) return DeliveryResult.delivered();
        TaskRef ref = new TaskRef(n.runId(), n.resourceId(), n.threadId());
        List<PushConfig> configs = tasks.pushConfigs(ref);
        if (configs.isEmpty()) return DeliveryResult.delivered();
        TaskView view;
        try {
            view = tasks.view(ref);
        } catch (A2aError gone) {
            return DeliveryResult.delivered();   // the task is no more: nothing to tell
        }
        byte[] body;
        try {
            body = A2aProtocol.JSON.writeValueAsBytes(A2aProtocol.task(view));
        } catch (IOException e) {
            return DeliveryResult.permanent("cannot write the task: " + e.getMessage());
        }
        DeliveryResult worst = DeliveryResult.delivered();
        for (PushConfig c : configs) {
            DeliveryResult r = post(n.id(), c, body);
            if (!r.isDelivered() && (worst.isDelivered() || r.outcome() == DeliveryResult.Outcome.RETRYABLE)) worst = r;
        }
        return worst;
    }

    private DeliveryResult post(String id, PushConfig c, byte[] body) {
        HttpRequest.Builder req;
        try {
            req = HttpRequest.newBuilder(URI.create(c.url())).timeout(timeout).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        } catch (IllegalArgumentException e) {
            return DeliveryResult.permanent("push config " + c.id() + ": bad URL " + c.url());
        }
        if (c.token() != null) req.header(TOKEN_HEADER, c.token());
        if (secret != null) {
            long ts = clock.instant().getEpochSecond();
            req.header("webhook-id", id).header("webhook-timestamp", Long.toString(ts)).header("webhook-signature", sign(id, ts, body));
        }
        try {
            int status = http.send(req.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            if (status / 100 == 2) return DeliveryResult.delivered();
            if (status == 408 || status == 429 || status >= 500) return DeliveryResult.retryable("push " + c.url() + ": HTTP " + status);
            return DeliveryResult.permanent("push " + c.url() + ": HTTP " + status);
        } catch (IOException e) {
            return DeliveryResult.retryable("push " + c.url() + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return DeliveryResult.retryable("push " + c.url() + ": interrupted");
        }
    }

    private String sign(String id, long ts, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Objects.requireNonNull(secret), "HmacSHA256"));
            mac.update((id + "." + ts + ".").getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    @Override
    public String name() {
        return "a2a-push";
    }

    /** Builder of {@link A2aPushChannel}: not thread-safe. */
    public static final class Builder {
        private final List<Agent> agents;
        private byte @Nullable [] secret;
        private Duration timeout = Duration.ofSeconds(10);
        private Clock clock = Clock.systemUTC();

        private Builder(List<Agent> agents) {
            if (agents.isEmpty()) throw new InvalidOptionException("agents", "name at least one agent");
            this.agents = agents;
        }

        /**
         * The shared secret the pushes are signed with (Standard Webhooks); without one they carry only the
         * config's token.
         *
         * @param secret {@code whsec_} and the base64 of at least 24 random bytes
         * @return this builder
         */
        public Builder secret(String secret) {
            Objects.requireNonNull(secret, "secret");
            byte[] key;
            try {
                key = secret.startsWith("whsec_") ? Base64.getDecoder().decode(secret.substring(6)) : new byte[0];
            } catch (IllegalArgumentException e) {
                key = new byte[0];
            }
            if (key.length < 24) throw new InvalidOptionException("secret", "must be whsec_ and the base64 of at least 24 bytes");
            this.secret = key;
            return this;
        }

        /**
         * The connect and request timeout of each push (default 10 s).
         *
         * @param timeout positive
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) throw new InvalidOptionException("timeout", "must be positive");
            this.timeout = timeout;
            return this;
        }

        /**
         * The clock of the signature's timestamp (tests).
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** {@return the channel} */
        public A2aPushChannel build() {
            return new A2aPushChannel(this);
        }
    }
}
