package dev.baton.notify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.NotificationEvent;
import dev.baton.agent.NotificationPolicy;
import dev.baton.store.memory.MemorySnapshotStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two notifier instances racing over one store: under normal operation each notification is sent
 * once (the claim lets one instance have it); when claims lapse during slow deliveries, duplicates
 * happen, are bounded by the attempts made, and carry the same id, so a receiver drops them.
 */
class NotifierRaceTest {
    static final String SECRET = "whsec_YS1zaGFyZWQtc2VjcmV0LWZvci10aGUtdGVzdHMtMzI=";   // 32 bytes
    MemorySnapshotStore store;
    Receiver receiver;
    Agent agent;

    @BeforeEach
    void start() throws Exception {
        store = MemorySnapshotStore.create();
        receiver = new Receiver().verifying(WebhookVerifier.of(SECRET));
        agent = TestRuns.refunds("racing", store, Clock.systemUTC(), NotificationPolicy.of(NotificationEvent.SUSPENDED)).build();
    }

    @AfterEach
    void stop() {
        receiver.close();
        agent.close();
        store.close();
    }

    Notifier instance(Duration claimTimeout, int seed) {
        return Notifier.builder().agents(agent).batchSize(10).claimTimeout(claimTimeout).random(new Random(seed))
                .backoff(Duration.ofMillis(50), Duration.ofMillis(200))
                .channels(WebhookChannel.builder(receiver.url()).secret(SECRET).build()).build();
    }

    /** Both instances poll at once, over and over, until nothing is due (bounded). */
    static void race(Notifier a, Notifier b) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 200; round++) {
                CountDownLatch go = new CountDownLatch(1);
                var fa = pool.submit(() -> { go.await(); return a.pollOnce(); });
                var fb = pool.submit(() -> { go.await(); return b.pollOnce(); });
                go.countDown();
                if (fa.get(60, TimeUnit.SECONDS) + fb.get(60, TimeUnit.SECONDS) == 0 && round > 0) {
                    Thread.sleep(250);   // a retry may be due soon
                    if (a.pollOnce() + b.pollOnce() == 0) return;
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void twoInstancesSendEachNotificationOnce_underNormalOperation() throws Exception {
        List<String> runs = new ArrayList<>();
        for (int i = 0; i < 40; i++) runs.add(TestRuns.waitingRun(agent, "user-" + i));
        Notifier a = instance(Duration.ofMinutes(1), 1);
        Notifier b = instance(Duration.ofMinutes(1), 2);
        race(a, b);

        List<String> ids = receiver.deliveredIds();
        assertThat(ids).as("every run notified").hasSize(40);
        assertThat(new HashSet<>(ids)).as("no duplicate").hasSize(40);
        assertThat(a.stats().sent() + b.stats().sent()).isEqualTo(40);
        assertThat(a.stats().sent()).as("both instances took part").isPositive();
        assertThat(b.stats().sent()).isPositive();
        for (String runId : runs) assertThat(store.find(runId).orElseThrow().notifyAt()).isNull();
        System.out.printf("race: 40 notifications, instance A sent %d, B sent %d, claims lost %d + %d%n",
                a.stats().sent(), b.stats().sent(), a.stats().claimsLost(), b.stats().claimsLost());
    }

    @Test
    void aClaimThatLapsesDuringASlowDeliveryGivesADuplicate_boundedAndWithTheSameId() throws Exception {
        TestRuns.waitingRun(agent, "user-0");
        receiver.slow(400);   // each delivery outlasts the 100 ms claim
        Notifier a = instance(Duration.ofMillis(100), 3);
        Notifier b = instance(Duration.ofMillis(100), 4);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            var first = pool.submit(a::pollOnce);   // claims the first, delivers it slowly
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (receiver.inFlight() == 0 && System.nanoTime() < deadline) Thread.sleep(5);
            Thread.sleep(150);                      // A is delivering; its claim has lapsed: B finds it due again
            b.pollOnce();
            first.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        race(a, b);   // nothing is left: the one that marked it done last cleared it

        List<String> ids = receiver.deliveredIds();
        Map<String, Long> perId = ids.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(ids).as("the lapsed claim was delivered by both instances, with the same id").hasSize(2);
        assertThat(new HashSet<>(ids)).as("a receiver dropping repeated ids keeps exactly one").hasSize(1);
        assertThat(a.stats().sent() + b.stats().sent()).isEqualTo(2);
        for (String id : perId.keySet()) assertThat(store.find(id.substring(0, id.indexOf('/'))).orElseThrow().notifyAt()).isNull();
    }
}
