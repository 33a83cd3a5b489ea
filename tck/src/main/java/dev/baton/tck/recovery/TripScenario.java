package dev.baton.tck.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.ResumeOptions;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.model.ModelChunk;
import dev.baton.model.ToolCall;
import dev.baton.store.RunQuery;
import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.FaultyStore;
import dev.baton.tck.support.Json;
import dev.baton.tck.support.SimulatedCrash;
import dev.baton.tool.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The run the crash tests replay: three steps of a travel agent and a subagent, touching every
 * kind of call.
 * <ol>
 *   <li>{@code bookFlight} needs an approval;</li>
 *   <li>{@code getWeather} runs without one, and {@code askCity} in the same step calls
 *       {@code suspend()} and waits for data;</li>
 *   <li>the subagent {@code agent-<id>-booker} runs {@code bookHotel}, which needs an approval;</li>
 * </ol>
 * then the model answers. Each tool's side effect is counted; {@code askCity}'s effect is its run
 * with the resume data.
 */
final class TripScenario {
    static final String PROMPT = "Plan my trip";
    static final List<String> EFFECTS = List.of("bookFlight", "getWeather", "askCity", "bookHotel");
    private static final ObjectMapper JSON = new ObjectMapper();

    final String mainId;
    final String bookerId;
    final Map<String, AtomicInteger> effects = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Duration lease;

    TripScenario(String mainId, Clock clock, Duration lease) {
        this.mainId = mainId;
        this.bookerId = mainId + "-booker";
        this.clock = clock;
        this.lease = lease;
        for (String e : EFFECTS) effects.put(e, new AtomicInteger());
    }

    int effects(String tool) {
        return effects.get(tool).get();
    }

    private Tool effect(String name, boolean approval) {
        return Tool.builder(name).requireApproval(approval).execute((input, ctx) -> {
            effects.get(name).incrementAndGet();
            return Map.of(name, "done", "attempt", ctx.attempt());
        }).build();
    }

    private Tool askCity() {
        return Tool.builder("askCity").execute((input, ctx) -> {
            if (ctx.resumeData() == null) return ctx.suspend(Map.of("question", "Which city?"));
            effects.get("askCity").incrementAndGet();
            return Map.of("city", ctx.resumeData().path("name").asText());
        }).build();
    }

    static ModelChunk call(String id, String tool, Object... args) {
        return new ModelChunk.ToolCallRequest(new ToolCall(id, tool, Json.object(args)));
    }

    /** The supervisor agent (with its subagent) on {@code store}, claiming runs as {@code instance}. */
    Agent agent(SnapshotStore store, String instance) {
        Agent booker = Agent.builder(bookerId).instructions("You book hotels.")
                .model(DeterministicModel.builder().whenUserSays("hotel", "bookHotel", Map.of("city", "Rome")).build())
                .tools(effect("bookHotel", true)).store(store).clock(clock).leaseDuration(lease)
                .pickupTimeout(Duration.ofMinutes(30)).instanceId(instance).build();
        String sub = "agent-" + bookerId;
        LanguageModel model = DeterministicModel.scripted(request -> switch (request.completedSteps()) {
            case 0 -> List.of(call("c1", "bookFlight", "to", "SFO"));
            case 1 -> List.of(call("c2", "getWeather", "city", "Rome"), call("c3", "askCity"));
            case 2 -> List.of(call("c4", sub, "prompt", "Book a hotel in Rome"));
            default -> List.of(new ModelChunk.TextDelta("all done"));
        });
        return Agent.builder(mainId).instructions("You plan trips.").model(model)
                .tools(effect("bookFlight", true), effect("getWeather", false), askCity()).subagents(booker)
                .store(store).clock(clock).leaseDuration(lease).pickupTimeout(Duration.ofMinutes(30))
                .instanceId(instance).build();
    }

    /** The happy path, as a user drives it; throws {@link SimulatedCrash} if the store dies. */
    String drive(Agent agent) {
        AgentResult r = agent.generate(PROMPT, RunOptions.builder().threadId("trip").resourceId("traveller").build());
        String runId = r.runId();
        expect(r, RunOutcome.SUSPENDED);
        expect(agent.approveToolCall(runId, "c1").result(), RunOutcome.SUSPENDED);
        expect(agent.resumeStream(Map.of("name", "Rome"), ResumeOptions.of(runId, "c3")).result(), RunOutcome.SUSPENDED);
        expect(agent.approveToolCall(runId, "c4").result(), RunOutcome.COMPLETED);
        return runId;
    }

    private static void expect(AgentResult r, RunOutcome o) {
        assertThat(r.outcome()).as("%s (error: %s)", r.eventTypes(), r.error()).isEqualTo(o);
    }

    /**
     * Drives whatever is stored of the supervisor's runs to the end through the public API only:
     * decides waiting calls (approve, or the city as data) and continues interrupted runs.
     */
    AgentResult recover(Agent agent) {
        AgentResult last = null;
        for (int round = 0; round < 12; round++) {
            List<AgentRun> runs = agent.listSuspendedRuns().runs();
            if (runs.isEmpty()) return last;
            AgentRun run = runs.get(0);
            if (run.toolCalls().isEmpty()) {
                assertThat(run.interrupted()).as("a run that waits for nobody says why").isTrue();
                last = agent.continueRun(run.runId()).result();
            } else {
                AgentRunToolCall c = run.toolCalls().get(0);
                last = c.requiresApproval() ? agent.approveToolCall(run.runId(), c.toolCallId()).result()
                        : agent.resumeStream(Map.of("name", "Rome"), ResumeOptions.of(run.runId(), c.toolCallId())).result();
            }
            assertThat(last.outcome()).as("recovery round %d: %s (error: %s)", round, last.eventTypes(), last.error())
                    .isIn(RunOutcome.SUSPENDED, RunOutcome.COMPLETED);
        }
        throw new AssertionError("the run did not end after 12 rounds of recovery");
    }

    /** The tools whose result some write before the crash stored: they must never run again. */
    static Set<String> storedResults(List<FaultyStore.Write> writes) {
        Set<String> stored = new TreeSet<>();
        for (FaultyStore.Write w : writes) {
            if (w.payload().isEmpty()) continue;
            try {
                JsonNode state = JSON.readTree(w.payload());
                for (JsonNode c : state.path("calls")) {
                    if ("DONE".equals(c.path("status").asText()) && !c.path("isError").asBoolean()) {
                        stored.add(c.path("toolName").asText());
                    }
                }
                for (JsonNode m : state.path("messages")) {
                    if ("tool".equals(m.path("role").asText())) stored.add(m.path("toolName").asText());
                }
            } catch (java.io.IOException e) {
                throw new AssertionError("unreadable payload in write " + w.number(), e);
            }
        }
        stored.retainAll(EFFECTS);
        return stored;
    }

    /** Stored runs (any status) of the supervisor and of the subagent. */
    long storedRuns(SnapshotStore store) {
        Instant far = Instant.parse("2100-01-01T00:00:00Z");
        return store.list(RunQuery.forAgent(mainId, far).status(null).countOnly().build()).total()
                + store.list(RunQuery.forAgent(bookerId, far).status(null).countOnly().build()).total();
    }
}
