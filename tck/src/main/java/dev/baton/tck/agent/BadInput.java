package dev.baton.tck.agent;

import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Ids;
import dev.baton.InvalidOptionException;
import dev.baton.ResumeMismatchException;
import dev.baton.RunNotFoundException;
import dev.baton.SnapshotFormatException;
import dev.baton.ToolCallNotFoundException;
import dev.baton.UnknownToolException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.ApproveOptions;
import dev.baton.agent.DecisionOptions;
import dev.baton.agent.DeclineOptions;
import dev.baton.agent.ExpiryPolicy;
import dev.baton.agent.ResumeOptions;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.memory.Memory;
import dev.baton.store.DecisionRecord;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.Snapshots;
import dev.baton.tck.support.StoreUnderTest;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Bad requests (an unknown run, tool call or tool, the wrong kind of decision, a finished run, an
 * unreadable snapshot) get a precise exception, are refused before anything runs, and change nothing.
 */
public abstract class BadInput extends AgentRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected BadInput(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    /**
     * Every id a caller hands core (run, thread, resource, agent, tool call) is held to one limit,
     * {@link Ids#LIMIT}, before the store is called or anything runs: an empty id, one of 256 UTF-8
     * bytes (ASCII or not), one with NUL, a line break or an unpaired surrogate is refused with an
     * {@link InvalidOptionException} naming the field and the limit; an id of exactly 255 UTF-8 bytes
     * is kept by the store as it was given, listed by, and approved.
     */
    @Test
    void idsAreCheckedAgainstOneLimitBeforeAnythingRuns() {
        String longest = "\u00e9".repeat(127) + "x";   // 255 UTF-8 bytes, 128 chars
        assertThat(longest.getBytes(StandardCharsets.UTF_8)).hasSize(Ids.MAX_BYTES);
        List<String> bad = List.of("", "x".repeat(256), "\u00e9".repeat(128), "a\u0000b", "line\nbreak", "del\u007f",
                "half\uD800", "\uDC00low");
        AtomicInteger storeCalls = new AtomicInteger();
        SnapshotStore counting = counting(store, storeCalls);
        Agent agent = agent();
        AgentResult r = suspendForApproval(agent, "t", "u");
        RunSnapshot before = stored(r.runId());
        Agent watched = agentBuilder(agentId).store(counting).build();
        storeCalls.set(0);
        for (String id : bad) {
            refused(() -> RunOptions.builder().threadId(id).build(), "threadId");
            refused(() -> RunOptions.builder().resourceId(id).build(), "resourceId");
            refused(() -> options().threadId(id).build(), "threadId");
            refused(() -> options().resourceId(id).build(), "resourceId");
            refused(() -> ResumeOptions.of(id), "runId");
            refused(() -> ResumeOptions.of(r.runId(), id), "toolCallId");
            refused(() -> watched.approveToolCall(id, onlyCallId(r)), "runId");
            refused(() -> watched.approveToolCall(r.runId(), id), "toolCallId");
            refused(() -> watched.declineToolCall(id, onlyCallId(r), "no"), "runId");
            refused(() -> watched.declineToolCall(r.runId(), id), "toolCallId");
            refused(() -> watched.resumeStream(Map.of("name", "Paris"), id), "runId");
            refused(() -> watched.continueRun(id), "runId");
            refused(() -> watched.discardRun(id), "runId");
            refused(() -> watched.cancelRun(id, "no"), "runId");
            if (!id.isBlank()) refused(() -> Agent.builder(id), "id");
        }
        assertThat(storeCalls).as("store calls made for refused ids").hasValue(0);
        assertThat(bookings).hasValue(0);
        assertThat(stored(r.runId())).isEqualTo(before);

        String resource = "r".repeat(Ids.MAX_BYTES);
        AgentResult longestIds = suspendForApproval(agent, longest, resource);
        RunSnapshot kept = stored(longestIds.runId());
        assertThat(kept.threadId()).isEqualTo(longest);
        assertThat(kept.resourceId()).isEqualTo(resource);
        assertThat(runIds(agent.listSuspendedRuns(options().threadId(longest).resourceId(resource).build())))
                .containsExactly(longestIds.runId());
        assertThat(agent.approveToolCall(longestIds.runId(), onlyCallId(longestIds)).result().outcome())
                .isEqualTo(RunOutcome.COMPLETED);
        assertThat(bookings).hasValue(1);
    }

    /** {@code real}, counting every call made to it in {@code calls}: a refusal "before anything runs" makes none. */
    private static SnapshotStore counting(SnapshotStore real, AtomicInteger calls) {
        return (SnapshotStore) Proxy.newProxyInstance(SnapshotStore.class.getClassLoader(),
                new Class<?>[] {SnapshotStore.class}, (proxy, method, args) -> {
                    if (method.getDeclaringClass() != Object.class) calls.incrementAndGet();
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /**
     * Rule S10: free text a caller hands core to be stored (a decision's reason, actor and idempotency
     * key, a cancel reason, an expiry policy's reason, a thread's title, the actor filter of the audit
     * trail) holds no NUL and no unpaired surrogate, which some stores cannot keep: refused with an
     * {@link InvalidOptionException} naming the field before the store is called or anything runs;
     * the run stays as it was. Text with line breaks, tabs and characters outside the BMP is kept
     * verbatim.
     */
    @Test
    void freeTextHoldingNulIsRefusedNamingTheFieldBeforeAnythingRuns() {
        AtomicInteger storeCalls = new AtomicInteger();
        SnapshotStore counting = counting(store, storeCalls);
        Agent agent = agent();
        AgentResult r = suspendForApproval(agent, "t", "u");
        RunSnapshot before = stored(r.runId());
        Agent watched = agentBuilder(agentId).store(counting).build();
        String call = onlyCallId(r);
        Memory memory = store.capabilities().contains(StoreCapability.THREAD_MEMORY)
                ? Memory.builder().store(counting).build() : null;
        storeCalls.set(0);
        for (String bad : List.of("no\u0000way", "\u0000", "half\uD800", "\uDC00low")) {
            refusedText(() -> watched.declineToolCall(r.runId(), call, bad), "reason");
            refusedText(() -> DeclineOptions.builder().actor(bad).build(), "actor");
            refusedText(() -> ApproveOptions.builder().reason(bad).build(), "reason");
            refusedText(() -> ApproveOptions.builder().actor(bad).build(), "actor");
            refusedText(() -> ApproveOptions.builder().idempotencyKey(bad).build(), "idempotencyKey");
            refusedText(() -> DecisionOptions.builder().reason(bad).build(), "reason");
            refusedText(() -> watched.cancelRun(r.runId(), bad), "reason");
            refusedText(() -> ExpiryPolicy.decline(bad), "reason");
            refusedText(() -> ExpiryPolicy.cancel(bad), "reason");
            refusedText(() -> AgentListDecisionsOptions.builder().actor(bad).build(), "actor");
            if (memory != null) refusedText(() -> memory.createThread("u", bad, null), "title");
        }
        assertThat(storeCalls).as("rule S10: store calls made for refused free text").hasValue(0);
        assertThat(bookings).as("rule S10: tools run for refused free text").hasValue(0);
        assertThat(stored(r.runId())).as("rule S10: the run after refused free text").isEqualTo(before);

        String verbatim = "line one\nline two\ttabbed \uD83D\uDE80 \u00e9";
        agent.declineToolCall(r.runId(), call, DeclineOptions.builder().reason(verbatim).actor("maria \uD83D\uDE80")
                .build()).result();
        assertThat(lastToolResult().result().asText()).as("rule S10: what the model is told of a declined call")
                .isEqualTo(verbatim);
        if (store.capabilities().contains(StoreCapability.DECISIONS)) {
            DecisionRecord d = agent.listDecisions(AgentListDecisionsOptions.builder().runId(r.runId()).build())
                    .items().get(0);
            assertThat(d.reason()).as("rule S10: a reason with line breaks, tabs and an emoji, as recorded")
                    .isEqualTo(verbatim);
            assertThat(d.actor()).as("rule S10: an actor with an emoji, as recorded").isEqualTo("maria \uD83D\uDE80");
        }
    }

    private static void refusedText(ThrowingCallable call, String field) {
        assertThatThrownBy(call).as("rule S10: free text holding NUL or an unpaired surrogate, as " + field)
                .isInstanceOf(InvalidOptionException.class)
                .satisfies(e -> assertThat(((InvalidOptionException) e).option()).as("the option named").isEqualTo(field))
                .hasMessageContaining(field);
    }

    private static void refused(ThrowingCallable call, String field) {
        assertThatThrownBy(call).isInstanceOf(InvalidOptionException.class)
                .satisfies(e -> assertThat(((InvalidOptionException) e).option()).isEqualTo(field))
                .hasMessageContaining(field).hasMessageContaining(Ids.LIMIT);
    }

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
        if (store.capabilities().contains(dev.baton.store.StoreCapability.DECISIONS)) {
            // the store kept the decision: it says who decided and that the run has ended (rule D8)
            assertThatThrownBy(() -> agent.declineToolCall(r.runId(), onlyCallId(r)))
                    .isInstanceOf(dev.baton.AlreadyDecidedException.class).hasMessageContaining("approve").hasMessageContaining("ended");
        } else {
            assertThatThrownBy(() -> agent.declineToolCall(r.runId(), onlyCallId(r)))
                    .isInstanceOf(RunNotFoundException.class).hasMessageContaining("No snapshot found");
        }
        assertThatThrownBy(() -> agent.approveToolCall(r.runId(), onlyCallId(r)))
                .isInstanceOf(store.capabilities().contains(dev.baton.store.StoreCapability.DECISIONS)
                        ? dev.baton.AlreadyDecidedException.class : RunNotFoundException.class);
        assertThatThrownBy(() -> agent.approveToolCall("no-such-run", onlyCallId(r))).isInstanceOf(RunNotFoundException.class);
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
        for (String payload : List.of("{\"formatVersion\":2,\"garbage\":true}", "not json at all {",
                "{\"formatVersion\":99,\"runId\":\"x\"}")) {
            String runId = uniqueId("corrupt");
            RunSnapshot bad = Snapshots.suspendedAt(agentId, runId, t).threadId("t").resourceId("u").payload(payload).build();
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
        store.insert(Snapshots.suspendedAt(agentId, runId, t)
                .payload("{\"formatVersion\":7,\"runId\":\"" + runId + "\"}").build());
        assertThatThrownBy(() -> agent.resumeStream(Map.of(), runId)).isInstanceOf(SnapshotFormatException.class)
                .hasMessageContaining("version 7");
        assertThat(stored(runId).version()).isEqualTo(1);
    }
}
