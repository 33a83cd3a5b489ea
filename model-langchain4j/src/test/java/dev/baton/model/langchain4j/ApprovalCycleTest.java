package dev.baton.model.langchain4j;

import static dev.baton.model.langchain4j.Fixtures.INSTRUCTIONS;
import static dev.baton.model.langchain4j.Fixtures.json;
import static dev.baton.model.langchain4j.Fixtures.textDeltas;
import static dev.baton.model.langchain4j.OpenAiWire.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole approval cycle with the real adapter over real HTTP, stored in SQLite and PostgreSQL:
 * a run suspends for approval on one server; another {@link Agent} instance (its own store
 * connection) lists it from the database and approves or declines it; the provider receives the
 * tool result or the decline reason with the call's id; the final text streams back.
 *
 * <p>PostgreSQL comes from {@code BATON_TEST_POSTGRES_URL} (CI exports it); without it the
 * PostgreSQL cases are skipped locally and fail on CI.
 */
class ApprovalCycleTest {
    private StubProvider stub;
    private String agentId;
    private final AtomicInteger bookings = new AtomicInteger();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeEach
    void start() {
        stub = StubProvider.start();
        agentId = Fixtures.uniqueAgentId();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : toClose) c.close();
        stub.close();
    }

    private static String url(String database) {
        if (database.equals("SQLite")) return Fixtures.sqliteUrl();
        String url = System.getenv("BATON_TEST_POSTGRES_URL");
        if (url == null || url.isBlank()) {
            if ("true".equals(System.getenv("CI"))) throw new AssertionError("BATON_TEST_POSTGRES_URL must be set on CI");
            assumeTrue(false, "BATON_TEST_POSTGRES_URL is not set");
        }
        return url;
    }

    /** One server: its own store connection, its own model client, the same agent id and tools. */
    private Agent server(String database, String instanceId) {
        SnapshotStore store = SnapshotStores.open(url(database));
        toClose.add(store);
        OpenAiStreamingChatModel model = OpenAiStreamingChatModel.builder().baseUrl(stub.url("/v1")).apiKey("test-key")
                .modelName(OpenAiWire.MODEL).timeout(Duration.ofSeconds(10)).build();
        return Agent.builder(agentId).instructions(INSTRUCTIONS).model(LangChain4jModel.of(model))
                .tools(Fixtures.bookFlight(bookings), Fixtures.getWeather()).store(store).instanceId(instanceId).build();
    }

    /** Starts a run on server A that suspends for approval of {@code call_b}; returns its id. */
    private String suspendOnServerA(String database) {
        stub.then(OpenAiWire.stream(OpenAiWire.streamedCalls(4, call("call_b", "bookFlight", "{\"to\":\"SFO\",\"passengers\":2}"))));
        AgentResult first = server(database, "server-a").generate("Book two seats to SFO",
                RunOptions.builder().threadId("thread-1").resourceId("user-7").build());
        assertThat(first.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(first.eventTypes()).endsWith("tool-call", "tool-call-approval");
        return first.runId();
    }

    private static AgentRun listedFor(Agent agent, String resourceId) {
        List<AgentRun> runs = agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().resourceId(resourceId).build()).runs();
        assertThat(runs).hasSize(1);
        return runs.get(0);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SQLite", "PostgreSQL"})
    void anApprovalOnAnotherServerSendsTheToolResultAndTheFinalTextStreamsBack(String database) {
        String runId = suspendOnServerA(database);
        Agent serverB = server(database, "server-b");
        AgentRun run = listedFor(serverB, "user-7");
        assertThat(run.runId()).isEqualTo(runId);
        assertThat(run.toolCalls()).singleElement().satisfies(c -> {
            assertThat(c.toolCallId()).isEqualTo("call_b");
            assertThat(c.requiresApproval()).isTrue();
            assertThat(c.args()).isEqualTo(json("{'to':'SFO','passengers':2}"));
        });
        CountDownLatch runSawFirstDelta = new CountDownLatch(1);
        AtomicBoolean restSentAfterTheRunSawIt = new AtomicBoolean();
        stub.then((request, reply) -> {
            reply.startEvents().data(OpenAiWire.roleChunk()).data(OpenAiWire.textChunk("Booked "));
            restSentAfterTheRunSawIt.set(StubProvider.await(runSawFirstDelta));
            reply.data(OpenAiWire.textChunk("2 seats to SFO.")).data(OpenAiWire.finishChunk("stop")).data("[DONE]");
            reply.endEvents();
        });

        List<AgentEvent> events = new ArrayList<>();
        try (AgentStream stream = serverB.approveToolCall(runId, "call_b")) {
            for (AgentEvent e : stream) {
                events.add(e);
                if (e instanceof AgentEvent.TextDelta) runSawFirstDelta.countDown();
            }
            assertThat(stream.outcome()).contains(RunOutcome.COMPLETED);
        }

        assertThat(bookings).hasValue(1);
        assertThat(restSentAfterTheRunSawIt).isTrue();
        assertThat(textDeltas(events)).containsExactly("Booked ", "2 seats to SFO.");
        assertThat(events.get(events.size() - 1)).isInstanceOfSatisfying(AgentEvent.Finish.class,
                f -> assertThat(f.text()).isEqualTo("Booked 2 seats to SFO."));
        JsonNode messages = stub.request(1).body().path("messages");
        assertThat(messages).hasSize(4);
        assertThat(messages.get(0)).isEqualTo(json("{'role':'system','content':'You help with travel.'}"));
        assertThat(messages.get(1)).isEqualTo(json("{'role':'user','content':'Book two seats to SFO'}"));
        assertThat(messages.get(2).path("tool_calls").get(0).path("id").asText()).isEqualTo("call_b");
        assertThat(json(messages.get(2).path("tool_calls").get(0).path("function").path("arguments").asText()))
                .isEqualTo(json("{'to':'SFO','passengers':2}"));
        assertThat(messages.get(3).path("role").asText()).isEqualTo("tool");
        assertThat(messages.get(3).path("tool_call_id").asText()).isEqualTo("call_b");
        assertThat(json(messages.get(3).path("content").asText())).isEqualTo(json("{'booked':'SFO','passengers':2}"));
        assertThat(stub.request(1).body().path("tools").get(0).path("function").path("parameters").path("required"))
                .isEqualTo(Fixtures.bookFlightSchema().path("required"));
        assertThat(serverB.listSuspendedRuns().runs()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SQLite", "PostgreSQL"})
    void aDeclineOnAnotherServerSendsTheReasonAndTheToolNeverRuns(String database) {
        String runId = suspendOnServerA(database);
        Agent serverB = server(database, "server-b");
        listedFor(serverB, "user-7");
        stub.then(OpenAiWire.stream(OpenAiWire.streamedText("Understood, ", "no booking.")));

        AgentResult declined = serverB.declineToolCall(runId, "call_b", "Over budget this month").result();

        assertThat(declined.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(declined.eventTypes()).contains("tool-output-denied");
        assertThat(declined.text()).isEqualTo("Understood, no booking.");
        assertThat(bookings).hasValue(0);
        JsonNode toolMessage = stub.request(1).body().path("messages").get(3);
        assertThat(toolMessage.path("tool_call_id").asText()).isEqualTo("call_b");
        assertThat(toolMessage.path("content").asText()).isEqualTo("Over budget this month");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SQLite", "PostgreSQL"})
    void aSuspendedRunIsNeverLostToAModelFailureDuringResume(String database) {
        String runId = suspendOnServerA(database);
        Agent serverB = server(database, "server-b");
        stub.then(OpenAiWire.error(500, "server_error", "The server had an error while processing your request."));

        AgentResult approved = serverB.approveToolCall(runId, "call_b").result();

        assertThat(approved.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
        assertThat(approved.events()).filteredOn(e -> e instanceof AgentEvent.Error).singleElement()
                .satisfies(e -> assertThat(((AgentEvent.Error) e).message())
                        .contains("answered HTTP 500 (provider error): The server had an error while processing your request."));
        assertThat(bookings).hasValue(1);
        // stored as interrupted: listed again, waiting for no human
        AgentRun run = listedFor(serverB, "user-7");
        assertThat(run.runId()).isEqualTo(runId);
        assertThat(run.interrupted()).isTrue();
        assertThat(run.toolCalls()).isEmpty();

        // a third server goes on from the stored step: the tool's stored result reaches the model, the tool does not run again
        stub.then(OpenAiWire.stream(OpenAiWire.streamedText("Booked ", "2 seats to SFO.")));
        AgentResult continued = server(database, "server-c").continueRun(runId).result();

        assertThat(continued.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(continued.text()).isEqualTo("Booked 2 seats to SFO.");
        assertThat(bookings).hasValue(1);
        JsonNode toolMessage = stub.request(2).body().path("messages").get(3);
        assertThat(toolMessage.path("tool_call_id").asText()).isEqualTo("call_b");
        assertThat(json(toolMessage.path("content").asText())).isEqualTo(json("{'booked':'SFO','passengers':2}"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"SQLite", "PostgreSQL"})
    void closingTheStreamOfAResumedRunCancelsTheProviderCallAndKeepsTheRun(String database) {
        String runId = suspendOnServerA(database);
        Agent serverB = server(database, "server-b");
        AtomicBoolean clientWentAway = new AtomicBoolean();
        CountDownLatch stubDone = new CountDownLatch(1);
        stub.then((request, reply) -> {
            reply.startEvents().data(OpenAiWire.roleChunk()).data(OpenAiWire.textChunk("Booked "));
            clientWentAway.set(reply.awaitClientGone());
            stubDone.countDown();
        });

        AgentStream stream = serverB.approveToolCall(runId, "call_b");
        for (AgentEvent e : stream) {
            if (e instanceof AgentEvent.TextDelta) break;
        }
        stream.close();

        assertThat(StubProvider.await(stubDone)).isTrue();
        assertThat(clientWentAway).isTrue();
        assertThat(stream.outcome()).contains(RunOutcome.INTERRUPTED);
        assertThat(bookings).hasValue(1);
        assertThat(listedFor(serverB, "user-7").interrupted()).isTrue();
    }
}
