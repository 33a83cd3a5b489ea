package dev.baton.tck.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.StoreCapability;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Rules of {@code DecisionContract}: see the contract's nested class of this name. Not API.
 *
 * <p>The store's decision records written straight through the SPI, without an agent, against its reference
 * predicate and order ({@link DecisionQuery#matches}, {@link DecisionQuery#ORDER}): written with their run's
 * change, refused with it, kept after the run, every filter combination paged through with cursors, looked up
 * by key, purged oldest first; seeded.
 */
public abstract class AgainstTheReference extends DecisionRules {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected AgainstTheReference(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    private static RunSnapshot run(String agentId, String runId, String thread, String resource) {
        return RunSnapshot.builder().runId(runId).agentId(agentId).status(RunStatus.SUSPENDED).threadId(thread)
                .resourceId(resource).createdAt(T0).suspendedAt(T0).payload("{\"p\":1}").summary("{}").build();
    }

    private static DecisionRecord recordOf(RunSnapshot run, String actor, Instant at, String key) {
        return DecisionRecord.builder().decisionId(UUID.randomUUID().toString()).agentId(run.agentId()).runId(run.runId())
                .threadId(run.threadId()).resourceId(run.resourceId()).toolCallId("call-1").toolName("charge")
                .kind(DecisionKind.APPROVE).actor(actor).instanceId("i-1").decidedAt(at).reason("ok \u00e9")
                .argsDigestBefore("a".repeat(64)).argsDigestAfter("b".repeat(64)).idempotencyKey(key).build();
    }

    @Test
    void recordsGoWithTheirWriteAndStayAfterTheRun() {
        assertThat(store.capabilities()).contains(StoreCapability.DECISIONS);
        RunSnapshot r = run(agentId, "run-" + UUID.randomUUID(), "t\u00fc*", null);
        assertThat(store.insert(r)).isTrue();
        DecisionRecord first = recordOf(r, "alice", T0.plusMillis(5), "key-1");
        RunSnapshot v2 = r.suspended(T0.plusSeconds(1), "{\"p\":2}");
        assertThat(store.compareAndSet(1, v2, List.of(first))).isTrue();
        assertThat(store.find(r.runId())).contains(v2);

        // a taken key, or a taken id, refuses the whole write
        RunSnapshot v3 = v2.suspended(T0.plusSeconds(2), "{\"p\":3}");
        assertThat(store.compareAndSet(2, v3, List.of(recordOf(r, "bob", T0.plusMillis(6), "key-1")))).isFalse();
        assertThat(store.compareAndSet(2, v3, List.of(first.toBuilder().idempotencyKey(null).build()))).isFalse();
        assertThat(store.delete(r.runId(), 2, List.of(recordOf(r, "bob", T0.plusMillis(6), "key-1")))).isFalse();
        assertThat(store.find(r.runId())).contains(v2);
        // a lost race records nothing
        assertThat(store.compareAndSet(1, v3, List.of(recordOf(r, "bob", T0.plusMillis(6), null)))).isFalse();

        DecisionRecord last = recordOf(r, "bob", T0.plusMillis(7), null).toBuilder().kind(DecisionKind.DISCARD)
                .toolCallId(null).toolName(null).argsDigestBefore(null).argsDigestAfter(null).reason(null).build();
        assertThat(store.delete(r.runId(), 2, List.of(last))).isTrue();
        assertThat(store.find(r.runId())).isEmpty();
        assertThat(store.listDecisions(DecisionQuery.forAgent(agentId).runId(r.runId()).build()).items()).containsExactly(last, first);
        assertThat(store.findDecision(agentId, "key-1")).contains(first);
        assertThat(store.findDecision(agentId, "key-2")).isEmpty();
        assertThat(store.findDecision("other-" + agentId, "key-1")).isEmpty();
        // the run id may be used again, and its new records join the old ones
        assertThat(store.insert(r)).isTrue();
        DecisionRecord again = recordOf(r, "carol", T0.plusMillis(7), "key-2");
        assertThat(store.compareAndSet(1, v2, List.of(again))).isTrue();
        assertThat(store.listDecisions(DecisionQuery.forAgent(agentId).runId(r.runId()).build()).items())
                .containsExactlyElementsOf(sorted(List.of(first, last, again)));
    }

    @Test
    void everyFilterCombinationPagesLikeTheReference() {
        Random random = new Random(24);
        String other = agentId + "-other";
        List<DecisionRecord> all = new ArrayList<>();
        String[] threads = {"t1", "t2", null};
        String[] resources = {"u1", "u\u00e92", null};
        String[] actors = {"alice", "bob", "system"};
        for (int i = 0; i < 30; i++) {
            String owner = i % 6 == 5 ? other : agentId;
            RunSnapshot r = run(owner, "run-" + i + "-" + agentId, threads[random.nextInt(3)], resources[random.nextInt(3)]);
            assertThat(store.insert(r)).isTrue();
            RunSnapshot cur = r;
            int writes = 1 + random.nextInt(3);
            for (int w = 0; w < writes; w++) {
                List<DecisionRecord> batch = new ArrayList<>();
                int n = 1 + random.nextInt(3);
                for (int k = 0; k < n; k++) {
                    // few distinct instants, so ties are frequent
                    batch.add(recordOf(r, actors[random.nextInt(3)], T0.plusMillis(random.nextInt(20)),
                            random.nextInt(4) == 0 ? "k-" + i + "-" + w + "-" + k : null));
                }
                RunSnapshot next = cur.suspended(T0.plusSeconds(w + 1), "{}");
                boolean deleting = w == writes - 1 && random.nextBoolean();
                assertThat(deleting ? store.delete(r.runId(), cur.version(), batch) : store.compareAndSet(cur.version(), next, batch))
                        .isTrue();
                cur = next;
                all.addAll(batch);
            }
        }
        for (int q = 0; q < 60; q++) {
            DecisionQuery.Builder b = DecisionQuery.forAgent(random.nextInt(8) == 0 ? other : agentId)
                    .limit(1 + random.nextInt(7));
            DecisionRecord pick = all.get(random.nextInt(all.size()));
            if (random.nextInt(4) == 0) b.runId(pick.runId());
            if (random.nextInt(3) == 0) b.threadId(pick.threadId() == null ? "t1" : pick.threadId());
            if (random.nextInt(3) == 0) b.resourceId(pick.resourceId() == null ? "u1" : pick.resourceId());
            if (random.nextInt(3) == 0) b.actor(pick.actor());
            if (random.nextInt(3) == 0) b.from(T0.plusMillis(random.nextInt(20)));
            if (random.nextInt(3) == 0) b.to(T0.plusMillis(random.nextInt(21)));
            DecisionQuery query = b.build();
            List<DecisionRecord> expected = sorted(all.stream().filter(query::matches).toList());
            List<DecisionRecord> got = new ArrayList<>();
            DecisionQuery page = query;
            for (int guard = 0; guard < 200; guard++) {
                DecisionPage p = store.listDecisions(page);
                assertThat(p.items().size()).isLessThanOrEqualTo(query.limit());
                got.addAll(p.items());
                if (!p.hasMore()) break;
                page = query.toBuilder().after(DecisionQuery.After.fromCursor(p.nextCursor().orElseThrow())).build();
            }
            assertThat(got).as("query %s", query).containsExactlyElementsOf(expected);
        }
        // retention: oldest first, in batches, only this agent's, only older ones
        Instant cut = T0.plusMillis(10);
        int purged = 0;
        for (int guard = 0; guard < 100; guard++) {
            int n = store.purgeDecisions(agentId, cut, 4);
            assertThat(n).isBetween(0, 4);
            purged += n;
            if (n < 4) break;
        }
        List<DecisionRecord> kept = all.stream().filter(d -> !(d.agentId().equals(agentId) && d.decidedAt().isBefore(cut))).toList();
        assertThat(purged).isEqualTo(all.size() - kept.size());
        for (String a : List.of(agentId, other)) {
            List<DecisionRecord> left = new ArrayList<>();
            DecisionQuery query = DecisionQuery.forAgent(a).limit(1000).build();
            left.addAll(store.listDecisions(query).items());
            assertThat(left).containsExactlyElementsOf(sorted(kept.stream().filter(d -> d.agentId().equals(a)).toList()));
        }
        for (DecisionRecord d : all) {
            if (d.idempotencyKey() != null) {
                assertThat(store.findDecision(d.agentId(), d.idempotencyKey())).isEqualTo(kept.contains(d)
                        ? Optional.of(d) : Optional.empty());
            }
        }
    }

    private static List<DecisionRecord> sorted(List<DecisionRecord> records) {
        List<DecisionRecord> s = new ArrayList<>(records);
        s.sort(DecisionQuery.ORDER);
        return s;
    }
}
