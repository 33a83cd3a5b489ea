package dev.baton.notify;

import dev.baton.store.RunSnapshot;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the notifications the store keeps due, at least once, to every channel.
 *
 * <p>Every {@code pollInterval} it asks each agent's store for its due notifications
 * ({@code listNotificationsDue}), claims each one (a compare-and-set on the run's row: of several
 * instances exactly one wins; the claim lapses after {@code claimTimeout}, so a notification whose
 * claimant died is due again then), delivers it to each channel in turn, and then marks it done; a
 * failure is rescheduled after an exponential backoff with jitter, or after the receiver's
 * {@code Retry-After} (of a 429 or 503) if that is longer, at most the backoff's maximum; after {@code maxAttempts}
 * attempts, or at once when a channel refuses it for good, it is given up: a dead letter, kept in
 * the run's row ({@code notifyState} {@code "dead":true}), in {@link #deadLetters()} (this instance's
 * last 1000) and in the {@code baton.notifications.dead} counter. A decision that ends the wait clears the
 * notification in the same write, so nothing is sent about a run that no longer waits (one claimed
 * just before the decision may still go out).
 *
 * <p>At least once, not exactly once: a crash between a delivery and its "done", a claim that
 * lapsed during a slow delivery, or a retry because another channel failed, sends it again, with the
 * same {@link Notification#id()}; receivers drop duplicates by it.
 *
 * <pre>{@code
 * Agent agent = Agent.builder()...store(store)
 *         .notifications(NotificationPolicy.of(NotificationEvent.SUSPENDED).beforeExpiry(Duration.ofHours(1)))
 *         .build();
 * try (Notifier notifier = Notifier.builder()
 *         .agents(agent)
 *         .channels(WebhookChannel.builder(URI.create("https://hooks.example.com/baton")).secret(secret).build())
 *         .inboxUrl(URI.create("https://ops.example.com/baton/"))
 *         .build()
 *         .start()) {
 *     ...
 * }
 * }</pre>
 *
 * <p>Thread-safe. Its own single thread delivers (one notification at a time: a channel's timeouts
 * bound how long one may take). Closing stops it; it does not close the agents or the channels.
 */
public final class Notifier implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Notifier.class);
    static final int DEAD_LETTERS_KEPT = 1000;

    /** What a {@link DeliveryRound} needs of its notifier. */
    interface Settings {
        List<NotificationChannel> channels();

        @Nullable URI inboxUrl();

        Duration claimTimeout();

        int maxAttempts();

        Duration retryDelay(int attempts, Duration askedToWait);

        NotifierMetrics metrics();

        void deadLetter(DeadLetter letter);
    }

    /**
     * What a notifier did since it was built.
     *
     * @param sent       notifications delivered to every channel
     * @param retried    failed attempts rescheduled
     * @param dead       notifications given up
     * @param claimsLost due notifications another instance claimed first (or whose run moved on)
     */
    public record Stats(long sent, long retried, long dead, long claimsLost) {
    }

    private final List<DeliveryRound.Source> sources;
    private final List<NotificationChannel> channels;
    private final @Nullable URI inboxUrl;
    private final Duration pollInterval;
    private final Duration claimTimeout;
    private final int batchSize;
    private final int maxAttempts;
    private final Duration backoffBase;
    private final Duration backoffMax;
    private final Random random;
    private final NotifierMetrics metrics;
    private final DeliveryRound round;
    private final Deque<DeadLetter> deadLetters = new ArrayDeque<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong retried = new AtomicLong();
    private final AtomicLong dead = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private final ReentrantLock polling = new ReentrantLock();
    private final ScheduledExecutorService executor;
    private volatile boolean started;

    Notifier(NotifierBuilder b) {
        this.sources = List.copyOf(b.sources);
        this.channels = List.copyOf(b.channels);
        this.inboxUrl = b.inboxUrl;
        this.pollInterval = b.pollInterval;
        this.claimTimeout = b.claimTimeout;
        this.batchSize = b.batchSize;
        this.maxAttempts = b.maxAttempts;
        this.backoffBase = b.backoffBase;
        this.backoffMax = b.backoffMax;
        this.random = b.random;
        this.metrics = b.metrics;
        this.round = new DeliveryRound(new Settings() {
            @Override public List<NotificationChannel> channels() { return channels; }
            @Override public @Nullable URI inboxUrl() { return inboxUrl; }
            @Override public Duration claimTimeout() { return claimTimeout; }
            @Override public int maxAttempts() { return maxAttempts; }
            @Override public Duration retryDelay(int attempts, Duration askedToWait) {
                return Notifier.this.retryDelay(attempts, askedToWait);
            }
            @Override public NotifierMetrics metrics() { return metrics; }
            @Override public void deadLetter(DeadLetter letter) { keep(letter); }
        });
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "baton-notifier");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts building a notifier.
     *
     * @return an empty builder: add agents and channels
     */
    public static NotifierBuilder builder() {
        return new NotifierBuilder();
    }

    /**
     * Starts the loop: a poll at once, then one every {@code pollInterval} after the last ended.
     *
     * @return this notifier
     * @throws IllegalStateException if it was closed
     */
    public synchronized Notifier start() {
        if (executor.isShutdown()) throw new IllegalStateException("the notifier is closed");
        if (!started) {
            started = true;
            executor.scheduleWithFixedDelay(this::pollQuietly, 0, pollInterval.toMillis(), TimeUnit.MILLISECONDS);
        }
        return this;
    }

    private void pollQuietly() {
        try {
            pollOnce();
        } catch (RuntimeException e) {
            LOG.error("A notification poll failed", e);
        }
    }

    /**
     * One poll, on the calling thread: each agent's due notifications (up to {@code batchSize} per
     * agent), each claimed, delivered and marked. The loop calls it; tests and applications with
     * their own scheduler may call it directly. A store that fails is logged and skipped until the next poll.
     *
     * @return how many notifications this poll claimed (delivered, rescheduled or given up)
     */
    public int pollOnce() {
        polling.lock();
        try {
            int claimed = 0;
            for (DeliveryRound.Source source : sources) {
                List<RunSnapshot> due;
                try {
                    due = source.store().listNotificationsDue(source.agentId(), source.clock().instant(), batchSize);
                } catch (RuntimeException e) {
                    LOG.warn("Cannot read the due notifications of agent {}: {}", source.agentId(), e.toString());
                    continue;
                }
                for (RunSnapshot run : due) {
                    DeliveryRound.Result r;
                    try {
                        r = round.handle(source, run);
                    } catch (RuntimeException e) {
                        LOG.warn("Notification of run {} (agent {}) failed in the store: {}", run.runId(), source.agentId(), e.toString());
                        continue;
                    }
                    switch (r) {
                        case SENT -> sent.incrementAndGet();
                        case RETRIED -> retried.incrementAndGet();
                        case DEAD -> dead.incrementAndGet();
                        case LOST -> lost.incrementAndGet();
                        case SKIPPED -> { }
                    }
                    if (r != DeliveryRound.Result.LOST && r != DeliveryRound.Result.SKIPPED) claimed++;
                }
            }
            return claimed;
        } finally {
            polling.unlock();
        }
    }

    /** The delay before attempt {@code attempts + 1}: base * 2^(attempts-1), at most max, times a jitter in [0.5, 1]. */
    Duration backoff(int attempts) {
        long base = backoffBase.toMillis();
        long max = backoffMax.toMillis();
        long exp = attempts >= 40 ? max : Math.min(max, base << Math.max(0, attempts - 1));
        if (exp < 0) exp = max;
        double jitter;
        synchronized (random) {
            jitter = 0.5 + random.nextDouble() * 0.5;
        }
        return Duration.ofMillis(Math.max(1, Math.round(exp * jitter)));
    }

    /**
     * The delay before attempt {@code attempts + 1} when a receiver asked to wait {@code askedToWait}
     * ({@code Retry-After}): the backoff, or what the receiver asked if longer, at most the backoff's
     * maximum (a receiver cannot park a notification for longer than the notifier would).
     */
    Duration retryDelay(int attempts, Duration askedToWait) {
        Duration backoff = backoff(attempts);
        Duration asked = askedToWait.compareTo(backoffMax) > 0 ? backoffMax : askedToWait;
        return asked.compareTo(backoff) > 0 ? asked : backoff;
    }

    private void keep(DeadLetter letter) {
        synchronized (deadLetters) {
            if (deadLetters.size() == DEAD_LETTERS_KEPT) deadLetters.removeFirst();
            deadLetters.addLast(letter);
        }
    }

    /**
     * The notifications this instance gave up, oldest first (its last 1000; another instance's are
     * in its own list, and every one is in its run's row while the run waits).
     *
     * @return a copy
     */
    public List<DeadLetter> deadLetters() {
        synchronized (deadLetters) {
            return List.copyOf(deadLetters);
        }
    }

    /** {@return what this notifier did so far} */
    public Stats stats() {
        return new Stats(sent.get(), retried.get(), dead.get(), lost.get());
    }

    /** Stops the loop, letting a delivery under way end (up to 10 s). Idempotent. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) executor.shutdownNow();
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "Notifier" + sources.stream().map(DeliveryRound.Source::agentId).toList() + " -> "
                + channels.stream().map(NotificationChannel::name).toList();
    }
}
