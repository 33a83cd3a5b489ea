package dev.baton.tck.memory;

import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;
import dev.baton.agent.RunOptions;
import dev.baton.memory.Memory;
import dev.baton.memory.ThreadMessage;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.tck.support.MutableClock;
import dev.baton.tck.support.StoreRules;
import dev.baton.tck.support.StoreUnderTest;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every rule group of {@code MemoryContract} works with: the store of the running test,
 * opened before it and closed after it (the test is skipped if the store has no thread memory);
 * a clock the test moves; agent, thread and user ids of its own; an agent with thread memory, a
 * booking tool and a model that records what it was given.
 */
abstract class MemoryRules extends StoreRules {
    final MutableClock clock = new MutableClock(Instant.parse("2026-05-01T08:00:00Z"));
    final String agentId = uniqueId("tck-memory");
    /** The thread of the running test; the crash tests take a new one for every crash. */
    String thread = uniqueId("thread");
    final String user = uniqueId("user");
    final AtomicInteger bookings = new AtomicInteger();
    final List<List<Message>> modelInputs = new CopyOnWriteArrayList<>();

    MemoryRules(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @BeforeEach
    void needsThreadMemory() {
        assumeTrue(store.capabilities().contains(StoreCapability.THREAD_MEMORY), "the store has no thread memory");
    }

    Tool bookFlight() {
        return Tool.builder("bookFlight").requireApproval(true).execute((input, ctx) -> {
            bookings.incrementAndGet();
            return Map.of("booked", input.path("to").asText());
        }).build();
    }

    LanguageModel model() {
        LanguageModel rules = DeterministicModel.builder()
                .whenUserAsks("what did i book", c -> "You booked: " + DeterministicModel.lastToolResult(c))
                .whenUserSays("flight", "bookFlight", Map.of("to", "SFO")).build();
        return request -> {
            modelInputs.add(request.messages());
            return rules.stream(request);
        };
    }

    AgentBuilder agentBuilder(SnapshotStore s, int lastMessages) {
        return agentBuilder(s, lastMessages, bookFlight());
    }

    AgentBuilder agentBuilder(SnapshotStore s, int lastMessages, Tool tool) {
        return Agent.builder(agentId).model(model()).tools(tool).store(s).clock(clock)
                .memory(Memory.builder().lastMessages(lastMessages).build()).instanceId("tck-" + agentId)
                .pickupTimeout(Duration.ofMinutes(30));
    }

    Agent agent() {
        return agentBuilder(store, 20).build();
    }

    RunOptions inThread() {
        return RunOptions.builder().threadId(thread).resourceId(user).build();
    }

    List<Message> threadMessages(Agent agent) {
        return agent.memory().orElseThrow().listMessages(user, thread, 1000, 0).messages().stream().map(ThreadMessage::message).toList();
    }

    static List<String> roles(List<Message> messages) {
        return messages.stream().map(m -> m instanceof Message.User ? "user" : m instanceof Message.Assistant a
                ? (a.toolCalls().isEmpty() ? "assistant" : "assistant-calls") : "tool").toList();
    }
}
