package dev.baton.tck.decision;

import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentBuilder;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.tck.support.MutableClock;
import dev.baton.tck.support.Snapshots;
import dev.baton.tck.support.StoreRules;
import dev.baton.tck.support.StoreUnderTest;
import dev.baton.tool.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;

/**
 * What every rule group of {@code DecisionContract} works with: the store of the running test
 * (skipped if it keeps no decisions), an agent id of its own, a clock the test moves, records and
 * runs to write, and an agent whose tools need approval.
 */
abstract class DecisionRules extends StoreRules {
    final MutableClock clock = new MutableClock(Instant.parse("2026-06-01T09:00:00Z"));
    final String agentId = uniqueId("tck-decisions");
    final AtomicInteger charges = new AtomicInteger();
    final List<Map<String, Object>> chargedWith = new java.util.concurrent.CopyOnWriteArrayList<>();

    DecisionRules(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @BeforeEach
    void needsDecisions() {
        assumeTrue(store.capabilities().contains(StoreCapability.DECISIONS), "the store keeps no decisions");
    }

    SnapshotStore reopen() throws Exception {
        return openStore();
    }

    /** A record of {@code runId} by {@code actor} at {@code at}, with every field set. */
    DecisionRecord.Builder record(String runId, String actor, Instant at) {
        return DecisionRecord.builder().decisionId(UUID.randomUUID().toString()).agentId(agentId).runId(runId)
                .threadId("thread-" + runId).resourceId("resource-" + runId).toolCallId("call-1").toolName("charge")
                .kind(DecisionKind.APPROVE).actor(actor).instanceId("tck-instance").decidedAt(at).reason("ok")
                .argsDigestBefore("a".repeat(64)).argsDigestAfter("a".repeat(64));
    }

    /** A suspended run of this agent, stored at version 1. */
    RunSnapshot storedRun(String runId, String threadId, String resourceId) {
        RunSnapshot s = Snapshots.suspendedAt(agentId, runId, Snapshots.T0).threadId(threadId).resourceId(resourceId).build();
        if (!store.insert(s)) throw new AssertionError("could not insert " + runId);
        return s;
    }

    /** The run's next version, claimed (resuming) by the TCK. */
    static RunSnapshot claimed(RunSnapshot s, Instant now) {
        return s.toBuilder().version(s.version() + 1).status(RunStatus.RESUMING).lease("tck", now.plusSeconds(60)).build();
    }

    /** Stores one record through a decision write on a fresh run of its own (insert, then CAS with the record). */
    DecisionRecord write(DecisionRecord r) {
        RunSnapshot s = Snapshots.suspendedAt(agentId, r.runId(), Snapshots.T0).threadId(r.threadId()).resourceId(r.resourceId()).build();
        if (store.find(r.runId()).isEmpty() && !store.insert(s)) throw new AssertionError("could not insert " + r.runId());
        RunSnapshot now = store.find(r.runId()).orElseThrow();
        if (!store.compareAndSet(now.version(), claimed(now, r.decidedAt()), List.of(r))) {
            throw new AssertionError("the decision write of " + r + " was refused");
        }
        return r;
    }

    /** Every record matching {@code q}, read page by page (bounded). */
    List<DecisionRecord> all(DecisionQuery q) {
        List<DecisionRecord> out = new ArrayList<>();
        DecisionQuery page = q;
        for (int i = 0; i < 10_000; i++) {
            DecisionPage p = store.listDecisions(page);
            out.addAll(p.items());
            if (!p.hasMore()) return out;
            page = page.toBuilder().after(DecisionQuery.After.of(p.items().get(p.items().size() - 1))).build();
        }
        throw new AssertionError("more than 10000 pages");
    }

    Tool charge() {
        return Tool.builder("charge").description("Charges a card")
                .inputSchema("{\"type\":\"object\",\"required\":[\"amount\"],"
                        + "\"properties\":{\"amount\":{\"type\":\"integer\",\"minimum\":1}}}")
                .requireApproval(true).execute((input, ctx) -> {
                    charges.incrementAndGet();
                    chargedWith.add(Map.of("amount", input.path("amount").asInt()));
                    return Map.of("charged", input.path("amount").asInt());
                }).build();
    }

    /** What the model was given on each call. */
    final List<List<dev.baton.model.Message>> modelInputs = new java.util.concurrent.CopyOnWriteArrayList<>();

    LanguageModel model() {
        LanguageModel rules = DeterministicModel.builder()
                .whenUserSays("charge", "charge", Map.of("amount", 10)).build();
        return request -> {
            modelInputs.add(request.messages());
            return rules.stream(request);
        };
    }

    /** A run of {@code agent} in thread {@code t} of resource {@code u}, waiting to approve charge(10). */
    static dev.baton.agent.AgentResult suspend(Agent agent, String t, String u) {
        dev.baton.agent.AgentResult r = agent.generate("charge it",
                dev.baton.agent.RunOptions.builder().threadId(t).resourceId(u).build());
        if (r.outcome() != dev.baton.agent.RunOutcome.SUSPENDED) throw new AssertionError("did not suspend: " + r);
        return r;
    }

    static String callId(dev.baton.agent.AgentResult r) {
        return r.waitingCalls().get(0).toolCallId();
    }

    /** Every record of one run, newest first. */
    List<DecisionRecord> recordsOf(String runId) {
        return all(DecisionQuery.forAgent(agentId).runId(runId).build());
    }

    AgentBuilder agentBuilder(SnapshotStore s) {
        return Agent.builder(agentId).model(model()).tools(charge()).store(s).clock(clock)
                .instanceId("tck-" + agentId).pickupTimeout(Duration.ofMinutes(30));
    }

    Agent agent() {
        return agentBuilder(store).build();
    }
}
