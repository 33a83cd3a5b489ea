package dev.baton.tck.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentStream;
import dev.baton.agent.NotificationEvent;
import dev.baton.agent.NotificationPolicy;
import dev.baton.agent.NotificationState;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.tck.ProvesCapability;
import dev.baton.tck.support.FaultyStore;
import dev.baton.tck.support.SimulatedCrash;
import dev.baton.tck.support.Snapshots;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store as the outbox of notifications (stores with {@link StoreCapability#NOTIFICATIONS}): the
 * notification a wait needs is stored in the same write as the wait, so it is due even if the process
 * dies right after that write; it is found oldest first on an index, scoped to the agent; a claim
 * moves it forward without a new version (exactly one of two claimers wins, and a claim that is never
 * completed makes it due again at the claim's lapse: delivered at least once, never lost); and a
 * decision or an end of the run leaves nothing due.
 */
@ProvesCapability(StoreCapability.NOTIFICATIONS)
public abstract class Notifications extends LifecycleRules {

    private static final NotificationPolicy ON_SUSPEND = NotificationPolicy.of(NotificationEvent.SUSPENDED);

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Notifications(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @BeforeEach
    void onlyForStoresThatKeepNotifications() {
        assumeTrue(store.capabilities().contains(StoreCapability.NOTIFICATIONS),
                store.describe() + " does not declare NOTIFICATIONS");
    }

    @Test
    void aSuspensionStoresItsNotificationInTheSameWriteSoItIsDueAfterACrashRightAfterIt() {
        FaultyStore dies = new FaultyStore(store).crashAt(1, true);
        Agent agent = agentBuilder(agentId).store(dies).notifications(ON_SUSPEND).build();
        clock.advance(Duration.ofSeconds(1));
        assertThatThrownBy(() -> agent.generate("Book a flight", RunOptions.DEFAULT)).isInstanceOf(SimulatedCrash.class);
        Instant at = clock.instant();
        List<RunSnapshot> due = store.listNotificationsDue(agentId, at, 10);
        assertThat(due).as("due in the suspension's own write").singleElement().satisfies(s -> {
            assertThat(s.notifyAt()).isEqualTo(s.suspendedAt()).isEqualTo(at);
            NotificationState state = NotificationState.of(s);
            assertThat(state).isEqualTo(NotificationState.of(NotificationEvent.SUSPENDED));
            assertThat(state.id(s)).startsWith(s.runId() + "/");
        });
        assertThat(store.listNotificationsDue(agentId, at.minusMillis(1), 10)).as("not due before its time").isEmpty();
        Agent silent = agentBuilder(agentId + "-silent").build();
        suspend(silent);
        assertThat(store.listNotificationsDue(agentId + "-silent", clock.instant().plusSeconds(3600), 10))
                .as("an agent without notifications leaves none due").isEmpty();
    }

    @Test
    void dueNotificationsAreListedOldestFirstUpToTheLimitScopedToTheAgentAndStoredVerbatim() {
        String other = agentId + "-other";
        String state = "{\"event\":\"SUSPENDED\",\"note\":\"quotes \\\" % * $ ünïcødé 🚀\"}";
        Instant t0 = Snapshots.T0;
        String a = Snapshots.uniqueId("a"), b = Snapshots.uniqueId("b"), first = Snapshots.uniqueId("first");
        String late = Snapshots.uniqueId("late"), none = Snapshots.uniqueId("none"), theirs = Snapshots.uniqueId("theirs");
        assertThat(store.insert(Snapshots.suspendedAt(agentId, b, t0).notification(t0.plusSeconds(20), state).build())).isTrue();
        assertThat(store.insert(Snapshots.suspendedAt(agentId, a, t0).notification(t0.plusSeconds(20), state).build())).isTrue();
        assertThat(store.insert(Snapshots.suspendedAt(agentId, first, t0).notification(t0.plusSeconds(10), state).build())).isTrue();
        assertThat(store.insert(Snapshots.suspendedAt(agentId, late, t0).notification(t0.plusSeconds(300), state).build())).isTrue();
        assertThat(store.insert(Snapshots.suspendedAt(agentId, none, t0).build())).isTrue();
        assertThat(store.insert(Snapshots.suspendedAt(other, theirs, t0).notification(t0, state).build())).isTrue();
        assertThat(ids(store.listNotificationsDue(agentId, t0.plusSeconds(20), 10))).containsExactly(first, a, b);
        assertThat(ids(store.listNotificationsDue(agentId, t0.plusSeconds(60), 2))).containsExactly(first, a);
        assertThat(store.listNotificationsDue(agentId, t0.plusSeconds(9), 10)).isEmpty();
        assertThat(ids(store.listNotificationsDue(other, t0.plusSeconds(999), 10))).containsExactly(theirs);
        assertThat(store.listNotificationsDue(agentId + "%", t0.plusSeconds(999), 10)).isEmpty();
        RunSnapshot firstRun = store.find(first).orElseThrow();
        assertThat(firstRun.notifyAt()).isEqualTo(t0.plusSeconds(10));
        assertThat(firstRun.notifyState()).isEqualTo(state);
        assertThat(store.find(none).orElseThrow().notifyAt()).isNull();
        assertThat(store.find(none).orElseThrow().notifyState()).isNull();
    }

    @Test
    void aClaimMovesTheNotificationWithoutANewVersionAndAClaimNeverCompletedIsDueAgainAtItsLapse() {
        Agent agent = agentBuilder(agentId).notifications(ON_SUSPEND).build();
        AgentResult r = suspend(agent);
        RunSnapshot seen = store.listNotificationsDue(agentId, clock.instant(), 10).get(0);
        Instant lapse = clock.instant().plusSeconds(30);
        String claimed = NotificationState.of(seen).attempted().encode();
        FaultyStore diesBefore = new FaultyStore(store).crashAt(1, false);
        assertThatThrownBy(() -> diesBefore.updateNotification(r.runId(), seen.version(), seen.notifyAt(), lapse, claimed))
                .isInstanceOf(SimulatedCrash.class);
        assertThat(ids(store.listNotificationsDue(agentId, clock.instant(), 10))).as("a claim that never landed")
                .containsExactly(r.runId());
        FaultyStore diesAfter = new FaultyStore(store).crashAt(1, true);
        assertThatThrownBy(() -> diesAfter.updateNotification(r.runId(), seen.version(), seen.notifyAt(), lapse, claimed))
                .isInstanceOf(SimulatedCrash.class);
        RunSnapshot after = store.find(r.runId()).orElseThrow();
        assertThat(after.version()).as("a notifier's write keeps the version").isEqualTo(seen.version());
        assertThat(after.toBuilder().notification(seen.notifyAt(), seen.notifyState()).build())
                .as("nothing but the notification changed").isEqualTo(seen.toBuilder().payload(after.payload()).build());
        assertThat(after.notifyState()).isEqualTo(claimed);
        assertThat(store.listNotificationsDue(agentId, lapse.minusMillis(1), 10)).as("claimed: not due").isEmpty();
        // the claimer died without completing: due again when its claim lapses (at least once)
        assertThat(ids(store.listNotificationsDue(agentId, lapse, 10))).containsExactly(r.runId());
        assertThat(store.updateNotification(r.runId(), seen.version(), seen.notifyAt(), lapse.plusSeconds(30), claimed))
                .as("a claim on a stale read").isFalse();
        assertThat(store.updateNotification(r.runId(), seen.version() + 1, lapse, null, null)).as("another version").isFalse();
        assertThat(store.updateNotification("no-such-run", 1, lapse, null, null)).isFalse();
        String delivered = NotificationState.of(after).encode();
        assertThat(store.updateNotification(r.runId(), seen.version(), lapse, null, delivered)).as("completed").isTrue();
        assertThat(store.listNotificationsDue(agentId, lapse.plus(Duration.ofDays(365)), 10)).as("delivered: never due again").isEmpty();
        assertThat(store.find(r.runId()).orElseThrow().notifyState()).isEqualTo(delivered);
        assertThat(store.find(r.runId()).orElseThrow().notifyAt()).isNull();
    }

    @Test
    void ofTwoInstancesClaimingTheSameDueNotificationsExactlyOneWinsEach() throws Exception {
        Agent agent = agentBuilder(agentId).notifications(ON_SUSPEND).build();
        for (int i = 0; i < 8; i++) suspend(agent);
        List<RunSnapshot> due = store.listNotificationsDue(agentId, clock.instant(), 100);
        assertThat(due).hasSize(8);
        try (SnapshotStore second = reopen()) {
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                for (RunSnapshot s : due) {
                    CountDownLatch start = new CountDownLatch(1);
                    List<Future<Boolean>> claims = new ArrayList<>();
                    for (SnapshotStore instance : List.of(store, second)) {
                        Instant until = clock.instant().plusSeconds(instance == store ? 30 : 31);
                        claims.add(pool.submit(() -> {
                            start.await();
                            return instance.updateNotification(s.runId(), s.version(), s.notifyAt(), until, "{\"event\":\"SUSPENDED\"}");
                        }));
                    }
                    start.countDown();
                    int won = 0;
                    for (Future<Boolean> f : claims) won += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
                    assertThat(won).as("claims of " + s.runId()).isEqualTo(1);
                }
            } finally {
                pool.shutdownNow();
            }
        }
        assertThat(store.listNotificationsDue(agentId, clock.instant().plusSeconds(29), 100)).isEmpty();
    }

    @Test
    void aDecisionOrTheEndOfTheRunLeavesNothingDueAndANotifierNeverBlocksADecision() {
        Agent agent = agentBuilder(agentId).notifications(ON_SUSPEND.beforeExpiry(Duration.ofMinutes(1))).build();
        AgentResult approved = suspend(agent);
        AgentResult cancelled = suspend(agent);
        AgentResult answered = suspend(agent, "Which city?", RunOptions.DEFAULT);
        Instant now = clock.instant();
        assertThat(store.listNotificationsDue(agentId, now, 10)).hasSize(3);
        RunSnapshot seen = store.find(approved.runId()).orElseThrow();
        assertThat(store.updateNotification(seen.runId(), seen.version(), seen.notifyAt(), now.plusSeconds(30), seen.notifyState()))
                .isTrue();
        AgentStream resuming = agent.approveToolCall(approved.runId(), callId(approved));
        assertThat(store.find(approved.runId()).orElseThrow().notifyAt()).as("the decision's claim ends the wait").isNull();
        assertThat(store.updateNotification(seen.runId(), seen.version(), now.plusSeconds(30), null, null))
                .as("the notifier's completion after the decision").isFalse();
        assertThat(resuming.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        agent.cancelRun(cancelled.runId(), "not needed");
        assertThat(agent.resumeStream(java.util.Map.of("city", "Rome"), answered.runId()).result().outcome())
                .isEqualTo(RunOutcome.COMPLETED);
        assertThat(store.listNotificationsDue(agentId, now.plus(Duration.ofDays(30)), 10)).isEmpty();
    }

    @Test
    void anExpiryNoticeIsDueItsLeadBeforeTheDeadline() {
        Agent agent = agentBuilder(agentId).waitTimeout(Duration.ofHours(1))
                .notifications(NotificationPolicy.of(NotificationEvent.EXPIRING).beforeExpiry(Duration.ofMinutes(10))).build();
        AgentResult r = suspend(agent);
        Instant at = clock.instant();
        assertThat(store.listNotificationsDue(agentId, at.plus(Duration.ofMinutes(50)).minusMillis(1), 10)).isEmpty();
        assertThat(store.listNotificationsDue(agentId, at.plus(Duration.ofMinutes(50)), 10)).singleElement().satisfies(s -> {
            assertThat(s.runId()).isEqualTo(r.runId());
            assertThat(NotificationState.of(s).event()).isEqualTo(NotificationEvent.EXPIRING);
            assertThat(agent.notifications().expiringAt(s)).isEqualTo(s.notifyAt());
        });
    }

    private SnapshotStore reopen() throws Exception {
        return storeUnderTest().open();
    }

    private static List<String> ids(List<RunSnapshot> runs) {
        return runs.stream().map(RunSnapshot::runId).toList();
    }
}
