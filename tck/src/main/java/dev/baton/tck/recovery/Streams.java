package dev.baton.tck.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.RunNotSuspendedException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Streams that are dropped, read late or closed midway: the decision is kept, the run is given back
 * after the pickup timeout or kept as interrupted, and a new run closed early stores nothing.
 */
public abstract class Streams extends RecoveryRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Streams(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aDeclineWhoseStreamIsNeverReadKeepsTheDecisionAndFreesTheRunAfterThePickupTimeout() throws Exception {
        List<List<Message>> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        LanguageModel recording = request -> {
            seen.add(request.messages());
            return rules().stream(request);
        };
        Agent agent = agentBuilder(store).model(recording).pickupTimeout(Duration.ofMillis(200)).build();
        AgentResult r = suspend(agent);
        agent.declineToolCall(r.runId(), callId(r), "not today");   // the returned stream is dropped
        assertThatThrownBy(() -> agent.declineToolCall(r.runId(), callId(r), "again"))
                .isInstanceOf(RunNotSuspendedException.class);
        await("the dropped claim is given back", () -> agent.listSuspendedRuns().total() == 1);
        AgentRun run = agent.listSuspendedRuns().runs().get(0);
        assertThat(run.toolCalls()).as("the decline is recorded: nothing waits for a human").isEmpty();
        assertThat(run.interruption()).contains("declined").contains("not read");
        AgentResult done = agent.continueRun(r.runId()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        List<Message> last = seen.get(seen.size() - 1);
        assertThat(last.get(last.size() - 1)).isInstanceOfSatisfying(Message.ToolResult.class,
                tr -> assertThat(tr.result().asText()).isEqualTo("not today"));
        assertThat(bookings).hasValue(0);
    }

    @Test
    void aStreamReadAfterItsPickupTimeoutTakesTheRunBackIfNobodyElseDid() throws Exception {
        Agent agent = agentBuilder(store).pickupTimeout(Duration.ofMillis(100)).build();
        AgentResult r = suspend(agent);
        AgentStream late = agent.approveToolCall(r.runId(), callId(r));
        await("the unread claim is given back", () -> agent.listSuspendedRuns().total() == 1);
        AgentResult done = late.result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(bookings).hasValue(1);
        assertThat(store.find(r.runId())).isEmpty();
    }

    @Test
    void closingAStreamMidAnswerCancelsTheModelCallAndKeepsTheResumedRunAsInterrupted() {
        AtomicBoolean cancelled = new AtomicBoolean();
        LanguageModel chatty = request -> {
            if (request.lastMessage() instanceof Message.User) return rules().stream(request);
            return Stream.iterate(0, i -> i + 1).limit(1000).map(i -> (ModelChunk) new ModelChunk.TextDelta("w" + i + " "))
                    .onClose(() -> cancelled.set(true));
        };
        Agent agent = agentBuilder(store).model(chatty).build();
        AgentResult r = suspend(agent);
        try (AgentStream s = agent.approveToolCall(r.runId(), callId(r))) {
            for (AgentEvent e : s) {
                if (e instanceof AgentEvent.TextDelta) break;
            }
        }
        assertThat(cancelled).as("the model's stream was closed").isTrue();
        AgentRun run = agent.listSuspendedRuns().runs().get(0);
        assertThat(run.interrupted()).isTrue();
        assertThat(run.toolCalls()).isEmpty();
        assertThat(bookings).hasValue(1);
        Agent plain = agentBuilder(store).build();
        assertThat(plain.continueRun(r.runId()).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(bookings).as("the stored result is used").hasValue(1);
    }

    @Test
    void breakingOutOfTheLoopAtTheApprovalEventStillSuspendsTheRun() {
        Agent agent = agentBuilder(store).build();
        String runId;
        try (AgentStream s = agent.stream("Book a flight", RunOptions.DEFAULT)) {
            runId = s.runId();
            for (AgentEvent e : s) {
                if (e instanceof AgentEvent.ToolCallApproval) break;
            }
        }
        AgentRun run = agent.listSuspendedRuns().runs().get(0);
        assertThat(run.runId()).isEqualTo(runId);
        assertThat(run.interrupted()).isFalse();
        assertThat(run.toolCalls()).extracting(c -> c.toolName()).containsExactly("bookFlight");
    }

    @Test
    void closingANewRunBeforeAnyToolRanStoresNothing() {
        Agent agent = agentBuilder(store).model(request -> Stream.of(new ModelChunk.TextDelta("a "),
                new ModelChunk.TextDelta("b"))).build();
        AgentStream s = agent.stream("hello", RunOptions.DEFAULT);
        assertThat(s.iterator().next().type()).isEqualTo("start");
        s.close();
        assertThat(store.find(s.runId())).isEmpty();
        assertThat(s.outcome()).contains(RunOutcome.FAILED);
    }
}
