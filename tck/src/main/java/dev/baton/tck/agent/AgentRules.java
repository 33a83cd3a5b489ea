package dev.baton.tck.agent;

import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.Json;
import dev.baton.tck.support.MutableClock;
import dev.baton.tck.support.StoreRules;
import dev.baton.tck.support.StoreUnderTest;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every rule group of {@code AgentContract} works with: the store of the running test, opened
 * before it and closed after it; a clock the test moves; an agent id of its own (so tests never
 * see each other's runs); a travel agent's tools and model, with counters of what they did.
 */
abstract class AgentRules extends StoreRules {
    final MutableClock clock = new MutableClock(Instant.parse("2026-05-01T08:00:00Z"));
    /** The id of this test's main agent; unique, so tests never see each other's runs. */
    final String agentId = uniqueId("tck-agent");
    final AtomicInteger bookings = new AtomicInteger();
    final AtomicInteger weatherCalls = new AtomicInteger();
    final List<JsonNode> resumeDataSeen = Collections.synchronizedList(new ArrayList<>());
    final List<List<Message>> modelInputs = Collections.synchronizedList(new ArrayList<>());

    AgentRules(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    Tool bookFlight() {
        return Tool.builder("bookFlight").description("Books a flight").requireApproval(true)
                .execute((input, ctx) -> {
                    bookings.incrementAndGet();
                    return Map.of("booked", input.path("to").asText());
                }).build();
    }

    Tool getWeather() {
        return Tool.builder("getWeather").description("Weather")
                .execute((input, ctx) -> {
                    weatherCalls.incrementAndGet();
                    return Map.of("tempC", 21);
                }).build();
    }

    Tool askCity() {
        return Tool.builder("askCity").description("Asks the user for a city")
                .execute((input, ctx) -> {
                    if (ctx.resumeData() == null) return ctx.suspend(Map.of("question", "Which city?"));
                    resumeDataSeen.add(ctx.resumeData());
                    if (ctx.resumeData().path("name").asText().isEmpty()) {
                        return ctx.suspend(Map.of("question", "Which city, again?"));
                    }
                    return Map.of("city", ctx.resumeData().path("name").asText());
                }).build();
    }

    Tool pay() {
        return Tool.builder("pay").description("Pays; needs approval above 100")
                .requireApproval(input -> input.path("amount").asInt() > 100)
                .execute((input, ctx) -> Map.of("paid", input.path("amount").asInt())).build();
    }

    Tool audit() {
        return Tool.builder("audit").description("Approval predicate that throws")
                .requireApproval(input -> {
                    throw new IllegalStateException("policy service down");
                })
                .execute((input, ctx) -> "audited").build();
    }

    Tool flaky() {
        return Tool.builder("flaky").description("Always fails").requireApproval(true)
                .execute((input, ctx) -> {
                    throw new IllegalStateException("flaky is down");
                }).build();
    }

    DeterministicModel.Builder rules() {
        return DeterministicModel.builder()
                .whenUserSays("flight", "bookFlight", Map.of("to", "SFO"))
                .whenUserSays("weather", "getWeather", Map.of("city", "Paris"))
                .whenUserSays("city", "askCity", Map.of())
                .whenUserSays("pay", "pay", text -> Map.of("amount", text.contains("big") ? 500 : 5))
                .whenUserSays("audit", "audit", Map.of())
                .whenUserSays("flaky", "flaky", Map.of());
    }

    /** Records what the model was given, then answers with the rules. */
    LanguageModel recording(LanguageModel model) {
        return request -> {
            modelInputs.add(request.messages());
            return model.stream(request);
        };
    }

    AgentBuilder agentBuilder(String id) {
        return Agent.builder(id).instructions("You help with travel.").model(recording(rules().build()))
                .tools(bookFlight(), getWeather(), askCity(), pay(), audit(), flaky())
                .store(store).clock(clock).instanceId("tck-" + id);
    }

    Agent agent() {
        return agentBuilder(agentId).build();
    }

    static RunOptions on(String thread, String resource) {
        return RunOptions.builder().threadId(thread).resourceId(resource).build();
    }

    /** Starts a run that suspends for approval of bookFlight, one second after the previous. */
    AgentResult suspendForApproval(Agent agent, String thread, String resource) {
        clock.advance(Duration.ofSeconds(1));
        AgentResult r = agent.generate("Book me a flight to SF", on(thread, resource));
        assertThat(r.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        return r;
    }

    String onlyCallId(AgentResult suspended) {
        assertThat(suspended.waitingCalls()).hasSize(1);
        return suspended.waitingCalls().get(0).toolCallId();
    }

    RunSnapshot stored(String runId) {
        return store.find(runId).orElseThrow(() -> new AssertionError("run " + runId + " is not stored"));
    }

    static List<String> runIds(AgentListSuspendedRunsResult r) {
        return r.runs().stream().map(AgentRun::runId).toList();
    }

    static AgentListSuspendedRunsOptions.Builder options() {
        return AgentListSuspendedRunsOptions.builder();
    }

    /** A tool call chunk for scripted models. */
    static ModelChunk call(String id, String tool, Object... args) {
        return new ModelChunk.ToolCallRequest(new dev.baton.model.ToolCall(id, tool, Json.object(args)));
    }

    /** A model that makes these calls on the user's message, then answers "all done". */
    static LanguageModel scriptedCalls(ModelChunk... calls) {
        return DeterministicModel.scripted(request -> request.lastMessage() instanceof Message.User
                ? List.of(calls) : List.of(new ModelChunk.TextDelta("all done")));
    }

    Message.ToolResult lastToolResult() {
        for (int i = modelInputs.size() - 1; i >= 0; i--) {
            List<Message> msgs = modelInputs.get(i);
            for (int j = msgs.size() - 1; j >= 0; j--) {
                if (msgs.get(j) instanceof Message.ToolResult tr) return tr;
            }
        }
        throw new AssertionError("the model never saw a tool result");
    }
}
