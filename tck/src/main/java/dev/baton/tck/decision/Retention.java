package dev.baton.tck.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.agent.AgentResult;
import dev.baton.agent.ApproveOptions;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Rules of {@code DecisionContract}: see the contract's nested class of this name. Not API. */
public abstract class Retention extends DecisionRules {
    private static final Instant T = Instant.parse("2026-06-01T10:00:00Z");

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Retention(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void purgingDeletesOnlyOlderRecordsOldestFirstInBatchesAndOnlyTheAgents() {
        List<DecisionRecord> written = new ArrayList<>();
        for (int i = 0; i < 10; i++) written.add(write(record(agentId + "-r" + i, "alice", T.plusSeconds(i)).build()));
        String other = "other-" + agentId;
        DecisionRecord theirs = DecisionRecord.builder().decisionId(UUID.randomUUID().toString()).agentId(other).runId(other + "-r")
                .kind(dev.baton.store.DecisionKind.APPROVE).actor("x").instanceId("i").decidedAt(T).build();
        store.insert(dev.baton.tck.support.Snapshots.suspendedAt(other, theirs.runId(), T).build());
        store.compareAndSet(1, claimed(store.find(theirs.runId()).orElseThrow(), T), List.of(theirs));
        assertThat(store.purgeDecisions(agentId, T.plusSeconds(5), 3)).isEqualTo(3);
        assertThat(all(DecisionQuery.forAgent(agentId).build())).containsExactlyElementsOf(newestFirst(written.subList(3, 10)));
        assertThat(store.purgeDecisions(agentId, T.plusSeconds(5), 3)).isEqualTo(2);
        assertThat(store.purgeDecisions(agentId, T.plusSeconds(5), 3)).isZero();
        assertThat(all(DecisionQuery.forAgent(agentId).build())).containsExactlyElementsOf(newestFirst(written.subList(5, 10)));
        assertThat(all(DecisionQuery.forAgent(other).build())).containsExactly(theirs);
    }

    private static List<DecisionRecord> newestFirst(List<DecisionRecord> l) {
        List<DecisionRecord> out = new ArrayList<>(l);
        java.util.Collections.reverse(out);
        return out;
    }

    @Test
    void aRetentionPurgesOldRecordsWhenDueRunsAreExpired() {
        Agent agent = agentBuilder(store).decisionRetention(Duration.ofDays(30)).build();
        AgentResult old = suspend(agent, "t", "u");
        agent.approveToolCall(old.runId(), callId(old), ApproveOptions.builder().actor("alice").build()).result();
        clock.advance(Duration.ofDays(20));
        AgentResult recent = suspend(agent, "t", "u");
        agent.approveToolCall(recent.runId(), callId(recent), ApproveOptions.builder().actor("bob").build()).result();
        clock.advance(Duration.ofDays(15));
        agent.expireDueRuns(10);
        assertThat(agent.listDecisions(AgentListDecisionsOptions.all()).items()).extracting(DecisionRecord::actor).containsExactly("bob");
        clock.advance(Duration.ofDays(30));
        assertThat(agent.purgeDecisions(clock.instant())).isEqualTo(1);
        assertThat(agent.listDecisions(AgentListDecisionsOptions.all()).items()).isEmpty();
    }
}
