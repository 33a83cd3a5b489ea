package dev.baton.tck.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.ResumeMismatchException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.StoreUnderTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A supervisor's run and its subagent's inner run: each agent lists only its own, the outer call shows
 * the inner tool, the supervisor's decision reaches the inner run, and the inner run cannot be resumed
 * behind the supervisor's back.
 */
public abstract class Subagents extends AgentRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Subagents(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private Agent booker() {
        return agentBuilder(agentId + "-booker").build();
    }

    private Agent supervisor(Agent sub) {
        return Agent.builder(agentId + "-supervisor").instructions("You delegate.")
                .model(DeterministicModel.builder()
                        .whenUserSays("flight", "agent-" + sub.id(), text -> Map.of("prompt", text)).build())
                .subagents(sub).store(store).clock(clock).build();
    }

    @Test
    void eachAgentListsOnlyItsOwnRunAndTheOuterCallShowsTheInnerTool() {
        Agent booker = booker();
        Agent supervisor = supervisor(booker);
        AgentResult outer = supervisor.generate("Book a flight", on("t", "u"));
        assertThat(outer.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        AgentListSuspendedRunsResult outerList = supervisor.listSuspendedRuns();
        AgentListSuspendedRunsResult innerList = booker.listSuspendedRuns();
        assertThat(runIds(outerList)).containsExactly(outer.runId());
        assertThat(innerList.runs()).hasSize(1);
        assertThat(innerList.runs().get(0).runId()).isNotEqualTo(outer.runId());
        AgentRunToolCall outerCall = outerList.runs().get(0).toolCalls().get(0);
        AgentRunToolCall innerCall = innerList.runs().get(0).toolCalls().get(0);
        assertThat(outerCall.toolName()).isEqualTo("bookFlight");
        assertThat(outerCall.args()).isEqualTo(innerCall.args());
        assertThat(outerCall.requiresApproval()).isTrue();
        assertThat(outerCall.toolCallId()).isEqualTo(onlyCallId(outer));
    }

    @Test
    void approvingTheOuterCallRunsTheInnerToolOnceAndEndsBothRuns() {
        Agent booker = booker();
        Agent supervisor = supervisor(booker);
        AgentResult outer = supervisor.generate("Book a flight", on("t", "u"));
        AgentResult done = supervisor.approveToolCall(outer.runId(), onlyCallId(outer)).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(bookings).hasValue(1);
        assertThat(done.text()).contains("SFO");
        assertThat(supervisor.listSuspendedRuns().total()).isZero();
        assertThat(booker.listSuspendedRuns().total()).isZero();
    }

    @Test
    void decliningTheOuterCallDeclinesTheInnerOne() {
        Agent booker = booker();
        Agent supervisor = supervisor(booker);
        AgentResult outer = supervisor.generate("Book a flight", on("t", "u"));
        AgentResult done = supervisor.declineToolCall(outer.runId(), onlyCallId(outer), "no budget").result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(done.text()).contains("no budget");
        assertThat(bookings).hasValue(0);
        assertThat(booker.listSuspendedRuns().total()).isZero();
    }

    @Test
    void theInnerRunCannotBeResumedBehindTheSupervisorsBack() {
        Agent booker = booker();
        Agent supervisor = supervisor(booker);
        AgentResult outer = supervisor.generate("Book a flight", on("t", "u"));
        AgentRun inner = booker.listSuspendedRuns().runs().get(0);
        RunSnapshot before = stored(inner.runId());
        assertThatThrownBy(() -> booker.approveToolCall(inner.runId(), inner.toolCalls().get(0).toolCallId()))
                .isInstanceOf(ResumeMismatchException.class).hasMessageContaining(outer.runId());
        assertThat(stored(inner.runId())).isEqualTo(before);
        assertThat(bookings).hasValue(0);
        assertThat(supervisor.approveToolCall(outer.runId(), onlyCallId(outer)).result().outcome())
                .isEqualTo(RunOutcome.COMPLETED);
        assertThat(bookings).hasValue(1);
    }

    @Test
    void threeLevelsEachListOnlyTheirOwnRun() {
        Agent booker = booker();
        Agent middle = Agent.builder(agentId + "-middle")
                .model(DeterministicModel.builder().whenUserSays("flight", "agent-" + booker.id(),
                        text -> Map.of("prompt", text)).build())
                .subagents(booker).store(store).clock(clock).build();
        Agent top = supervisor(middle);
        AgentResult r = top.generate("Book a flight", on("t", "u"));
        assertThat(r.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(top.listSuspendedRuns().runs()).singleElement().extracting(AgentRun::runId).isEqualTo(r.runId());
        assertThat(middle.listSuspendedRuns().total()).isEqualTo(1);
        assertThat(booker.listSuspendedRuns().total()).isEqualTo(1);
        assertThat(top.listSuspendedRuns().runs().get(0).toolCalls().get(0).toolName()).isEqualTo("bookFlight");
        assertThat(top.approveToolCall(r.runId(), onlyCallId(r)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(bookings).hasValue(1);
        assertThat(middle.listSuspendedRuns().total() + booker.listSuspendedRuns().total()).isZero();
    }
}
