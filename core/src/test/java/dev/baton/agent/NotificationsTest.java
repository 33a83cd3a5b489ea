package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import dev.baton.SnapshotFormatException;
import dev.baton.model.DeterministicModel;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.model.ToolCall;
import dev.baton.store.QueryFeature;
import dev.baton.store.RunSnapshot;
import dev.baton.store.StoreCapability;
import dev.baton.testing.TestStore;
import dev.baton.tool.Tool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Core's side of the notification outbox: the due notification is stamped in the write that starts a
 * wait (suspension, interruption, or the expiry notice), cleared by the claim that ends it, and an
 * agent with notifications needs a store that declares NOTIFICATIONS.
 */
class NotificationsTest {
    private static final Instant T = Instant.parse("2026-06-01T10:00:00Z");
    private final TestStore store = new TestStore(EnumSet.of(StoreCapability.NOTIFICATIONS), EnumSet.of(QueryFeature.BASELINE));
    private final AtomicBoolean modelDown = new AtomicBoolean();

    private AgentBuilder agent(NotificationPolicy policy) {
        DeterministicModel model = DeterministicModel.scripted(request -> {
            if (request.lastMessage() instanceof Message.User) {
                return List.of(new ModelChunk.ToolCallRequest(new ToolCall("c1", "bookFlight", null)));
            }
            if (modelDown.get()) throw new UncheckedIOException(new IOException("provider timed out"));
            return List.of(new ModelChunk.TextDelta("Booked."));
        });
        return Agent.builder("travel").model(model).store(store).clock(Clock.fixed(T, ZoneOffset.UTC)).notifications(policy)
                .tools(Tool.builder("bookFlight").requireApproval(true).execute((in, ctx) -> "ok").build());
    }

    @Test
    void notificationsNeedAStoreThatDeclaresThemCheckedWhenTheAgentIsBuilt() {
        TestStore plain = new TestStore();
        assertThatThrownBy(() -> agent(NotificationPolicy.of(NotificationEvent.SUSPENDED)).store(plain).build())
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("notifications")
                .hasMessageContaining("NOTIFICATIONS").hasMessageContaining("TestStore");
        assertThat(agent(NotificationPolicy.none()).store(plain).build().notifications()).isEqualTo(NotificationPolicy.none());
        assertThat(agent(NotificationPolicy.of(NotificationEvent.SUSPENDED)).build().notifications().events())
                .containsExactly(NotificationEvent.SUSPENDED);
    }

    @Test
    void aPolicyRefusesBadInputNamingTheOption() {
        assertThatThrownBy(NotificationPolicy::of).isInstanceOf(InvalidOptionException.class).hasMessageContaining("events");
        assertThatThrownBy(() -> NotificationPolicy.of(NotificationEvent.SUSPENDED, null))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("events");
        assertThatThrownBy(() -> NotificationPolicy.none().beforeExpiry(Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("lead");
        NotificationPolicy p = NotificationPolicy.of(NotificationEvent.INTERRUPTED).beforeExpiry(Duration.ofMinutes(5));
        assertThat(p.events()).containsExactlyInAnyOrder(NotificationEvent.INTERRUPTED, NotificationEvent.EXPIRING);
        assertThat(p.expiryLead()).isEqualTo(Duration.ofMinutes(5));
        assertThat(NotificationPolicy.none().enabled()).isFalse();
        assertThat(NotificationPolicy.of(NotificationEvent.EXPIRING).expiryLead()).isZero();
    }

    @Test
    void aSuspensionIsDueAtOnceAndTheClaimOfADecisionClearsIt() {
        Agent agent = agent(NotificationPolicy.of(NotificationEvent.SUSPENDED)).build();
        AgentResult r = agent.generate("Book a flight");
        RunSnapshot s = store.find(r.runId()).orElseThrow();
        assertThat(s.notifyAt()).isEqualTo(s.suspendedAt()).isEqualTo(T);
        NotificationState state = NotificationState.of(s);
        assertThat(state).isEqualTo(NotificationState.of(NotificationEvent.SUSPENDED));
        assertThat(state.id(s)).isEqualTo(r.runId() + "/" + T.toEpochMilli() + "-1/suspended");
        AgentStream claimed = agent.approveToolCall(r.runId(), "c1");
        RunSnapshot resuming = store.find(r.runId()).orElseThrow();
        assertThat(resuming.notifyAt()).isNull();
        assertThat(resuming.notifyState()).isNull();
        assertThat(claimed.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(store.find(r.runId())).isEmpty();
    }

    @Test
    void anInterruptedRunIsDueAsInterruptedOnlyIfThePolicySaysSo() {
        Agent agent = agent(NotificationPolicy.of(NotificationEvent.SUSPENDED, NotificationEvent.INTERRUPTED)).build();
        AgentResult r = agent.generate("Book a flight");
        modelDown.set(true);
        assertThat(agent.approveToolCall(r.runId(), "c1").result().outcome()).isEqualTo(RunOutcome.INTERRUPTED);
        RunSnapshot s = store.find(r.runId()).orElseThrow();
        assertThat(s.notifyAt()).isEqualTo(T);
        assertThat(NotificationState.of(s).event()).isEqualTo(NotificationEvent.INTERRUPTED);
        assertThat(NotificationState.of(s).id(s)).endsWith("/interrupted").isNotEqualTo(
                NotificationState.of(NotificationEvent.INTERRUPTED).id(s.toBuilder().version(s.version() + 1).build()));

        Agent quiet = agent(NotificationPolicy.of(NotificationEvent.SUSPENDED)).build();
        modelDown.set(false);
        AgentResult q = quiet.generate("Book a flight");
        modelDown.set(true);
        assertThat(quiet.approveToolCall(q.runId(), "c1").result().outcome()).isEqualTo(RunOutcome.INTERRUPTED);
        assertThat(store.find(q.runId()).orElseThrow().notifyAt()).as("interruptions not asked for").isNull();
    }

    @Test
    void withoutTheWaitsOwnEventTheExpiryNoticeIsDueItsLeadBeforeTheDeadline() {
        Agent agent = agent(NotificationPolicy.of(NotificationEvent.EXPIRING).beforeExpiry(Duration.ofMinutes(10)))
                .waitTimeout(Duration.ofHours(1)).build();
        RunSnapshot s = store.find(agent.generate("Book a flight").runId()).orElseThrow();
        assertThat(s.notifyAt()).isEqualTo(T.plus(Duration.ofMinutes(50)));
        assertThat(NotificationState.of(s).event()).isEqualTo(NotificationEvent.EXPIRING);
        assertThat(agent.notifications().expiringAt(s)).isEqualTo(s.notifyAt());

        Agent noDeadline = agent(NotificationPolicy.of(NotificationEvent.EXPIRING)).build();
        assertThat(store.find(noDeadline.generate("Book a flight").runId()).orElseThrow().notifyAt()).isNull();
    }

    @Test
    void aNotificationStateRoundTripsAndGarbageIsNamed() {
        NotificationState st = NotificationState.of(NotificationEvent.EXPIRING).attempted().attempted().failed("503 \"busy\"");
        RunSnapshot run = RunSnapshot.builder().runId("r").agentId("a").status(dev.baton.store.RunStatus.SUSPENDED)
                .createdAt(T).suspendedAt(T).payload("{}").summary("{}").notification(T, st.encode()).build();
        assertThat(NotificationState.of(run)).isEqualTo(st);
        assertThat(NotificationState.of(run).attempts()).isEqualTo(2);
        NotificationState dead = st.givenUp("410 gone");
        assertThat(NotificationState.of(run.toBuilder().notification(null, dead.encode()).build())).isEqualTo(dead);
        assertThat(dead.dead()).isTrue();
        assertThat(NotificationState.of(run.toBuilder().notification(null, null).build())).isNull();
        assertThatThrownBy(() -> NotificationState.of(run.toBuilder().notification(T, "{\"event\":\"LOUD\"}").build()))
                .isInstanceOf(SnapshotFormatException.class).hasMessageContaining("r").hasMessageContaining("notifyState");
        assertThatThrownBy(() -> NotificationState.of(run.toBuilder().notification(T, "not json").build()))
                .isInstanceOf(SnapshotFormatException.class);
    }
}
