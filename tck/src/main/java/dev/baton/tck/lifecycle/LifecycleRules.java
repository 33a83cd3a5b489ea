package dev.baton.tck.lifecycle;

import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
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

/**
 * What every rule group of {@code LifecycleContract} works with: the store of the running test,
 * opened before it and closed after it; a clock the test moves; an agent id of its own; a booking
 * tool and a model that records what it was given.
 */
abstract class LifecycleRules extends StoreRules {
    final MutableClock clock = new MutableClock(Instant.parse("2026-05-01T08:00:00Z"));
    final String agentId = uniqueId("tck-lifecycle");
    final AtomicInteger bookings = new AtomicInteger();
    final List<List<Message>> modelInputs = new CopyOnWriteArrayList<>();

    LifecycleRules(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    Tool bookFlight() {
        return Tool.builder("bookFlight").requireApproval(true).execute((input, ctx) -> {
            bookings.incrementAndGet();
            return Map.of("booked", "SFO");
        }).build();
    }

    Tool askCity(Duration waitTimeout) {
        return Tool.builder("askCity").waitTimeout(waitTimeout).execute((input, ctx) ->
                ctx.resumeData() == null ? ctx.suspend(Map.of("question", "Which city?")) : Map.of("city", "Rome")).build();
    }

    LanguageModel model() {
        LanguageModel rules = DeterministicModel.builder().whenUserSays("flight", "bookFlight", Map.of("to", "SFO"))
                .whenUserSays("city", "askCity", Map.of()).build();
        return request -> {
            modelInputs.add(request.messages());
            return rules.stream(request);
        };
    }

    AgentBuilder agentBuilder(String id) {
        return Agent.builder(id).model(model()).tools(bookFlight(), askCity(Duration.ofMinutes(5))).store(store).clock(clock)
                .instanceId("tck-" + id);
    }

    Agent agent() {
        return agentBuilder(agentId).build();
    }

    AgentResult suspend(Agent agent, String prompt, RunOptions options) {
        clock.advance(Duration.ofSeconds(1));
        AgentResult r = agent.generate(prompt, options);
        assertThat(r.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        return r;
    }

    AgentResult suspend(Agent agent) {
        return suspend(agent, "Book a flight", RunOptions.builder().threadId("t").resourceId("u").build());
    }

    static String callId(AgentResult r) {
        return r.waitingCalls().get(0).toolCallId();
    }
}
