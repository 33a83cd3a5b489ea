package dev.baton.tck;

import static dev.baton.tck.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.InvalidOptionException;
import dev.baton.ResumeMismatchException;
import dev.baton.RunNotFoundException;
import dev.baton.RunNotSuspendedException;
import dev.baton.SnapshotFormatException;
import dev.baton.ToolCallNotFoundException;
import dev.baton.UnknownToolException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.AgentStream;
import dev.baton.agent.ResumeOptions;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.agent.RunStatus;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.model.ModelChunk;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The agent half of the Baton TCK: approve / decline / resume / subagent flows, every discovery
 * rule of SPEC section 4, the resume race and lease recovery, all over the store under test.
 * Extend it and implement {@link #openStore()} (the same database on every call).
 */
@Execution(ExecutionMode.SAME_THREAD)
public abstract class AgentContract {

    /** Opens a store on the database under test; the same database on every call. */
    protected abstract SnapshotStore openStore() throws Exception;

    protected SnapshotStore store;
    protected MutableClock clock;
    /** The id of this test's main agent; unique, so tests never see each other's runs. */
    protected String agentId;
    protected final AtomicInteger bookings = new AtomicInteger();
    protected final AtomicInteger weatherCalls = new AtomicInteger();
    protected final List<JsonNode> resumeDataSeen = Collections.synchronizedList(new ArrayList<>());
    protected final List<List<Message>> modelInputs = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void openTheStore() throws Exception {
        store = openStore();
        clock = new MutableClock(Instant.parse("2026-05-01T08:00:00Z"));
        agentId = uniqueId("tck-agent");
    }

    @AfterEach
    void closeTheStore() {
        if (store != null) store.close();
    }

    // ---- fixtures ---------------------------------------------------------------------------

    protected Tool bookFlight() {
        return Tool.builder("bookFlight").description("Books a flight").requireApproval(true)
                .execute((input, ctx) -> {
                    bookings.incrementAndGet();
                    return Map.of("booked", input.path("to").asText());
                }).build();
    }

    protected Tool getWeather() {
        return Tool.builder("getWeather").description("Weather")
                .execute((input, ctx) -> {
                    weatherCalls.incrementAndGet();
                    return Map.of("tempC", 21);
                }).build();
    }

    protected Tool askCity() {
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

    protected Tool pay() {
        return Tool.builder("pay").description("Pays; needs approval above 100")
                .requireApproval(input -> input.path("amount").asInt() > 100)
                .execute((input, ctx) -> Map.of("paid", input.path("amount").asInt())).build();
    }

    protected Tool audit() {
        return Tool.builder("audit").description("Approval predicate that throws")
                .requireApproval(input -> {
                    throw new IllegalStateException("policy service down");
                })
                .execute((input, ctx) -> "audited").build();
    }

    protected Tool flaky() {
        return Tool.builder("flaky").description("Always fails").requireApproval(true)
                .execute((input, ctx) -> {
                    throw new IllegalStateException("flaky is down");
                }).build();
    }

    protected DeterministicModel.Builder rules() {
        return DeterministicModel.builder()
                .whenUserSays("flight", "bookFlight", Map.of("to", "SFO"))
                .whenUserSays("weather", "getWeather", Map.of("city", "Paris"))
                .whenUserSays("city", "askCity", Map.of())
                .whenUserSays("pay", "pay", text -> Map.of("amount", text.contains("big") ? 500 : 5))
                .whenUserSays("audit", "audit", Map.of())
                .whenUserSays("flaky", "flaky", Map.of());
    }

    /** Records what the model was given, then answers with the rules. */
    protected LanguageModel recording(LanguageModel model) {
        return request -> {
            modelInputs.add(request.messages());
            return model.stream(request);
        };
    }

    protected Agent.Builder agentBuilder(String id) {
        return Agent.builder(id).instructions("You help with travel.").model(recording(rules().build()))
                .tools(bookFlight(), getWeather(), askCity(), pay(), audit(), flaky())
                .store(store).clock(clock).instanceId("tck-" + id);
    }

    protected Agent agent() {
        return agentBuilder(agentId).build();
    }

    protected static RunOptions on(String thread, String resource) {
        return RunOptions.builder().threadId(thread).resourceId(resource).build();
    }

    /** Starts a run that suspends for approval of bookFlight, one second after the previous. */
    protected AgentResult suspendForApproval(Agent agent, String thread, String resource) {
        clock.advance(Duration.ofSeconds(1));
        AgentResult r = agent.generate("Book me a flight to SF", on(thread, resource));
        assertThat(r.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        return r;
    }

    protected String onlyCallId(AgentResult suspended) {
        assertThat(suspended.waitingCalls()).hasSize(1);
        return suspended.waitingCalls().get(0).toolCallId();
    }

    protected RunSnapshot stored(String runId) {
        return store.find(runId).orElseThrow(() -> new AssertionError("run " + runId + " is not stored"));
    }

    protected static List<String> runIds(AgentListSuspendedRunsResult r) {
        return r.runs().stream().map(AgentRun::runId).toList();
    }

    protected static AgentListSuspendedRunsOptions.Builder options() {
        return AgentListSuspendedRunsOptions.builder();
    }

    // ---- the tests --------------------------------------------------------------------------

    @Nested
    class Lifecycle {

        @Test
        void anApprovalSuspendsTheRunWithTheReferenceEventsAndNoFinish() {
            AgentResult r = suspendForApproval(agent(), "t", "u");
            assertThat(r.eventTypes()).containsExactly("start", "step-start", "tool-call", "tool-call-approval");
            assertThat(bookings).hasValue(0);
        }

        @Test
        void aSuspendedApprovalIsListedWithItsArgs() {
            Agent agent = agent();
            AgentResult r = suspendForApproval(agent, "t", "u");
            AgentRun run = agent.listSuspendedRuns().runs().get(0);
            assertThat(run.runId()).isEqualTo(r.runId());
            assertThat(run.status()).isEqualTo(RunStatus.SUSPENDED);
            assertThat(run.threadId()).isEqualTo("t");
            assertThat(run.resourceId()).isEqualTo("u");
            assertThat(run.suspendedAt()).isEqualTo(clock.instant());
            AgentRunToolCall call = run.toolCalls().get(0);
            assertThat(call.toolName()).isEqualTo("bookFlight");
            assertThat(call.requiresApproval()).isTrue();
            assertThat(call.args().path("to").asText()).isEqualTo("SFO");
            assertThat(call.suspendPayload()).isNull();
        }

        @Test
        void aToolSuspensionIsListedWithItsPayloadAndNoArgs() {
            Agent agent = agent();
            AgentResult r = agent.generate("Which city?", on("t", "u"));
            assertThat(r.eventTypes()).containsExactly("start", "step-start", "tool-call", "tool-call-suspended");
            AgentRunToolCall call = agent.listSuspendedRuns().runs().get(0).toolCalls().get(0);
            assertThat(call.toolName()).isEqualTo("askCity");
            assertThat(call.requiresApproval()).isFalse();
            assertThat(call.args()).isNull();
            assertThat(call.suspendPayload().path("question").asText()).isEqualTo("Which city?");
        }

        @Test
        void aRunThatNeverSuspendsIsNeverStored() {
            Agent agent = agent();
            AgentResult r = agent.generate("What is the weather?", on("t", "u"));
            assertThat(r.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(r.eventTypes()).startsWith("start", "step-start", "tool-call", "tool-result", "step-finish",
                    "step-start").endsWith("step-finish", "finish");
            assertThat(r.text()).contains("getWeather");
            assertThat(store.find(r.runId())).isEmpty();
            assertThat(agent.listSuspendedRuns().total()).isZero();
        }

        @Test
        void approvingRunsTheToolOnceAndTheModelContinuesThenTheRunIsDeleted() {
            Agent agent = agent();
            AgentResult suspended = suspendForApproval(agent, "t", "u");
            AgentResult done = agent.approveToolCall(suspended.runId(), onlyCallId(suspended)).result();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(done.eventTypes()).containsSubsequence("start", "tool-result", "step-finish", "step-start",
                    "text-delta", "step-finish", "finish");
            assertThat(done.eventTypes().get(1)).isEqualTo("tool-result");
            assertThat(done.text()).contains("bookFlight").contains("SFO");
            assertThat(bookings).hasValue(1);
            assertThat(store.find(suspended.runId())).isEmpty();
            assertThat(agent.listSuspendedRuns().total()).isZero();
        }

        @Test
        void declineDoesNotRunTheToolAndTheModelSeesTheDefaultText() {
            Agent agent = agent();
            AgentResult suspended = suspendForApproval(agent, "t", "u");
            AgentResult done = agent.declineToolCall(suspended.runId(), onlyCallId(suspended)).result();
            assertThat(bookings).hasValue(0);
            assertThat(done.eventTypes()).containsSubsequence("start", "tool-output-denied", "step-finish", "step-start",
                    "text-delta", "finish");
            assertThat(done.text()).contains("Tool call was not approved by the user");
            Message.ToolResult seen = lastToolResult();
            assertThat(seen.result().asText()).isEqualTo("Tool call was not approved by the user");
            assertThat(store.find(suspended.runId())).isEmpty();
        }

        @Test
        void declineWithAReasonGivesTheModelTheReason() {
            Agent agent = agent();
            AgentResult suspended = suspendForApproval(agent, "t", "u");
            AgentResult done = agent.declineToolCall(suspended.runId(), onlyCallId(suspended), "Too expensive").result();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(lastToolResult().result().asText()).isEqualTo("Too expensive");
            assertThat(done.events()).filteredOn(e -> e instanceof AgentEvent.ToolOutputDenied)
                    .singleElement().extracting(e -> ((AgentEvent.ToolOutputDenied) e).reason()).isEqualTo("Too expensive");
        }

        @Test
        void resumeWithDataGivesTheToolTheData() {
            Agent agent = agent();
            AgentResult suspended = agent.generate("Which city?", on("t", "u"));
            AgentResult done = agent.resumeStream(Map.of("name", "San Francisco"), suspended.runId()).result();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(resumeDataSeen).singleElement().extracting(n -> n.path("name").asText()).isEqualTo("San Francisco");
            assertThat(done.eventTypes().get(1)).isEqualTo("tool-result");
            assertThat(done.text()).contains("San Francisco");
            assertThat(store.find(suspended.runId())).isEmpty();
        }

        @Test
        void aRunThatSuspendsAgainKeepsItsRunIdAndUpdatesSuspendedAt() {
            Agent agent = agent();
            AgentResult first = agent.generate("Which city?", on("t", "u"));
            Instant firstSuspension = agent.listSuspendedRuns().runs().get(0).suspendedAt();
            clock.advance(Duration.ofMinutes(5));
            AgentResult again = agent.resumeStream(Map.of("name", ""), first.runId()).result();
            assertThat(again.outcome()).isEqualTo(RunOutcome.SUSPENDED);
            assertThat(again.runId()).isEqualTo(first.runId());
            AgentRun run = agent.listSuspendedRuns().runs().get(0);
            assertThat(run.runId()).isEqualTo(first.runId());
            assertThat(run.suspendedAt()).isEqualTo(firstSuspension.plus(Duration.ofMinutes(5)));
            assertThat(run.toolCalls().get(0).suspendPayload().path("question").asText()).isEqualTo("Which city, again?");
            assertThat(agent.resumeStream(Map.of("name", "Oslo"), first.runId()).result().outcome())
                    .isEqualTo(RunOutcome.COMPLETED);
        }

        @Test
        void approvalMayBeDecidedPerCall() {
            Agent agent = agent();
            assertThat(agent.generate("pay small", on("t", "u")).outcome()).isEqualTo(RunOutcome.COMPLETED);
            AgentResult big = agent.generate("pay big", on("t", "u"));
            assertThat(big.outcome()).isEqualTo(RunOutcome.SUSPENDED);
            assertThat(big.waitingCalls().get(0).args().path("amount").asInt()).isEqualTo(500);
        }

        @Test
        void anApprovalPredicateThatThrowsMeansApprovalRequired() {
            assertThat(agent().generate("audit please", on("t", "u")).outcome()).isEqualTo(RunOutcome.SUSPENDED);
        }

        @Test
        void aToolThatThrowsGivesAToolErrorAndTheRunGoesOn() {
            Agent agent = agent();
            AgentResult suspended = agent.generate("flaky thing", on("t", "u"));
            AgentResult done = agent.approveToolCall(suspended.runId(), onlyCallId(suspended)).result();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(done.eventTypes()).containsSubsequence("start", "tool-error", "step-finish", "finish");
            assertThat(lastToolResult().isError()).isTrue();
            assertThat(lastToolResult().result().asText()).contains("flaky is down");
        }

        @Test
        void aModelFailureDuringResumeKeepsTheRunStoredAsInterruptedAndContinueRunRetriesTheStep() {
            AtomicInteger calls = new AtomicInteger();
            LanguageModel failingSecond = request -> {
                if (calls.incrementAndGet() == 2) throw new IllegalStateException("model provider is down");
                return rules().build().stream(request);
            };
            Agent agent = agentBuilder(agentId).model(failingSecond).build();
            AgentResult suspended = suspendForApproval(agent, "t", "u");
            AgentResult failed = agent.approveToolCall(suspended.runId(), onlyCallId(suspended)).result();
            assertThat(failed.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
            assertThat(failed.eventTypes()).endsWith("error", "step-finish", "finish");
            assertThat(failed.error()).isInstanceOf(dev.baton.RunInterruptedException.class)
                    .hasMessageContaining("model provider is down").hasMessageContaining(suspended.runId())
                    .hasCauseInstanceOf(dev.baton.ModelException.class);
            AgentRun kept = agent.listSuspendedRuns().runs().get(0);
            assertThat(kept.runId()).isEqualTo(suspended.runId());
            assertThat(kept.interrupted()).isTrue();
            assertThat(kept.interruption()).contains("model provider is down");
            assertThat(kept.toolCalls()).isEmpty();
            AgentResult done = agent.continueRun(suspended.runId()).result();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(done.text()).contains("SFO");
            assertThat(bookings).as("the stored result is used; the tool does not run again").hasValue(1);
            assertThat(store.find(suspended.runId())).isEmpty();
        }

        @Test
        void aModelFailureInANewRunEndsItWithTheProvidersMessageAndStoresNothing() {
            Agent agent = agentBuilder(agentId).model(request -> {
                throw new IllegalStateException("429 Too Many Requests: slow down");
            }).build();
            AgentResult failed = agent.generate("Book me a flight", on("t", "u"));
            assertThat(failed.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(failed.eventTypes()).containsExactly("start", "step-start", "error", "step-finish", "finish");
            assertThat(failed.error()).isInstanceOf(dev.baton.ModelException.class)
                    .hasMessageContaining("429 Too Many Requests: slow down");
            assertThat(store.find(failed.runId())).isEmpty();
        }

        @Test
        void severalCallsInOneStepEachWaitAndTheRunGoesOnWhenAllAreDecided() {
            Agent agent = agentBuilder(agentId).model(recording(scriptedCalls(
                    call("c1", "bookFlight", "to", "SFO"), call("c2", "bookFlight", "to", "LAX"), call("c3", "askCity")))).build();
            AgentResult r = agent.generate("go", on("t", "u"));
            assertThat(r.waitingCalls()).extracting(AgentRunToolCall::toolCallId).containsExactly("c1", "c2", "c3");

            AgentResult afterData = agent.resumeStream(Map.of("name", "Rome"), r.runId()).result();
            assertThat(afterData.outcome()).isEqualTo(RunOutcome.SUSPENDED);
            assertThat(agent.listSuspendedRuns().runs().get(0).toolCalls()).extracting(AgentRunToolCall::toolCallId)
                    .containsExactly("c1", "c2");
            assertThat(agent.approveToolCall(r.runId(), "c1").result().outcome()).isEqualTo(RunOutcome.SUSPENDED);
            assertThat(bookings).hasValue(1);
            assertThat(agent.listSuspendedRuns().runs().get(0).toolCalls()).extracting(AgentRunToolCall::toolCallId)
                    .containsExactly("c2");
            AgentResult done = agent.declineToolCall(r.runId(), "c2").result();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(done.text()).isEqualTo("all done");
            assertThat(bookings).hasValue(1);
            List<Message> last = modelInputs.get(modelInputs.size() - 1);
            assertThat(last).filteredOn(m -> m instanceof Message.ToolResult).hasSize(3);
        }

        @Test
        void anExplicitMaxStepsIsHonouredWhateverTheAgentsDefault() {
            LanguageModel loops = request -> java.util.stream.Stream.of(call("w" + request.completedSteps(), "getWeather"));
            java.util.function.Function<AgentResult, Long> steps = r -> r.events().stream()
                    .filter(e -> e instanceof AgentEvent.StepStart).count();
            Agent two = agentBuilder(agentId).model(loops).maxSteps(2).build();
            AgentResult tenOfTwo = two.generate("weather", RunOptions.builder().maxSteps(10).build());
            assertThat(steps.apply(tenOfTwo)).isEqualTo(10);
            assertThat(tenOfTwo.events().get(tenOfTwo.events().size() - 1))
                    .isInstanceOfSatisfying(AgentEvent.Finish.class, f -> assertThat(f.finishReason()).isEqualTo("max-steps"));
            Agent fifteen = agentBuilder(agentId).model(loops).maxSteps(15).build();
            assertThat(steps.apply(fifteen.generate("weather", RunOptions.builder().maxSteps(10).build()))).isEqualTo(10);
            assertThat(steps.apply(two.generate("weather", RunOptions.DEFAULT))).as("the agent's default").isEqualTo(2);
        }

        @Test
        void resumeNeedsAToolCallIdWhenSeveralCallsWaitForData() {
            Agent agent = agentBuilder(agentId).model(scriptedCalls(call("d1", "askCity"), call("d2", "askCity"))).build();
            AgentResult r = agent.generate("go", on("t", "u"));
            assertThatThrownBy(() -> agent.resumeStream(Map.of("name", "x"), r.runId()))
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("toolCallId");
            assertThat(stored(r.runId()).version()).isEqualTo(1);
            AgentResult again = agent.resumeStream(Map.of("name", "Oslo"), ResumeOptions.of(r.runId(), "d2")).result();
            assertThat(again.outcome()).isEqualTo(RunOutcome.SUSPENDED);
            assertThat(again.waitingCalls()).extracting(AgentRunToolCall::toolCallId).containsExactly("d1");
        }
    }

    /** A tool call chunk for scripted models. */
    protected static ModelChunk call(String id, String tool, Object... args) {
        return new ModelChunk.ToolCallRequest(new dev.baton.model.ToolCall(id, tool, Json.object(args)));
    }

    /** A model that makes these calls on the user's message, then answers "all done". */
    protected static LanguageModel scriptedCalls(ModelChunk... calls) {
        return DeterministicModel.scripted(request -> request.lastMessage() instanceof Message.User
                ? List.of(calls) : List.of(new ModelChunk.TextDelta("all done")));
    }

    @Nested
    class Discovery {

        @Test
        void onlySuspendedRunsAreListed() {
            Agent agent = agent();
            AgentResult waiting = suspendForApproval(agent, "t", "u");
            agent.generate("What is the weather?", on("t", "u"));
            AgentResult approved = suspendForApproval(agent, "t", "u");
            agent.approveToolCall(approved.runId(), onlyCallId(approved)).result();
            assertThat(runIds(agent.listSuspendedRuns())).containsExactly(waiting.runId());
        }

        @Test
        void listsOnlyRunsOfTheCallingAgent() {
            Agent mine = agent();
            Agent other = agentBuilder(agentId + "-other").build();
            AgentResult a = suspendForApproval(mine, "t", "u");
            AgentResult b = suspendForApproval(other, "t", "u");
            assertThat(runIds(mine.listSuspendedRuns())).containsExactly(a.runId());
            assertThat(runIds(other.listSuspendedRuns(options().threadId("t").resourceId("u").build())))
                    .containsExactly(b.runId());
        }

        @Test
        void anotherAgentsRunAnswersExactlyAsAMissingRun() {
            Agent owner = agent();
            Agent intruder = agentBuilder(agentId + "-intruder").build();
            AgentResult r = suspendForApproval(owner, "t", "u");
            String call = onlyCallId(r);
            RunSnapshot before = stored(r.runId());
            String missing = "no-such-run";
            assertThatThrownBy(() -> intruder.approveToolCall(r.runId(), call)).isInstanceOf(RunNotFoundException.class)
                    .hasMessage(new RunNotFoundException(intruder.id(), r.runId()).getMessage());
            assertThatThrownBy(() -> intruder.approveToolCall(missing, call)).isInstanceOf(RunNotFoundException.class)
                    .hasMessage(new RunNotFoundException(intruder.id(), missing).getMessage());
            assertThatThrownBy(() -> intruder.declineToolCall(r.runId(), call)).isInstanceOf(RunNotFoundException.class);
            assertThatThrownBy(() -> intruder.resumeStream(Map.of(), r.runId())).isInstanceOf(RunNotFoundException.class);
            assertThat(bookings).hasValue(0);
            assertThat(stored(r.runId())).isEqualTo(before);
            assertThat(owner.approveToolCall(r.runId(), call).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        }

        @Test
        void threadAndResourceFiltersAreExactAndCombineWithAnd() {
            Agent agent = agent();
            AgentResult t1u1 = suspendForApproval(agent, "t1", "u1");
            AgentResult t1u2 = suspendForApproval(agent, "t1", "u2");
            AgentResult t2u1 = suspendForApproval(agent, "t2", "u1");
            assertThat(runIds(agent.listSuspendedRuns(options().threadId("t1").build())))
                    .containsExactly(t1u2.runId(), t1u1.runId());
            assertThat(runIds(agent.listSuspendedRuns(options().resourceId("u1").build())))
                    .containsExactly(t2u1.runId(), t1u1.runId());
            assertThat(runIds(agent.listSuspendedRuns(options().threadId("t1").resourceId("u1").build())))
                    .containsExactly(t1u1.runId());
            assertThat(agent.listSuspendedRuns(options().threadId("t").build()).total()).isZero();
        }

        @Test
        void dateFiltersAreInclusiveAndApplyToCreationTime() {
            Agent agent = agent();
            AgentResult first = suspendForApproval(agent, "t", "u");
            Instant firstCreated = clock.instant();
            AgentResult second = suspendForApproval(agent, "t", "u");
            Instant secondCreated = clock.instant();
            AgentResult third = suspendForApproval(agent, "t", "u");
            // re-suspending the first run later must not move it in a creation-time filter
            clock.advance(Duration.ofHours(1));
            assertThat(runIds(agent.listSuspendedRuns(options().fromDate(firstCreated).toDate(secondCreated).build())))
                    .containsExactly(second.runId(), first.runId());
            assertThat(runIds(agent.listSuspendedRuns(options().fromDate(secondCreated).build())))
                    .containsExactly(third.runId(), second.runId());
            assertThat(runIds(agent.listSuspendedRuns(options().toDate(firstCreated).build())))
                    .containsExactly(first.runId());
            assertThat(runIds(agent.listSuspendedRuns(options().fromDate(secondCreated).toDate(secondCreated).build())))
                    .containsExactly(second.runId());
            assertThat(agent.listSuspendedRuns(options().fromDate(clock.instant()).build()).total()).isZero();
        }

        @Test
        void newestCreationFirstAndTiesBrokenByRunIdDescending() {
            Agent agent = agent();
            List<String> sameInstant = new ArrayList<>();
            clock.advance(Duration.ofSeconds(1));
            for (int i = 0; i < 5; i++) sameInstant.add(agent.generate("flight", on("t", "u")).runId());
            AgentResult newest = suspendForApproval(agent, "t", "u");
            List<String> expected = new ArrayList<>();
            expected.add(newest.runId());
            expected.addAll(sameInstant.stream().sorted(Collections.reverseOrder()).toList());
            assertThat(runIds(agent.listSuspendedRuns())).containsExactlyElementsOf(expected);
        }

        @Test
        void paginationAppliesOnlyWhenPerPageAndPageAreBothGiven() {
            Agent agent = agent();
            List<String> newestFirst = new ArrayList<>();
            for (int i = 0; i < 7; i++) newestFirst.add(0, suspendForApproval(agent, "t", "u").runId());
            AgentListSuspendedRunsResult page1 = agent.listSuspendedRuns(options().perPage(3).page(1).build());
            assertThat(runIds(page1)).containsExactlyElementsOf(newestFirst.subList(3, 6));
            assertThat(page1.total()).isEqualTo(7);
            assertThat(runIds(agent.listSuspendedRuns(options().perPage(3).page(0).build())))
                    .containsExactlyElementsOf(newestFirst.subList(0, 3));
            assertThat(runIds(agent.listSuspendedRuns(options().perPage(3).page(2).build())))
                    .containsExactlyElementsOf(newestFirst.subList(6, 7));
            assertThat(agent.listSuspendedRuns(options().perPage(3).build()).runs()).hasSize(7);
            assertThat(agent.listSuspendedRuns(options().page(1).build()).runs()).hasSize(7);
        }

        @Test
        void aPagePastTheEndIsEmptyWithTheSameTotal() {
            Agent agent = agent();
            for (int i = 0; i < 3; i++) suspendForApproval(agent, "t", "u");
            AgentListSuspendedRunsResult r = agent.listSuspendedRuns(options().perPage(2).page(5).build());
            assertThat(r.runs()).isEmpty();
            assertThat(r.total()).isEqualTo(3);
        }

        @Test
        void badOptionsGetAnErrorNamingTheOption() {
            Agent agent = agent();
            suspendForApproval(agent, "t", "u");
            assertThatThrownBy(() -> agent.listSuspendedRuns(options().perPage(0).page(0).build()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("perPage");
            assertThatThrownBy(() -> agent.listSuspendedRuns(options().perPage(-3).build()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("perPage");
            assertThatThrownBy(() -> agent.listSuspendedRuns(options().perPage(5).page(-1).build()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("page");
            Instant now = clock.instant();
            assertThatThrownBy(() -> agent.listSuspendedRuns(options().fromDate(now).toDate(now.minusMillis(1)).build()))
                    .isInstanceOf(InvalidOptionException.class).hasMessageContaining("fromDate");
            assertThat(agent.listSuspendedRuns().total()).isEqualTo(1);
        }

        @Test
        void aRunBeingResumedIsNotListedAsSuspended() {
            Agent agent = agent();
            AgentResult r = suspendForApproval(agent, "t", "u");
            AgentStream resuming = agent.approveToolCall(r.runId(), onlyCallId(r));
            assertThat(agent.listSuspendedRuns().total()).isZero();
            assertThat(agent.listSuspendedRuns(options().threadId("t").build()).total()).isZero();
            assertThat(agent.countRuns()).containsEntry(RunStatus.RESUMING, 1L).containsEntry(RunStatus.SUSPENDED, 0L);
            assertThat(agent.listResumingRuns()).singleElement().satisfies(l -> {
                assertThat(l.runId()).isEqualTo(r.runId());
                assertThat(l.leaseOwner()).isEqualTo(agent.instanceId());
            });
            assertThat(resuming.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(agent.countRuns()).containsEntry(RunStatus.RESUMING, 0L);
        }
    }

    @Nested
    class Persistence {

        @Test
        void aNewAgentInstanceWithTheSameIdToolsAndStoreListsAndResumes() {
            AgentResult r = suspendForApproval(agent(), "t", "u");
            Agent another = agent();
            assertThat(runIds(another.listSuspendedRuns())).containsExactly(r.runId());
            assertThat(another.approveToolCall(r.runId(), onlyCallId(r)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(bookings).hasValue(1);
        }

        @Test
        void afterTheStoreIsReopenedANewAgentListsAndResumes() throws Exception {
            AgentResult approval = suspendForApproval(agent(), "t", "u");
            clock.advance(Duration.ofSeconds(1));
            AgentResult data = agent().generate("city?", on("t2", "u"));
            store.close();
            store = null;
            store = openStore();
            Agent restarted = agent();
            assertThat(runIds(restarted.listSuspendedRuns())).containsExactly(data.runId(), approval.runId());
            assertThat(restarted.approveToolCall(approval.runId(), onlyCallId(approval)).result().outcome())
                    .isEqualTo(RunOutcome.COMPLETED);
            assertThat(restarted.resumeStream(Map.of("name", "Lima"), data.runId()).result().text()).contains("Lima");
            assertThat(restarted.listSuspendedRuns().total()).isZero();
        }
    }

    @Nested
    class BadInput {

        @Test
        void anUnknownRunGetsRunNotFound() {
            Agent agent = agent();
            assertThatThrownBy(() -> agent.approveToolCall("nope", "c")).isInstanceOf(RunNotFoundException.class)
                    .hasMessageContaining("nope");
            assertThatThrownBy(() -> agent.resumeStream(Map.of(), "nope")).isInstanceOf(RunNotFoundException.class);
        }

        @Test
        void anUnknownToolCallGetsToolCallNotFoundAndChangesNothing() {
            Agent agent = agent();
            AgentResult r = suspendForApproval(agent, "t", "u");
            RunSnapshot before = stored(r.runId());
            assertThatThrownBy(() -> agent.approveToolCall(r.runId(), "no-such-call"))
                    .isInstanceOf(ToolCallNotFoundException.class).hasMessageContaining("no-such-call")
                    .hasMessageContaining(onlyCallId(r));
            assertThat(stored(r.runId())).isEqualTo(before);
        }

        @Test
        void approvingACallThatWaitsForDataIsRefusedAndChangesNothing() {
            Agent agent = agent();
            AgentResult r = agent.generate("city?", on("t", "u"));
            RunSnapshot before = stored(r.runId());
            assertThatThrownBy(() -> agent.approveToolCall(r.runId(), onlyCallId(r)))
                    .isInstanceOf(ResumeMismatchException.class).hasMessageContaining("resume data");
            assertThatThrownBy(() -> agent.declineToolCall(r.runId(), onlyCallId(r)))
                    .isInstanceOf(ResumeMismatchException.class);
            assertThat(stored(r.runId())).isEqualTo(before);
        }

        @Test
        void resumingACallThatWaitsForApprovalIsRefusedAndChangesNothing() {
            Agent agent = agent();
            AgentResult r = suspendForApproval(agent, "t", "u");
            RunSnapshot before = stored(r.runId());
            assertThatThrownBy(() -> agent.resumeStream(Map.of("x", 1), r.runId()))
                    .isInstanceOf(ResumeMismatchException.class).hasMessageContaining("approval");
            assertThatThrownBy(() -> agent.resumeStream(Map.of("x", 1), ResumeOptions.of(r.runId(), onlyCallId(r))))
                    .isInstanceOf(ResumeMismatchException.class);
            assertThat(stored(r.runId())).isEqualTo(before);
            assertThat(bookings).hasValue(0);
        }

        @Test
        void declineAfterCompletionGetsRunNotFound() {
            Agent agent = agent();
            AgentResult r = suspendForApproval(agent, "t", "u");
            agent.approveToolCall(r.runId(), onlyCallId(r)).result();
            assertThatThrownBy(() -> agent.declineToolCall(r.runId(), onlyCallId(r)))
                    .isInstanceOf(RunNotFoundException.class).hasMessageContaining("No snapshot found");
            assertThatThrownBy(() -> agent.approveToolCall(r.runId(), onlyCallId(r)))
                    .isInstanceOf(RunNotFoundException.class);
            assertThat(bookings).hasValue(1);
        }

        @Test
        void aToolTheResumingAgentDoesNotKnowIsRefusedAndChangesNothing() {
            AgentResult r = suspendForApproval(agent(), "t", "u");
            RunSnapshot before = stored(r.runId());
            Agent withoutBooking = Agent.builder(agentId).model(rules().build()).tools(getWeather()).store(store)
                    .clock(clock).build();
            assertThatThrownBy(() -> withoutBooking.approveToolCall(r.runId(), onlyCallId(r)))
                    .isInstanceOf(UnknownToolException.class).hasMessageContaining("bookFlight");
            assertThat(stored(r.runId())).isEqualTo(before);
        }

        @Test
        void anUnreadableSnapshotGetsAPreciseErrorStaysStoredAndOthersStillList() {
            Agent agent = agent();
            AgentResult good = suspendForApproval(agent, "t", "u");
            Instant t = clock.instant();
            for (String payload : List.of("{\"formatVersion\":1,\"garbage\":true}", "not json at all {",
                    "{\"formatVersion\":99,\"runId\":\"x\"}")) {
                String runId = uniqueId("corrupt");
                RunSnapshot bad = new RunSnapshot(runId, agentId, RunStatus.SUSPENDED, "t", "u", t, t, 1, null, null, payload);
                assertThat(store.insert(bad)).isTrue();
                assertThatThrownBy(() -> agent.approveToolCall(runId, "c")).isInstanceOf(SnapshotFormatException.class)
                        .hasMessageContaining(runId);
                assertThat(stored(runId)).isEqualTo(bad);
            }
            AgentListSuspendedRunsResult listed = agent.listSuspendedRuns(options().threadId("t").build());
            assertThat(listed.total()).isEqualTo(4);
            assertThat(runIds(listed)).contains(good.runId());
            assertThat(agent.approveToolCall(good.runId(), onlyCallId(good)).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        }

        @Test
        void anUnknownFormatVersionNamesTheVersion() {
            Agent agent = agent();
            Instant t = clock.instant();
            String runId = uniqueId("future");
            store.insert(new RunSnapshot(runId, agentId, RunStatus.SUSPENDED, null, null, t, t, 1, null, null,
                    "{\"formatVersion\":7,\"runId\":\"" + runId + "\"}"));
            assertThatThrownBy(() -> agent.resumeStream(Map.of(), runId)).isInstanceOf(SnapshotFormatException.class)
                    .hasMessageContaining("version 7");
            assertThat(stored(runId).version()).isEqualTo(1);
        }
    }

    @Nested
    class Subagents {

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

    @Nested
    class Concurrency {

        @Test
        void exactlyOneOfSixteenConcurrentApprovalsRunsTheToolInEachOfAHundredRounds() throws Exception {
            Agent agent = agent();
            ExecutorService pool = Executors.newFixedThreadPool(16);
            try {
                for (int round = 0; round < 100; round++) {
                    bookings.set(0);
                    AgentResult r = suspendForApproval(agent, "t", "u");
                    String call = onlyCallId(r);
                    CountDownLatch start = new CountDownLatch(1);
                    List<Future<AgentStream>> attempts = new ArrayList<>();
                    for (int i = 0; i < 16; i++) {
                        // each caller is its own Agent instance, as separate servers would be
                        Agent caller = agentBuilder(agentId).instanceId("server-" + i).build();
                        attempts.add(pool.submit(() -> {
                            start.await();
                            return caller.approveToolCall(r.runId(), call);
                        }));
                    }
                    start.countDown();
                    List<AgentStream> winners = new ArrayList<>();
                    int losers = 0;
                    for (Future<AgentStream> f : attempts) {
                        try {
                            winners.add(f.get(60, TimeUnit.SECONDS));
                        } catch (java.util.concurrent.ExecutionException e) {
                            assertThat(e.getCause()).isInstanceOf(RunNotSuspendedException.class)
                                    .hasMessageContaining(r.runId()).hasMessageContaining("no longer suspended");
                            losers++;
                        }
                    }
                    assertThat(winners).as("winners in round %d", round).hasSize(1);
                    assertThat(losers).isEqualTo(15);
                    assertThat(winners.get(0).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
                    assertThat(bookings).as("tool executions in round %d", round).hasValue(1);
                }
            } finally {
                pool.shutdownNow();
            }
        }

        @Test
        void approveDeclineAndResumeRacingOnOneRunLetExactlyOneProceed() throws Exception {
            // one step, two waiting calls: c1 waits for an approval, c2 (askCity) for data
            Agent agent = agentBuilder(agentId).model(recording(scriptedCalls(call("c1", "bookFlight", "to", "SFO"),
                    call("c2", "askCity")))).build();
            ExecutorService pool = Executors.newFixedThreadPool(6);
            try {
                for (int round = 0; round < 20; round++) {
                    bookings.set(0);
                    resumeDataSeen.clear();
                    clock.advance(Duration.ofSeconds(1));
                    AgentResult r = agent.generate("go", on("t", "u"));
                    assertThat(r.waitingCalls()).extracting(AgentRunToolCall::toolCallId).containsExactly("c1", "c2");
                    String[] kinds = {"approve", "decline", "resume", "approve", "decline", "resume"};
                    CountDownLatch start = new CountDownLatch(1);
                    // every caller has tried before the winner reads its stream: a true race, no late arrivals
                    CountDownLatch allTried = new CountDownLatch(kinds.length);
                    List<Future<AgentResult>> attempts = new ArrayList<>();
                    for (int i = 0; i < kinds.length; i++) {
                        String kind = kinds[i];
                        Agent caller = agentBuilder(agentId).model(scriptedCalls()).instanceId("server-" + i).build();
                        attempts.add(pool.submit(() -> {
                            start.await();
                            AgentStream s;
                            try {
                                s = switch (kind) {
                                    case "approve" -> caller.approveToolCall(r.runId(), "c1");
                                    case "decline" -> caller.declineToolCall(r.runId(), "c1", "no");
                                    default -> caller.resumeStream(Map.of("name", "Rome"), ResumeOptions.of(r.runId(), "c2"));
                                };
                            } finally {
                                allTried.countDown();
                            }
                            allTried.await();
                            AgentResult result = s.result();
                            return new AgentResult(kind, result.outcome(), result.text(), result.events(),
                                    result.waitingCalls(), result.error());
                        }));
                    }
                    start.countDown();
                    List<AgentResult> winners = new ArrayList<>();
                    for (Future<AgentResult> f : attempts) {
                        try {
                            winners.add(f.get(60, TimeUnit.SECONDS));
                        } catch (java.util.concurrent.ExecutionException e) {
                            assertThat(e.getCause()).isInstanceOf(RunNotSuspendedException.class)
                                    .hasMessageContaining("no longer suspended");
                        }
                    }
                    assertThat(winners).as("winners in round %d", round).hasSize(1);
                    AgentResult winner = winners.get(0);
                    assertThat(winner.outcome()).as("the other call still waits").isEqualTo(RunOutcome.SUSPENDED);
                    // the runId field carries which action won: the tools ran for that winner only
                    switch (winner.runId()) {
                        case "approve" -> {
                            assertThat(bookings).hasValue(1);
                            assertThat(resumeDataSeen).isEmpty();
                            assertThat(winner.waitingCalls()).extracting(AgentRunToolCall::toolCallId).containsExactly("c2");
                        }
                        case "decline" -> {
                            assertThat(bookings).hasValue(0);
                            assertThat(resumeDataSeen).isEmpty();
                            assertThat(winner.waitingCalls()).extracting(AgentRunToolCall::toolCallId).containsExactly("c2");
                        }
                        default -> {
                            assertThat(bookings).hasValue(0);
                            assertThat(resumeDataSeen).singleElement().extracting(n -> n.path("name").asText()).isEqualTo("Rome");
                            assertThat(winner.waitingCalls()).extracting(AgentRunToolCall::toolCallId).containsExactly("c1");
                        }
                    }
                    agent.discardRun(r.runId());
                }
            } finally {
                pool.shutdownNow();
            }
        }

        @Test
        void runsOfDifferentAgentsOnOneThreadNeverWaitOnEachOther() {
            Agent a = agent();
            Agent b = agentBuilder(agentId + "-b").build();
            AgentResult suspended = suspendForApproval(a, "shared-thread", "shared-user");
            AgentResult other = b.generate("What is the weather?", on("shared-thread", "shared-user"));
            assertThat(other.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(runIds(a.listSuspendedRuns())).containsExactly(suspended.runId());
        }
    }

    @Nested
    class Leases {

        @Test
        void aClaimWhoseLeaseExpiredIsListedAgainAndTheNewHolderFinishesIt() {
            Agent first = agentBuilder(agentId).instanceId("server-a").leaseDuration(Duration.ofSeconds(30)).build();
            AgentResult r = suspendForApproval(first, "t", "u");
            AgentStream abandoned = first.approveToolCall(r.runId(), onlyCallId(r));
            assertThat(first.listSuspendedRuns().total()).isZero();
            clock.advance(Duration.ofSeconds(29));
            assertThat(first.listSuspendedRuns().total()).isZero();
            clock.advance(Duration.ofSeconds(1));
            Agent second = agentBuilder(agentId).instanceId("server-b").build();
            AgentListSuspendedRunsResult listed = second.listSuspendedRuns(options().threadId("t").build());
            assertThat(runIds(listed)).containsExactly(r.runId());
            // the approval was recorded when it was claimed: nothing waits for a human, the run is continued
            assertThat(listed.runs().get(0).toolCalls()).isEmpty();
            assertThat(listed.runs().get(0).interruption()).contains("server-a").contains("lapsed");
            assertThatThrownBy(() -> second.approveToolCall(r.runId(), onlyCallId(r)))
                    .isInstanceOf(dev.baton.ToolCallNotFoundException.class);
            assertThat(second.continueRun(r.runId()).result().outcome()).isEqualTo(RunOutcome.COMPLETED);
            // the old holder wakes up: its claim is gone, so it must not run the tool again
            AgentResult late = abandoned.result();
            assertThat(late.outcome()).isEqualTo(RunOutcome.FAILED);
            assertThat(late.error()).isInstanceOf(dev.baton.LeaseLostException.class);
            assertThat(bookings).hasValue(1);
        }

        @Test
        void aToolResultIsStoredBeforeTheModelIsCalledAgainSoACrashNeverRunsItTwice() {
            AtomicInteger modelCalls = new AtomicInteger();
            LanguageModel crashesOnceAfterTheTool = request -> {
                if (!(request.lastMessage() instanceof Message.User) && modelCalls.incrementAndGet() == 1) {
                    throw new SimulatedCrash();
                }
                return rules().build().stream(request);
            };
            Agent doomed = agentBuilder(agentId).model(crashesOnceAfterTheTool).instanceId("doomed")
                    .leaseDuration(Duration.ofSeconds(10)).build();
            AgentResult r = suspendForApproval(doomed, "t", "u");
            AgentStream stream = doomed.approveToolCall(r.runId(), onlyCallId(r));
            assertThatThrownBy(stream::result).isInstanceOf(SimulatedCrash.class);
            assertThat(bookings).hasValue(1);
            assertThat(doomed.listSuspendedRuns().total()).isZero();
            clock.advance(Duration.ofSeconds(10));
            Agent recovered = agentBuilder(agentId).instanceId("recovered").build();
            AgentRun run = recovered.listSuspendedRuns().runs().get(0);
            assertThat(run.runId()).isEqualTo(r.runId());
            assertThat(run.interrupted()).isTrue();
            assertThat(run.toolCalls()).as("nothing waits for a human: the tool's result is stored").isEmpty();
            AgentResult done = recovered.continueRun(run.runId()).result();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(done.text()).contains("SFO");
            assertThat(bookings).as("the stored result was used; the tool did not run again").hasValue(1);
        }

        @Test
        void aHeartbeatExtendsTheLeaseWhileALongToolRuns() throws Exception {
            CountDownLatch extended = new CountDownLatch(1);
            AtomicReference<String> runIdRef = new AtomicReference<>();
            Map<String, Instant> firstLease = new ConcurrentHashMap<>();
            Tool slow = Tool.builder("bookFlight").requireApproval(true).execute((input, ctx) -> {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (System.nanoTime() < deadline) {
                    RunSnapshot s = store.find(ctx.runId()).orElseThrow();
                    firstLease.putIfAbsent("lease", s.leaseExpiresAt());
                    if (s.leaseExpiresAt().isAfter(firstLease.get("lease"))) {
                        extended.countDown();
                        break;
                    }
                    Thread.sleep(20);
                }
                bookings.incrementAndGet();
                return "ok";
            }).build();
            Agent agent = Agent.builder(agentId).model(rules().build()).tools(slow).store(store)
                    .clock(java.time.Clock.systemUTC()).leaseDuration(Duration.ofMillis(300)).build();
            AgentResult r = agent.generate("flight", on("t", "u"));
            runIdRef.set(r.runId());
            AgentResult done = agent.approveToolCall(r.runId(), onlyCallId(r)).result();
            assertThat(extended.await(0, TimeUnit.SECONDS)).as("the lease was extended during the tool").isTrue();
            assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(bookings).hasValue(1);
        }
    }

    /** Stands for the process dying: not caught by the run loop. */
    protected static final class SimulatedCrash extends Error {
        private static final long serialVersionUID = 1L;

        SimulatedCrash() {
            super("simulated crash");
        }
    }

    protected Message.ToolResult lastToolResult() {
        for (int i = modelInputs.size() - 1; i >= 0; i--) {
            List<Message> msgs = modelInputs.get(i);
            for (int j = msgs.size() - 1; j >= 0; j--) {
                if (msgs.get(j) instanceof Message.ToolResult tr) return tr;
            }
        }
        throw new AssertionError("the model never saw a tool result");
    }
}
