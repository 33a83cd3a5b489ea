package dev.baton.notify;

import dev.baton.SnapshotFormatException;
import dev.baton.agent.NotificationEvent;
import dev.baton.agent.NotificationPolicy;
import dev.baton.agent.NotificationState;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One due notification of one run, from claim to done: claim it in the store (exactly one instance
 * wins), deliver it to every channel, then mark it done (with the expiry notice due next, if the
 * policy has one), reschedule it with backoff (no sooner than a receiver's {@code Retry-After}, at
 * most the backoff's maximum), or give it up (dead letter).
 */
final class DeliveryRound {
    private static final Logger LOG = LoggerFactory.getLogger(Notifier.class);

    /** One agent's outbox: its id, store, clock and policy. */
    record Source(String agentId, SnapshotStore store, Clock clock, NotificationPolicy policy) {
    }

    /** What became of a round. */
    enum Result { LOST, SENT, RETRIED, DEAD, SKIPPED }

    private final Notifier.Settings settings;

    DeliveryRound(Notifier.Settings settings) {
        this.settings = settings;
    }

    Result handle(Source source, RunSnapshot run) {
        Instant due = run.notifyAt();
        if (due == null) return Result.SKIPPED;
        NotificationState state;
        try {
            state = NotificationState.of(run);
        } catch (SnapshotFormatException e) {
            state = null;
        }
        SnapshotStore store = source.store();
        if (state == null) {
            // due, but nothing says what about: clear it rather than find it due forever
            LOG.warn("Run {} of agent {} has a notification due without a readable state; it is cleared", run.runId(), source.agentId());
            store.updateNotification(run.runId(), run.version(), due, null, null);
            return Result.SKIPPED;
        }
        if (state.dead()) return Result.SKIPPED;
        Instant claimUntil = source.clock().instant().plus(settings.claimTimeout()).truncatedTo(ChronoUnit.MILLIS);
        NotificationState claimed = state.attempted();
        if (!store.updateNotification(run.runId(), run.version(), due, claimUntil, claimed.encode())) {
            return Result.LOST;   // another instance claimed it, or the run moved on
        }
        Notification n = notification(source, run, state, claimed.attempts(), due);
        List<String> failures = new ArrayList<>();
        boolean permanent = false;
        Duration askedToWait = Duration.ZERO;   // the longest Retry-After a receiver answered
        for (NotificationChannel channel : settings.channels()) {
            long start = System.nanoTime();
            DeliveryResult r;
            try {
                r = channel.deliver(n);
                if (r == null) r = DeliveryResult.retryable("the channel returned no result");
            } catch (RuntimeException e) {
                r = DeliveryResult.retryable("threw " + e);
            }
            settings.metrics().attempt(channel.name(), r.outcome(), Duration.ofNanos(System.nanoTime() - start));
            if (!r.isDelivered()) {
                failures.add(channel.name() + ": " + r.detail());
                permanent |= r.outcome() == DeliveryResult.Outcome.PERMANENT;
                if (r.retryAfter() != null && r.retryAfter().compareTo(askedToWait) > 0) askedToWait = r.retryAfter();
            }
        }
        Instant now = source.clock().instant();
        if (failures.isEmpty()) {
            Instant next = state.event() == NotificationEvent.EXPIRING ? null : source.policy().expiringAt(run);
            if (next != null) next = next.truncatedTo(ChronoUnit.MILLIS);
            if (!store.updateNotification(run.runId(), run.version(), claimUntil, next,
                    next == null ? null : NotificationState.of(NotificationEvent.EXPIRING).encode())) {
                LOG.debug("Notification {} was delivered, but its run moved on meanwhile", n.id());
            }
            Duration latency = Duration.between(dueSince(source, run, state, due), now);
            settings.metrics().sent(source.agentId(), latency.isNegative() ? Duration.ZERO : latency);
            return Result.SENT;
        }
        String error = String.join("; ", failures);
        if (permanent || claimed.attempts() >= settings.maxAttempts()) {
            if (!store.updateNotification(run.runId(), run.version(), claimUntil, null, claimed.givenUp(error).encode())) {
                LOG.debug("Notification {} failed ({}), but its run moved on meanwhile", n.id(), error);
                return Result.LOST;   // decided, or claimed again after a lapse: nothing to give up here
            }
            LOG.warn("Notification {} is given up after {} attempt(s) (a dead letter): {}", n.id(), claimed.attempts(), error);
            settings.deadLetter(new DeadLetter(n.id(), source.agentId(), run.runId(), state.event(), claimed.attempts(), error, now));
            settings.metrics().dead(source.agentId());
            return Result.DEAD;
        }
        Instant retryAt = now.plus(settings.retryDelay(claimed.attempts(), askedToWait)).truncatedTo(ChronoUnit.MILLIS);
        if (!store.updateNotification(run.runId(), run.version(), claimUntil, retryAt, claimed.failed(error).encode())) {
            LOG.debug("Notification {} failed ({}), but its run moved on meanwhile", n.id(), error);
            return Result.LOST;
        }
        LOG.info("Notification {} failed (attempt {} of {}), next at {}: {}", n.id(), claimed.attempts(), settings.maxAttempts(),
                retryAt, error);
        settings.metrics().retried(source.agentId());
        return Result.RETRIED;
    }

    /** When the person should have been told: the wait's start, or when the expiry notice fell due. */
    private static Instant dueSince(Source source, RunSnapshot run, NotificationState state, Instant due) {
        if (state.event() != NotificationEvent.EXPIRING) return run.suspendedAt();
        Instant expiring = source.policy().expiringAt(run);
        return expiring != null ? expiring : due;
    }

    private Notification notification(Source source, RunSnapshot run, NotificationState state, int attempt, Instant due) {
        return new Notification(state.id(run), state.event(), source.agentId(), run.runId(), run.threadId(), run.resourceId(),
                run.suspendedAt(), run.expiresAt(), NotificationJson.interruption(run.summary()),
                NotificationJson.waitingCalls(run.summary()), link(settings.inboxUrl(), source.agentId(), run.runId()), attempt,
                dueSince(source, run, state, due));
    }

    /** {@code <inboxUrl>?agent=<agentId>&run=<runId>}, or null without an inbox URL. */
    static @Nullable URI link(@Nullable URI inbox, String agentId, String runId) {
        if (inbox == null) return null;
        String base = inbox.toString();
        int hash = base.indexOf('#');
        if (hash >= 0) base = base.substring(0, hash);
        String sep = base.contains("?") ? "&" : "?";
        return URI.create(base + sep + "agent=" + URLEncoder.encode(agentId, StandardCharsets.UTF_8)
                + "&run=" + URLEncoder.encode(runId, StandardCharsets.UTF_8));
    }
}
