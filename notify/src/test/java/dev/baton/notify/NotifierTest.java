package dev.baton.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.InvalidOptionException;
import dev.baton.agent.Agent;
import dev.baton.agent.NotificationEvent;
import dev.baton.agent.NotificationPolicy;
import dev.baton.agent.NotificationState;
import dev.baton.store.RunSnapshot;
import dev.baton.store.memory.MemorySnapshotStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The notifier over the in-memory store (which has NOTIFICATIONS), polled by hand with a clock the
 * test moves: delivered once, retried with backoff, given up into a dead letter, not sent once the
 * wait ended, the expiry notice after the first, metrics.
 */
class NotifierTest {
    static final String SECRET = "whsec_YS1zaGFyZWQtc2VjcmV0LWZvci10aGUtdGVzdHMtMzI=";   // 32 bytes
    static final Instant T0 = Instant.parse("2026-06-01T10:00:00Z");

    MemorySnapshotStore store;
    TestRuns.MutableClock clock;
    Receiver receiver;
    Agent agent;

    @BeforeEach
    void start() throws Exception {
        store = MemorySnapshotStore.create();
        clock = new TestRuns.MutableClock(T0);
        receiver = new Receiver().verifying(WebhookVerifier.of(SECRET).clock(clock));
        agent = TestRuns.refunds("refunds", store, clock, NotificationPolicy.of(NotificationEvent.SUSPENDED)).build();
    }

    @AfterEach
    void stop() {
        receiver.close();
        agent.close();
        store.close();
    }

    NotifierBuilder notifier() {
        return notifier(Duration.ofSeconds(10));
    }

    NotifierBuilder notifier(Duration timeout) {
        return Notifier.builder().agents(agent)
                .channels(WebhookChannel.builder(receiver.url()).secret(SECRET).clock(clock).requestTimeout(timeout).build())
                .inboxUrl(URI.create("http://127.0.0.1:8080/baton/"))
                .backoff(Duration.ofSeconds(1), Duration.ofSeconds(30))
                .random(new Random(25));
    }

    RunSnapshot row(String runId) {
        return store.find(runId).orElseThrow();
    }

    @Test
    void aWaitingRunIsDeliveredOnce_signed_withItsStableIdAndLink_andMarkedDone() throws Exception {
        String runId = TestRuns.waitingRun(agent, "bob");
        RunSnapshot stored = row(runId);
        assertThat(stored.notifyAt()).as("due in the suspension's own write").isEqualTo(stored.suspendedAt());
        Notifier n = notifier().build();

        assertThat(n.pollOnce()).isEqualTo(1);
        assertThat(receiver.received).singleElement().satisfies(r -> {
            assertThat(r.verified()).isTrue();
            assertThat(r.id()).isEqualTo(NotificationState.of(NotificationEvent.SUSPENDED).id(stored));
        });
        var body = new ObjectMapper().readTree(receiver.received.get(0).body());
        assertThat(body.at("/data/link").asText()).isEqualTo("http://127.0.0.1:8080/baton/?agent=refunds&run=" + runId);
        assertThat(body.at("/data/waitingCalls/0/toolName").asText()).isEqualTo("refund");
        assertThat(body.at("/data/resourceId").asText()).isEqualTo("bob");
        assertThat(row(runId).notifyAt()).as("done: nothing more is due").isNull();

        clock.advance(Duration.ofHours(1));
        assertThat(n.pollOnce()).isZero();
        assertThat(receiver.requests()).isEqualTo(1);
        assertThat(n.stats()).isEqualTo(new Notifier.Stats(1, 0, 0, 0));
    }

    @Test
    void aReceiverThatFailsTheFirstTwoGetsItOnTheThird_afterABackoff_withTheSameId() {
        receiver.failFirst(2, 503);
        String runId = TestRuns.waitingRun(agent, "bob");
        Notifier n = notifier().build();

        assertThat(n.pollOnce()).isEqualTo(1);
        Instant retryAt = row(runId).notifyAt();
        // backoff after attempt 1: 1 s times a jitter in [0.5, 1]
        assertThat(retryAt).isBetween(T0.plusMillis(500), T0.plusMillis(1000));
        assertThat(NotificationState.of(row(runId))).satisfies(s -> {
            assertThat(s.attempts()).isEqualTo(1);
            assertThat(s.lastError()).isEqualTo("webhook: HTTP 503");
        });
        assertThat(n.pollOnce()).as("not due before its backoff").isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(n.pollOnce()).isEqualTo(1);
        // after attempt 2: 2 s times the jitter
        assertThat(row(runId).notifyAt()).isBetween(clock.instant().plusMillis(1000), clock.instant().plusMillis(2000));
        clock.advance(Duration.ofSeconds(2));
        assertThat(n.pollOnce()).isEqualTo(1);

        assertThat(receiver.received).extracting(Receiver.Received::answered).containsExactly(503, 503, 200);
        assertThat(receiver.received).extracting(Receiver.Received::id).containsOnly(receiver.received.get(0).id());
        assertThat(row(runId).notifyAt()).isNull();
        assertThat(n.stats()).isEqualTo(new Notifier.Stats(1, 2, 0, 0));
    }

    /**
     * Rule N8: a receiver's {@code Retry-After} on a 429 or 503 is honoured: the next attempt comes no
     * sooner than it asked (here 20 s, where the backoff says 1 s), and no later than the backoff's
     * maximum asks (a receiver asking for an hour gets the 30 s maximum); an HTTP date works too.
     */
    @Test
    void aRetryAfterOnA429Or503IsHonoured_upToTheBackoffsMaximum() {
        receiver.failFirst(1, 429).retryAfter("20");
        String runId = TestRuns.waitingRun(agent, "bob");
        Notifier n = notifier().build();
        assertThat(n.pollOnce()).isEqualTo(1);
        assertThat(row(runId).notifyAt()).as("rule N8: the retry of a 429 with Retry-After: 20")
                .isEqualTo(T0.plusSeconds(20));
        clock.advance(Duration.ofSeconds(19));
        assertThat(n.pollOnce()).as("rule N8: not before the receiver asked").isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(n.pollOnce()).isEqualTo(1);
        assertThat(receiver.received).extracting(Receiver.Received::answered).as("rule N8: the answers").containsExactly(429, 200);

        receiver.failFirst(3, 503).retryAfter("3600");
        String later = TestRuns.waitingRun(agent, "carol");
        assertThat(n.pollOnce()).isEqualTo(1);
        assertThat(row(later).notifyAt()).as("rule N8: a Retry-After of an hour, bounded by the 30 s maximum")
                .isEqualTo(clock.instant().plusSeconds(30));

        assertThat(HttpPoster.retryAfter(java.util.Optional.of("Mon, 01 Jun 2026 10:00:45 GMT"), T0))
                .as("rule N8: Retry-After as an HTTP date").isEqualTo(Duration.ofSeconds(45));
        assertThat(HttpPoster.retryAfter(java.util.Optional.of("soon"), T0)).as("rule N8: an unreadable Retry-After").isNull();
    }

    /**
     * Rule N8: a dead letter keeps the receiver's explanation of a refusal (Slack answers a 400 with
     * {@code invalid_blocks} in the body), bounded and on one line.
     */
    @Test
    void aDeadLetterKeepsTheReceiversExplanation_bounded() {
        receiver.always(400).explaining("invalid_blocks\n" + "x".repeat(5000));
        String runId = TestRuns.waitingRun(agent, "bob");
        Notifier n = notifier().build();
        n.pollOnce();
        assertThat(n.deadLetters()).singleElement().satisfies(d -> assertThat(d.error())
                .as("rule N8: the dead letter's error").startsWith("webhook: HTTP 400: invalid_blocks x")
                .hasSizeLessThan(240).doesNotContain("\n"));
        assertThat(NotificationState.of(row(runId)).lastError()).as("rule N8: the error kept in the run's row")
                .startsWith("webhook: HTTP 400: invalid_blocks");
    }

    @Test
    void a4xxIsGivenUpAtOnce_intoAVisibleDeadLetter() {
        receiver.always(404);
        String runId = TestRuns.waitingRun(agent, "bob");
        Notifier n = notifier().build();

        n.pollOnce();
        assertThat(n.deadLetters()).singleElement().satisfies(d -> {
            assertThat(d.runId()).isEqualTo(runId);
            assertThat(d.attempts()).isEqualTo(1);
            assertThat(d.error()).isEqualTo("webhook: HTTP 404");
            assertThat(d.event()).isEqualTo(NotificationEvent.SUSPENDED);
        });
        NotificationState kept = NotificationState.of(row(runId));
        assertThat(kept.dead()).as("the dead letter is in the run's row too").isTrue();
        assertThat(kept.lastError()).isEqualTo("webhook: HTTP 404");
        assertThat(row(runId).notifyAt()).isNull();
        clock.advance(Duration.ofHours(1));
        n.pollOnce();
        assertThat(receiver.requests()).isEqualTo(1);
        assertThat(n.stats().dead()).isEqualTo(1);
    }

    @Test
    void retryableFailuresAreGivenUpAfterMaxAttempts_slowOnesToo() {
        receiver.slow(1500);   // longer than the channel's 500 ms timeout: every attempt times out
        String runId = TestRuns.waitingRun(agent, "bob");
        Notifier n = notifier(Duration.ofMillis(500)).maxAttempts(3).build();
        for (int i = 0; i < 3; i++) {
            assertThat(n.pollOnce()).isEqualTo(1);
            clock.advance(Duration.ofSeconds(10));
        }
        assertThat(n.pollOnce()).isZero();
        assertThat(n.stats()).isEqualTo(new Notifier.Stats(0, 2, 1, 0));
        assertThat(n.deadLetters()).singleElement().satisfies(d -> {
            assertThat(d.attempts()).isEqualTo(3);
            assertThat(d.error()).startsWith("webhook: timed out");
        });
        assertThat(NotificationState.of(row(runId)).dead()).isTrue();
    }

    @Test
    void aDecisionBeforeTheDeliveryMeansNothingIsSent() {
        String runId = TestRuns.waitingRun(agent, "bob");
        String callId = agent.listSuspendedRuns().runs().get(0).toolCalls().get(0).toolCallId();
        agent.approveToolCall(runId, callId).result();
        Notifier n = notifier().build();
        assertThat(n.pollOnce()).isZero();
        assertThat(receiver.requests()).isZero();
    }

    @Test
    void theExpiryNoticeFollowsTheFirst_withItsOwnId() {
        Agent expiring = TestRuns.refunds("expiring", store, clock,
                NotificationPolicy.of(NotificationEvent.SUSPENDED).beforeExpiry(Duration.ofMinutes(30))).build();
        String runId = TestRuns.waitingRun(expiring, "carol");
        Notifier n = Notifier.builder().agents(expiring)
                .channels(WebhookChannel.builder(receiver.url()).secret(SECRET).clock(clock).build()).build();
        n.pollOnce();
        RunSnapshot after = row(runId);
        assertThat(after.notifyAt()).as("the wait expires in 2 h; notice 30 min before").isEqualTo(after.expiresAt().minus(Duration.ofMinutes(30)));
        clock.advance(Duration.ofMinutes(89));
        assertThat(n.pollOnce()).isZero();
        clock.advance(Duration.ofMinutes(1));
        assertThat(n.pollOnce()).isEqualTo(1);
        assertThat(receiver.received).hasSize(2);
        assertThat(receiver.received.get(1).id()).endsWith("/expiring").isNotEqualTo(receiver.received.get(0).id());
        assertThat(receiver.received.get(1).text()).contains("\"type\":\"run.expiring\"");
        assertThat(row(runId).notifyAt()).isNull();
        expiring.close();
    }

    @Test
    void aChannelThatThrowsIsRetried_andOtherChannelsStillGetIt() {
        TestRuns.waitingRun(agent, "bob");
        NotificationChannel broken = new NotificationChannel() {
            @Override public DeliveryResult deliver(Notification notification) { throw new IllegalStateException("mailer down"); }
            @Override public String name() { return "mail"; }
        };
        Notifier n = notifier().channels(broken).build();
        n.pollOnce();
        assertThat(receiver.requests()).isEqualTo(1);
        assertThat(n.stats().retried()).isEqualTo(1);
    }

    @Test
    void micrometerCountsSentRetriedDead_andTimesTheLatency() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        receiver.failFirst(1, 500);
        TestRuns.waitingRun(agent, "bob");
        Notifier n = notifier().meterRegistry(registry).build();
        clock.advance(Duration.ofMillis(250));
        n.pollOnce();
        clock.advance(Duration.ofSeconds(2));
        n.pollOnce();
        assertThat(registry.get("baton.notifications.sent").tag("agent", "refunds").counter().count()).isEqualTo(1);
        assertThat(registry.get("baton.notifications.retried").tag("agent", "refunds").counter().count()).isEqualTo(1);
        assertThat(registry.find("baton.notifications.dead").counters()).isEmpty();
        assertThat(registry.get("baton.notifications.latency").timer().totalTime(java.util.concurrent.TimeUnit.MILLISECONDS))
                .as("from the suspension to the delivery, by the agent's clock").isEqualTo(2250);
        assertThat(registry.get("baton.notifications.attempts").tag("channel", "webhook").tag("outcome", "retryable").timer().count())
                .isEqualTo(1);
    }

    @Test
    void startRunsTheLoop_andCloseStopsIt() throws Exception {
        clock = null;
        Agent live = TestRuns.refunds("live", store, java.time.Clock.systemUTC(), NotificationPolicy.of(NotificationEvent.SUSPENDED)).build();
        try (Notifier n = Notifier.builder().agents(live).pollInterval(Duration.ofMillis(50))
                .channels(WebhookChannel.builder(receiver.url()).secret(SECRET).build()).build().start()) {
            receiver.verifying(WebhookVerifier.of(SECRET));
            TestRuns.waitingRun(live, "dave");
            long deadline = System.nanoTime() + 5_000_000_000L;
            // the notifier counts a delivery once the receiver answered it, and the receiver records
            // a request before it answers: waiting for the count sees both
            while (n.stats().sent() == 0 && System.nanoTime() < deadline) Thread.sleep(20);
            assertThat(receiver.deliveredIds()).hasSize(1);
            assertThat(n.stats().sent()).isEqualTo(1);
        }
        live.close();
    }

    @Test
    void badOptionsAreRefusedNamingThem() {
        assertThatThrownBy(() -> Notifier.builder().build()).isInstanceOf(InvalidOptionException.class).hasMessageContaining("agents");
        assertThatThrownBy(() -> Notifier.builder().agents(agent).build()).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("channels");
        Agent silent = TestRuns.refunds("silent", store, clock, dev.baton.agent.NotificationPolicy.none()).build();
        assertThatThrownBy(() -> Notifier.builder().agents(silent)).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("notifies about nothing");
        NotificationChannel a = x -> DeliveryResult.delivered();
        assertThatThrownBy(() -> Notifier.builder().channels(a, a)).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("two channels");
        assertThatThrownBy(() -> Notifier.builder().backoff(Duration.ofSeconds(5), Duration.ofSeconds(1)))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("backoff");
        assertThatThrownBy(() -> Notifier.builder().maxAttempts(0)).isInstanceOf(InvalidOptionException.class).hasMessageContaining("maxAttempts");
        assertThatThrownBy(() -> Notifier.builder().inboxUrl(URI.create("inbox"))).isInstanceOf(InvalidOptionException.class)
                .hasMessageContaining("inboxUrl");
        silent.close();
    }

    @Test
    void theBackoffGrowsExponentially_isCapped_andJittered_repeatablyForASeed() {
        Notifier n = notifier().backoff(Duration.ofSeconds(2), Duration.ofMinutes(1)).random(new Random(7)).build();
        Notifier same = notifier().backoff(Duration.ofSeconds(2), Duration.ofMinutes(1)).random(new Random(7)).build();
        for (int attempts = 1; attempts <= 60; attempts++) {
            long nominal = Math.min(60_000, 2000L << Math.min(attempts - 1, 40));
            Duration d = n.backoff(attempts);
            assertThat(d.toMillis()).as("after attempt %d", attempts).isBetween(nominal / 2, nominal);
            assertThat(same.backoff(attempts)).isEqualTo(d);
        }
    }
}
