package dev.baton.notify;

import dev.baton.InvalidOptionException;
import dev.baton.agent.Agent;
import dev.baton.agent.NotificationPolicy;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/** Builder of {@link Notifier} ({@link Notifier#builder()}); not thread-safe. */
public final class NotifierBuilder {
    final List<DeliveryRound.Source> sources = new ArrayList<>();
    final List<NotificationChannel> channels = new ArrayList<>();
    @Nullable URI inboxUrl;
    Duration pollInterval = Duration.ofSeconds(1);
    Duration claimTimeout = Duration.ofMinutes(1);
    int batchSize = 50;
    int maxAttempts = 8;
    Duration backoffBase = Duration.ofSeconds(2);
    Duration backoffMax = Duration.ofMinutes(10);
    Random random = new Random();
    NotifierMetrics metrics = NotifierMetrics.NONE;

    NotifierBuilder() {
    }

    /**
     * The agents whose runs to notify about.
     *
     * @param agents agents with a {@code notifications(...)} policy, on a store with {@code NOTIFICATIONS}
     * @return this builder
     * @throws InvalidOptionException ({@code agents}) an agent notifies about nothing, its store
     *         keeps no notifications, or two agents have the same id
     */
    public NotifierBuilder agents(Agent... agents) {
        for (Agent a : agents) {
            if (!a.notifications().enabled()) {
                throw new InvalidOptionException("agents", "agent '" + a.id() + "' notifies about nothing: build it with notifications(...)");
            }
            source(a.id(), a.store(), a.clock(), a.notifications());
        }
        return this;
    }

    /** An agent's outbox by its parts (tests). */
    NotifierBuilder source(String agentId, SnapshotStore store, Clock clock, NotificationPolicy policy) {
        if (!store.capabilities().contains(StoreCapability.NOTIFICATIONS)) {
            throw new InvalidOptionException("agents", "the store of agent '" + agentId + "' (" + store.describe()
                    + ") keeps no notifications (capability NOTIFICATIONS)");
        }
        if (sources.stream().anyMatch(s -> s.agentId().equals(agentId))) {
            throw new InvalidOptionException("agents", "two agents are named '" + agentId + "'");
        }
        sources.add(new DeliveryRound.Source(agentId, store, clock, policy));
        return this;
    }

    /**
     * Where to deliver: each notification goes to every channel, in this order.
     *
     * @param channels channels with distinct names
     * @return this builder
     * @throws InvalidOptionException ({@code channels}) two channels have the same name
     */
    public NotifierBuilder channels(NotificationChannel... channels) {
        for (NotificationChannel c : channels) {
            Objects.requireNonNull(c, "channel");
            if (this.channels.stream().anyMatch(x -> x.name().equals(c.name()))) {
                throw new InvalidOptionException("channels", "two channels are named '" + c.name() + "': name them apart");
            }
            this.channels.add(c);
        }
        return this;
    }

    /**
     * The inbox page's address, for the link in each notification (none by default).
     *
     * @param inboxUrl where the inbox is served, e.g. {@code https://ops.example.com/baton/}
     * @return this builder
     * @throws InvalidOptionException ({@code inboxUrl}) not an http(s) URL with a host
     */
    public NotifierBuilder inboxUrl(URI inboxUrl) {
        this.inboxUrl = Urls.http("inboxUrl", inboxUrl);
        return this;
    }

    /**
     * How long the loop waits between polls (default 1 s).
     *
     * @param interval positive
     * @return this builder
     * @throws InvalidOptionException ({@code pollInterval}) not positive
     */
    public NotifierBuilder pollInterval(Duration interval) {
        this.pollInterval = Urls.positive("pollInterval", interval);
        return this;
    }

    /**
     * How long a claim holds a notification (default 1 min): longer than delivering it to every
     * channel takes (their timeouts added), else another instance sends it too.
     *
     * @param timeout positive
     * @return this builder
     * @throws InvalidOptionException ({@code claimTimeout}) not positive
     */
    public NotifierBuilder claimTimeout(Duration timeout) {
        this.claimTimeout = Urls.positive("claimTimeout", timeout);
        return this;
    }

    /**
     * How many due notifications per agent one poll takes (default 50).
     *
     * @param size 1 to 1000
     * @return this builder
     * @throws InvalidOptionException ({@code batchSize}) out of range
     */
    public NotifierBuilder batchSize(int size) {
        if (size < 1 || size > 1000) throw new InvalidOptionException("batchSize", "must be 1 to 1000, was " + size);
        this.batchSize = size;
        return this;
    }

    /**
     * How many attempts before a notification is given up (default 8).
     *
     * @param attempts 1 to 100
     * @return this builder
     * @throws InvalidOptionException ({@code maxAttempts}) out of range
     */
    public NotifierBuilder maxAttempts(int attempts) {
        if (attempts < 1 || attempts > 100) throw new InvalidOptionException("maxAttempts", "must be 1 to 100, was " + attempts);
        this.maxAttempts = attempts;
        return this;
    }

    /**
     * The backoff between attempts: {@code base * 2^(n-1)} after the n-th, at most {@code max},
     * each times a random factor in [0.5, 1] (default 2 s, 10 min). A receiver's {@code Retry-After}
     * (on a 429 or 503) that asks for longer is honoured, up to {@code max}.
     *
     * @param base positive
     * @param max  at least {@code base}
     * @return this builder
     * @throws InvalidOptionException ({@code backoff}) not positive, or max below base
     */
    public NotifierBuilder backoff(Duration base, Duration max) {
        Urls.positive("backoff", base);
        Urls.positive("backoff", max);
        if (max.compareTo(base) < 0) throw new InvalidOptionException("backoff", "max " + max + " is below base " + base);
        this.backoffBase = base;
        this.backoffMax = max;
        return this;
    }

    /**
     * The source of the backoff's jitter (default a new {@link Random}); seed it for repeatable tests.
     *
     * @param random the generator
     * @return this builder
     */
    public NotifierBuilder random(Random random) {
        this.random = Objects.requireNonNull(random, "random");
        return this;
    }

    /**
     * Reports to Micrometer: {@code baton.notifications.sent}, {@code .retried}, {@code .dead}
     * (counters), {@code .latency} and {@code .attempts} (timers). Micrometer is an optional
     * dependency: without this call it is never loaded.
     *
     * @param registry the registry
     * @return this builder
     */
    public NotifierBuilder meterRegistry(MeterRegistry registry) {
        this.metrics = new MicrometerNotifierMetrics(Objects.requireNonNull(registry, "registry"));
        return this;
    }

    /**
     * The notifier, not yet started ({@link Notifier#start()}).
     *
     * @return the notifier
     * @throws InvalidOptionException ({@code agents}) none, or ({@code channels}) none
     */
    public Notifier build() {
        if (sources.isEmpty()) throw new InvalidOptionException("agents", "at least one agent is needed");
        if (channels.isEmpty()) throw new InvalidOptionException("channels", "at least one channel is needed");
        return new Notifier(this);
    }
}
