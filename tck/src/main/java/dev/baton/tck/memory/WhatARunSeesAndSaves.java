package dev.baton.tck.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.memory.Memory;
import dev.baton.memory.ThreadMessage;
import dev.baton.model.DeterministicModel;
import dev.baton.model.Message;
import dev.baton.tck.support.StoreUnderTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a run sees of its thread and what it saves there, and when: a follow-up sees the earlier
 * turn, the model gets the last {@code n} messages and then the run's own; the user's message is saved
 * at the start and each step only once its tool calls have their results; a decline is saved as the
 * call's result; a cancelled run leaves only what was complete; a subagent's inner run neither reads
 * nor writes memory.
 */
public abstract class WhatARunSeesAndSaves extends MemoryRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected WhatARunSeesAndSaves(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aFollowUpInTheSameThreadSeesTheEarlierTurnAndOnlyMemoryCanAnswerIt() {
        Agent agent = agent();
        AgentResult first = agent.generate("Book me a flight", inThread());
        agent.approveToolCall(first.runId(), first.waitingCalls().get(0).toolCallId()).result();
        AgentResult followUp = agent.generate("What did I book?", inThread());
        assertThat(followUp.text()).contains("You booked: bookFlight").contains("SFO");
        AgentResult elsewhere = agent.generate("What did I book?", RunOptions.builder().threadId(thread + "-other")
                .resourceId(user).build());
        assertThat(elsewhere.text()).isEqualTo("You booked: null");
    }

    @Test
    void theModelSeesTheLastNMessagesOfTheThreadThenTheRunsOwn() {
        Agent agent = agentBuilder(store, 2).build();
        agent.generate("hello one", inThread());
        agent.generate("hello two", inThread());
        modelInputs.clear();
        agent.generate("hello three", inThread());
        List<Message> seen = modelInputs.get(0);
        assertThat(seen).hasSize(3);
        assertThat(seen.get(0)).isEqualTo(new Message.User("hello two"));
        assertThat(seen.get(2)).isEqualTo(new Message.User("hello three"));
    }

    @Test
    void theUsersMessageIsSavedOnceTheRunIsStoredAndEachStepOnlyWhenItsToolCallsHaveTheirResults() {
        Agent agent = agent();
        AgentResult r = agent.generate("Book me a flight", inThread());
        assertThat(r.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(roles(threadMessages(agent))).as("while suspended: no tool call without its result")
                .containsExactly("user");
        agent.approveToolCall(r.runId(), r.waitingCalls().get(0).toolCallId()).result();
        assertThat(roles(threadMessages(agent))).containsExactly("user", "assistant-calls", "tool", "assistant");
    }

    @Test
    void aSecondRunWhileTheFirstIsSuspendedSeesItsQuestionButNotItsPendingCall() {
        Agent agent = agent();
        agent.generate("Book me a flight", inThread());
        modelInputs.clear();
        agent.generate("hello", inThread());
        assertThat(modelInputs.get(0)).containsExactly(new Message.User("Book me a flight"), new Message.User("hello"));
    }

    @Test
    void aDeclineIsSavedAsTheCallsResult() {
        Agent agent = agent();
        AgentResult r = agent.generate("Book me a flight", inThread());
        agent.declineToolCall(r.runId(), r.waitingCalls().get(0).toolCallId(), "too expensive").result();
        List<Message> saved = threadMessages(agent);
        assertThat(roles(saved)).containsExactly("user", "assistant-calls", "tool", "assistant");
        assertThat(((Message.ToolResult) saved.get(2)).result().asText()).isEqualTo("too expensive");
        assertThat(bookings).hasValue(0);
    }

    @Test
    void aCancelledRunLeavesOnlyWhatWasComplete() {
        Agent agent = agent();
        AgentResult r = agent.generate("Book me a flight", inThread());
        agent.cancelRun(r.runId(), "no");
        assertThat(roles(threadMessages(agent))).containsExactly("user");
    }

    @Test
    void aSubagentsInnerRunNeitherReadsNorWritesMemory() {
        Agent booker = Agent.builder(agentId + "-booker").model(model()).tools(bookFlight()).store(store).clock(clock)
                .memory(Memory.builder().build()).build();
        Agent supervisor = Agent.builder(agentId + "-supervisor").store(store).clock(clock)
                .model(DeterministicModel.builder().whenUserSays("flight", "agent-" + booker.id(),
                        text -> Map.of("prompt", text)).build())
                .subagents(booker).memory(Memory.builder().build()).build();
        AgentResult outer = supervisor.generate("Book me a flight", inThread());
        supervisor.approveToolCall(outer.runId(), outer.waitingCalls().get(0).toolCallId()).result();
        List<Message> saved = supervisor.memory().orElseThrow().listMessages(user, thread, 100, 0).messages().stream()
                .map(ThreadMessage::message).toList();
        assertThat(roles(saved)).containsExactly("user", "assistant-calls", "tool", "assistant");
        assertThat(((Message.ToolResult) saved.get(2)).toolName()).isEqualTo("agent-" + booker.id());
    }
}
