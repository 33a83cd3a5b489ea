package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.RunNotSuspendedException;
import dev.baton.model.DeterministicModel;
import dev.baton.testing.TestStore;
import dev.baton.tool.Tool;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * What a person approves is what runs (issue 29): no event, listing, listener argument or tool
 * input shares a mutable JSON value with the stored run. Every JSON value anyone receives is
 * mutated here, and the listing, the stored run and the tool's input stay what the model proposed.
 */
class JsonIsCopiedInAndOutTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNode PROPOSED = JSON.createObjectNode().put("to", "SFO");

    private final TestStore store = new TestStore();
    private final List<String> toolInputs = new CopyOnWriteArrayList<>();
    private final ObjectNode heldPayload = JSON.createObjectNode().put("question", "Which city?");
    private final ObjectNode heldResult = JSON.createObjectNode().put("booked", true);
    private final List<String> resumeDataSeen = new CopyOnWriteArrayList<>();

    private Tool bookFlight() {
        return Tool.builder("bookFlight").requireApproval(input -> {
            ((ObjectNode) input).put("to", "PREDICATE-MUTATED");   // the predicate gets a copy too
            return true;
        }).execute((input, ctx) -> {
            toolInputs.add(input.toString());
            ((ObjectNode) input).put("to", "TOOL-MUTATED");
            return heldResult;   // the tool keeps its node and changes it later
        }).build();
    }

    private Tool askCity() {
        return Tool.builder("askCity").execute((input, ctx) -> {
            if (ctx.resumeData() == null) return ctx.suspend(heldPayload);
            ((ObjectNode) ctx.resumeData()).put("name", "MUTATED");
            resumeDataSeen.add(ctx.resumeData().toString());
            return Map.of("city", ctx.resumeData().path("name").asText());
        }).build();
    }

    private Agent agent(RunListener... listeners) {
        DeterministicModel model = DeterministicModel.builder()
                .whenUserSays("flight", "bookFlight", Map.of("to", "SFO"))
                .whenUserSays("city", "askCity", Map.of("q", "where"))
                .build();
        return Agent.builder("travel").model(model).tools(bookFlight(), askCity()).store(store).listeners(listeners).build();
    }

    /** Mutates every JSON value the record carries, through two separate reads, and checks the reads are copies. */
    static int mutateEveryJsonValue(Object record) {
        int mutated = 0;
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            if (!JsonNode.class.isAssignableFrom(c.getType())) continue;
            JsonNode first = read(c, record);
            JsonNode second = read(c, record);
            if (first == null) continue;
            assertThat(first).isEqualTo(second);
            if (first.isContainerNode()) assertThat(first).isNotSameAs(second);   // value nodes are immutable
            if (first instanceof ObjectNode o) {
                o.put("to", "MUTATED");
                o.putArray("extra").add(1);
                ((ObjectNode) second).removeAll();
            } else if (first instanceof ArrayNode a) {
                a.add("MUTATED");
                ((ArrayNode) second).removeAll();
            }
            if (first.isContainerNode()) assertThat(read(c, record)).as("a third read after mutating two").isNotEqualTo(first);
            mutated++;
        }
        return mutated;
    }

    private static JsonNode read(RecordComponent c, Object record) {
        try {
            return (JsonNode) c.getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private AgentRunToolCall listedCall(Agent agent) {
        AgentRun run = agent.listSuspendedRuns().runs().get(0);
        for (AgentRunToolCall c : run.toolCalls()) mutateEveryJsonValue(c);   // a reader of the listing changes it too
        return agent.listSuspendedRuns().runs().get(0).toolCalls().get(0);
    }

    @Test
    void theIssueProbeChangingToolCallArgsWhileStreamingChangesNeitherTheListingNorWhatRuns() {
        Agent agent = agent();
        String runId;
        try (AgentStream stream = agent.stream("Book me a flight")) {
            runId = stream.runId();
            for (AgentEvent e : stream) {
                if (e instanceof AgentEvent.ToolCall call) ((ObjectNode) call.args()).put("to", "MUTATED");
            }
        }
        AgentRunToolCall listed = listedCall(agent);
        assertThat(listed.args()).isEqualTo(PROPOSED);
        assertThat(agent.approveToolCall(runId, listed.toolCallId()).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(toolInputs).containsExactly("{\"to\":\"SFO\"}");
    }

    @Test
    void everyEventTypeWithJsonIsMutatedByTheConsumerAndNothingElseChanges() {
        Agent agent = agent();
        Set<String> mutatedTypes = ConcurrentHashMap.newKeySet();
        AgentStream flight = agent.stream("Book me a flight");
        AgentResult suspended = flight.forEachEvent(e -> {
            if (mutateEveryJsonValue(e) > 0) mutatedTypes.add(e.type());
        });
        for (AgentEvent e : suspended.events()) mutateEveryJsonValue(e);
        for (AgentRunToolCall c : suspended.waitingCalls()) mutateEveryJsonValue(c);
        AgentRunToolCall listed = listedCall(agent);
        assertThat(listed.args()).isEqualTo(PROPOSED);
        assertThat(suspended.events()).filteredOn(e -> e instanceof AgentEvent.ToolCallApproval)
                .singleElement().satisfies(e -> assertThat(((AgentEvent.ToolCallApproval) e).args()).isEqualTo(PROPOSED));

        AgentResult approved = agent.approveToolCall(flight.runId(), listed.toolCallId()).forEachEvent(e -> {
            if (mutateEveryJsonValue(e) > 0) mutatedTypes.add(e.type());
        });
        assertThat(toolInputs).containsExactly("{\"to\":\"SFO\"}");
        heldResult.put("booked", "CHANGED BY THE TOOL AFTERWARDS");
        assertThat(approved.events()).filteredOn(e -> e instanceof AgentEvent.ToolResult).singleElement()
                .satisfies(e -> assertThat(((AgentEvent.ToolResult) e).result().toString()).isEqualTo("{\"booked\":true}"));
        assertThat(approved.text()).contains("bookFlight: {\"booked\":true}");

        AgentStream city = agent.stream("Which city?");
        city.forEachEvent(e -> {
            if (mutateEveryJsonValue(e) > 0) mutatedTypes.add(e.type());
        });
        heldPayload.put("question", "CHANGED BY THE TOOL AFTERWARDS");
        AgentRunToolCall waiting = listedCall(agent);
        assertThat(waiting.suspendPayload()).isEqualTo(JSON.createObjectNode().put("question", "Which city?"));
        JsonNode data = JSON.createObjectNode().put("name", "Paris");
        AgentResult resumed = agent.resumeStream(data, city.runId()).forEachEvent(e -> {
            if (mutateEveryJsonValue(e) > 0) mutatedTypes.add(e.type());
        });
        assertThat(resumeDataSeen).containsExactly("{\"name\":\"Paris\"}");   // its own change is not seen on the next read
        assertThat(data).isEqualTo(JSON.createObjectNode().put("name", "Paris"));
        assertThat(resumed.text()).contains("Paris");
        assertThat(mutatedTypes).containsExactlyInAnyOrder("tool-call", "tool-call-approval", "tool-call-suspended", "tool-result");
    }

    @Test
    void everyListenerMethodIsCalledWithValuesThatShareNothingWithTheStoredRun() {
        Set<String> called = ConcurrentHashMap.newKeySet();
        RunListener mutating = new RunListener() {
            @Override public void runStarted(RunContext run) { called.add("runStarted"); run.attributes().put("k", "v"); }
            @Override public void event(RunEvent event) { called.add("event"); mutateEveryJsonValue(event.event()); }
            @Override public void runEnded(RunEnd end) { called.add("runEnded"); }
            @Override public void claimed(Claim claim) { called.add("claimed"); }
            @Override public void claimConflict(Claim claim) { called.add("claimConflict"); }
            @Override public void leaseLost(LeaseLoss loss) { called.add("leaseLost"); }
            @Override public void toolStarted(ToolStart tool) { called.add("toolStarted"); }
            @Override public void toolFinished(ToolExecution tool) { called.add("toolFinished"); }
            @Override public void modelCallStarted(ModelCallStart call) { called.add("modelCallStarted"); }
            @Override public void modelCallFinished(ModelCall call) { called.add("modelCallFinished"); }
        };
        Agent agent = agent(mutating);
        AgentResult first = agent.generate("Book me a flight");
        AgentRunToolCall listed = listedCall(agent);
        assertThat(listed.args()).isEqualTo(PROPOSED);
        AgentStream approving = agent.approveToolCall(first.runId(), listed.toolCallId());
        assertThatThrownBy(() -> agent.approveToolCall(first.runId(), listed.toolCallId()))
                .isInstanceOf(RunNotSuspendedException.class);
        assertThat(approving.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(toolInputs).containsExactly("{\"to\":\"SFO\"}");

        // a lease lost: another process takes the run over while its tool runs
        Agent thief = Agent.builder("travel").model(DeterministicModel.builder().whenUserSays("flight", "bookFlight",
                Map.of("to", "SFO")).build()).store(store).listeners(mutating).tools(Tool.builder("bookFlight")
                .requireApproval(true).execute((input, ctx) -> {
                    var row = store.find(ctx.runId()).orElseThrow();
                    store.overwrite(row.toBuilder().version(row.version() + 7).lease("other", row.leaseExpiresAt()).build());
                    return "booked";
                }).build()).build();
        AgentResult second = thief.generate("Book me a flight");
        assertThat(thief.approveToolCall(second.runId(), second.waitingCalls().get(0).toolCallId()).result().outcome())
                .isEqualTo(RunOutcome.FAILED);
        assertThat(called).containsExactlyInAnyOrder("runStarted", "event", "runEnded", "claimed", "claimConflict",
                "leaseLost", "toolStarted", "toolFinished", "modelCallStarted", "modelCallFinished");
    }
}
