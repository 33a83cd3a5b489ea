package dev.baton.tck.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunListener;
import dev.baton.agent.RunOutcome;
import dev.baton.tck.support.StoreUnderTest;
import dev.baton.tool.Tool;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * What a person approves is what runs: no event, listener argument or listing shares a mutable
 * JSON value with the stored run. Every JSON value the stream's reader, a listener and a reader of
 * the listing receive is changed ({@code put}, {@code removeAll}, an array {@code add}); read back
 * from the store (closed and reopened), the run still waits on exactly what the model proposed,
 * and the approved tool runs with exactly that input. A suspend payload and resume data changed
 * after they were handed over change nothing stored either.
 */
public abstract class JsonCopies extends AgentRules {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNode PROPOSED = JSON.createObjectNode().put("to", "SFO");

    private final List<String> flightInputs = new CopyOnWriteArrayList<>();
    private final List<String> cityResumeData = new CopyOnWriteArrayList<>();
    private final Set<String> mutatedEventTypes = ConcurrentHashMap.newKeySet();

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected JsonCopies(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    /** Books a flight after approval, recording the input it ran with. */
    private Tool recordingBookFlight() {
        return Tool.builder("bookFlight").description("Books a flight").requireApproval(true)
                .execute((input, ctx) -> {
                    flightInputs.add(input.toString());
                    return Map.of("booked", input.path("to").asText());
                }).build();
    }

    /** Asks for a city with a payload it keeps and changes after handing it over. */
    private Tool askCityThenChangeTheQuestion() {
        return Tool.builder("askCity").description("Asks the user for a city")
                .execute((input, ctx) -> {
                    if (ctx.resumeData() == null) {
                        ObjectNode question = JSON.createObjectNode().put("question", "Which city?");
                        Object suspension = ctx.suspend(question);
                        question.put("question", "CHANGED AFTER SUSPENDING").putArray("extra").add(1);
                        return suspension;
                    }
                    cityResumeData.add(ctx.resumeData().toString());
                    return Map.of("city", ctx.resumeData().path("name").asText());
                }).build();
    }

    /** A listener that changes every JSON value of every event it is given. */
    private RunListener mutatingListener() {
        return new RunListener() {
            @Override
            public void event(RunListener.RunEvent e) {
                if (mutateEveryJsonValue(e.event()) > 0) mutatedEventTypes.add("listener:" + e.event().type());
            }
        };
    }

    private Agent travelAgent() {
        return Agent.builder(agentId).model(rules().build()).tools(recordingBookFlight(), askCityThenChangeTheQuestion())
                .listeners(mutatingListener()).store(store).clock(clock).instanceId("tck-json-" + agentId).build();
    }

    /** Closes the store and opens it again, so that what is listed next is read back from the database. */
    private void reopenTheStore() throws Exception {
        store.close();
        store = null;
        store = openStore();
    }

    /** The single run of this agent, its calls changed by this reader, then listed again. */
    private AgentRunToolCall listedCallAfterChangingTheListing(Agent agent) {
        List<AgentRun> runs = agent.listSuspendedRuns().runs();
        assertThat(runs).hasSize(1);
        for (AgentRunToolCall c : runs.get(0).toolCalls()) mutateEveryJsonValue(c);
        return agent.listSuspendedRuns().runs().get(0).toolCalls().get(0);
    }

    /**
     * Changes every {@code JsonNode} component of a record, through two reads, and checks that the
     * reads were copies.
     *
     * @return how many JSON components it changed
     */
    private static int mutateEveryJsonValue(Object record) {
        int mutated = 0;
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            if (!JsonNode.class.isAssignableFrom(c.getType())) continue;
            JsonNode first = read(c, record);
            JsonNode second = read(c, record);
            if (first == null) continue;
            assertThat(first).as("two reads of %s", c.getName()).isEqualTo(second);
            if (first instanceof ObjectNode o) {
                assertThat(first).as("two reads of %s are copies", c.getName()).isNotSameAs(second);
                o.put("to", "MUTATED");
                o.putArray("extra").add(1);
                ((ObjectNode) second).removeAll();
            } else if (first instanceof ArrayNode a) {
                assertThat(first).as("two reads of %s are copies", c.getName()).isNotSameAs(second);
                a.add("MUTATED");
                ((ArrayNode) second).removeAll();
            }
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

    @Test
    void whatIsApprovedIsWhatRunsEvenWhenEveryJsonValueReceivedIsMutated() throws Exception {
        Agent agent = travelAgent();
        String runId;
        try (AgentStream stream = agent.stream("Book me a flight to SF", on("t", "u"))) {
            runId = stream.runId();
            for (AgentEvent e : stream) {
                if (e instanceof AgentEvent.ToolCall call) {
                    ((ObjectNode) call.args()).put("to", "MUTATED");   // the probe of issue 29
                }
                if (mutateEveryJsonValue(e) > 0) mutatedEventTypes.add("stream:" + e.type());
            }
        }
        assertThat(mutatedEventTypes).as("JSON values changed by the stream's reader and the listener")
                .contains("stream:tool-call", "stream:tool-call-approval", "listener:tool-call", "listener:tool-call-approval");
        AgentRunToolCall listed = listedCallAfterChangingTheListing(agent);
        assertThat(listed.args()).isEqualTo(PROPOSED);

        reopenTheStore();
        Agent restarted = travelAgent();
        AgentRunToolCall stored = listedCallAfterChangingTheListing(restarted);
        assertThat(stored.args()).as("the call's input read back from the store").isEqualTo(PROPOSED);
        AgentResult approved = restarted.approveToolCall(runId, stored.toolCallId()).forEachEvent(e -> {
            if (mutateEveryJsonValue(e) > 0) mutatedEventTypes.add("stream:" + e.type());
        });
        assertThat(approved.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(flightInputs).as("the input the approved tool ran with").containsExactly("{\"to\":\"SFO\"}");
        assertThat(mutatedEventTypes).contains("stream:tool-result", "listener:tool-result");
    }

    @Test
    void aSuspendPayloadAndResumeDataChangedAfterTheyWereHandedOverChangeNothingStored() throws Exception {
        Agent agent = travelAgent();
        AgentResult waiting = agent.stream("Which city?", on("t", "u")).forEachEvent(e -> {
            if (mutateEveryJsonValue(e) > 0) mutatedEventTypes.add("stream:" + e.type());
        });
        assertThat(waiting.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(mutatedEventTypes).contains("stream:tool-call-suspended", "listener:tool-call-suspended");
        JsonNode asked = JSON.createObjectNode().put("question", "Which city?");
        assertThat(listedCallAfterChangingTheListing(agent).suspendPayload()).isEqualTo(asked);

        reopenTheStore();
        Agent restarted = travelAgent();
        assertThat(listedCallAfterChangingTheListing(restarted).suspendPayload())
                .as("the suspend payload read back from the store").isEqualTo(asked);
        ObjectNode data = JSON.createObjectNode().put("name", "Lima");
        AgentStream resumed = restarted.resumeStream(data, waiting.runId());
        data.put("name", "MUTATED").putArray("extra").add(1);   // after handing it over, before the run reads it
        AgentResult done = resumed.result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(cityResumeData).as("the resume data the tool saw").containsExactly("{\"name\":\"Lima\"}");
        assertThat(done.text()).contains("Lima");
    }
}
