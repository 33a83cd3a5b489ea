package dev.baton.tck.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Rules of {@code DecisionContract}: see the contract's nested class of this name. Not API. */
public abstract class Querying extends DecisionRules {
    private static final Instant T = Instant.parse("2026-06-01T10:00:00Z");
    private static final String[] ACTORS = {"alice", "bob", "a%ce", "al_ce", "ÄLICE \"quoted\" 😀"};

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected Querying(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    /** 60 records over 4 runs (2 threads, 2 resources), 5 actors, 20 instants with ties; seeded. */
    private List<DecisionRecord> seed() {
        Random random = new Random(24);
        List<DecisionRecord> all = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            int run = random.nextInt(4);
            String runId = agentId + "-run-" + run;
            DecisionRecord r = record(runId, ACTORS[random.nextInt(ACTORS.length)], T.plusMillis(1000L * random.nextInt(20)))
                    .threadId("thread-" + (run % 2)).resourceId("resource-" + (run / 2))
                    .kind(DecisionKind.values()[random.nextInt(DecisionKind.values().length)]).build();
            all.add(write(r));
        }
        return all;
    }

    private static List<DecisionRecord> expected(List<DecisionRecord> all, DecisionQuery q) {
        return all.stream().filter(q::matches).sorted(DecisionQuery.ORDER).toList();
    }

    private void check(List<DecisionRecord> all, UnaryOperator<DecisionQuery.Builder> filter) {
        DecisionQuery q = filter.apply(DecisionQuery.forAgent(agentId).limit(7)).build();
        assertThat(all(q)).as(q.toString()).containsExactlyElementsOf(expected(all, q));
    }

    @Test
    void eachFilterAloneAndTogetherMatchesExactlyNewestFirst() {
        List<DecisionRecord> all = seed();
        check(all, b -> b);
        check(all, b -> b.runId(agentId + "-run-2"));
        check(all, b -> b.threadId("thread-1"));
        check(all, b -> b.resourceId("resource-0"));
        for (String actor : ACTORS) check(all, b -> b.actor(actor));
        check(all, b -> b.resourceId("resource-1").actor("bob"));
        check(all, b -> b.threadId("thread-0").from(T.plusSeconds(5)).to(T.plusSeconds(12)));
        check(all, b -> b.runId("no-such-run"));
        check(all, b -> b.actor("a"));   // literal: no prefix or pattern match
        check(all, b -> b.actor("ALICE"));   // no case folding
    }

    @Test
    void fromAndToAreBothInclusiveToTheMillisecond() {
        List<DecisionRecord> all = new ArrayList<>(seed());
        Instant from = T.plusSeconds(3);
        Instant to = T.plusSeconds(4);
        // one record on each side of each bound, a millisecond away
        for (Instant at : List.of(from.minusMillis(1), from, to, to.plusMillis(1))) {
            all.add(write(record(agentId + "-run-bounds", "alice", at).build()));
        }
        DecisionQuery q = DecisionQuery.forAgent(agentId).from(from).to(to).limit(1000).build();
        List<DecisionRecord> got = store.listDecisions(q).items();
        assertThat(got).as("rule D6: from and to are inclusive, to the millisecond; nothing outside them")
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.decidedAt()).isBetween(from, to))
                .anySatisfy(r -> assertThat(r.decidedAt()).isEqualTo(from))
                .anySatisfy(r -> assertThat(r.decidedAt()).isEqualTo(to));
        assertThat(got).as("rule D6: the store's page is the reference's").containsExactlyElementsOf(expected(all, q));
        // bounds finer than a millisecond: from rounds up, to rounds down, as the run listing's createdFrom/createdTo
        DecisionQuery fine = DecisionQuery.forAgent(agentId).from(from.minusNanos(1)).to(to.plusNanos(999_999)).limit(1000).build();
        assertThat(store.listDecisions(fine).items()).as("rule D6: sub-millisecond bounds round inward to the millisecond")
                .containsExactlyElementsOf(got);
    }

    @Test
    void oneInstantIsARangeOfItsOwn() {
        List<DecisionRecord> all = new ArrayList<>(seed());
        all.add(write(record(agentId + "-run-bounds", "bob", T.plusSeconds(3)).build()));
        DecisionQuery q = DecisionQuery.forAgent(agentId).from(T.plusSeconds(3)).to(T.plusSeconds(3)).limit(1000).build();
        assertThat(store.listDecisions(q).items()).as("rule D6: from == to lists the records of that millisecond")
                .isNotEmpty()
                .containsExactlyElementsOf(expected(all, q))
                .allSatisfy(r -> assertThat(r.decidedAt()).isEqualTo(T.plusSeconds(3)));
    }

    @Test
    void cursorPagesVisitEveryRecordOnceInOrderAndTiesAreOrderedByDecisionId() {
        List<DecisionRecord> all = seed();
        List<DecisionRecord> want = expected(all, DecisionQuery.forAgent(agentId).build());
        List<DecisionRecord> got = new ArrayList<>();
        DecisionQuery q = DecisionQuery.forAgent(agentId).limit(6).build();
        for (int page = 0; page < 100; page++) {
            DecisionPage p = store.listDecisions(q);
            assertThat(p.items()).hasSizeLessThanOrEqualTo(6);
            got.addAll(p.items());
            if (p.nextCursor().isEmpty()) break;
            q = q.toBuilder().after(DecisionQuery.After.fromCursor(p.nextCursor().get())).build();
        }
        assertThat(got).containsExactlyElementsOf(want);
        for (int i = 1; i < got.size(); i++) {
            DecisionRecord a = got.get(i - 1);
            DecisionRecord b = got.get(i);
            assertThat(a.decidedAt().isAfter(b.decidedAt())
                    || a.decidedAt().equals(b.decidedAt()) && a.decisionId().compareTo(b.decisionId()) > 0).isTrue();
        }
        DecisionPage exact = store.listDecisions(DecisionQuery.forAgent(agentId).limit(want.size()).build());
        assertThat(exact.hasMore()).as("a page that holds every match has no more").isFalse();
    }

    @Test
    void recordsAreScopedToTheirAgent() {
        List<DecisionRecord> mine = seed();
        String other = "other-" + agentId;
        DecisionRecord theirs = DecisionRecord.builder().decisionId(UUID.randomUUID().toString()).agentId(other)
                .runId(other + "-run").threadId("thread-0").resourceId("resource-0").kind(DecisionKind.APPROVE).actor("alice")
                .instanceId("i").decidedAt(T).build();
        store.insert(dev.baton.tck.support.Snapshots.suspendedAt(other, theirs.runId(), T).threadId("thread-0").resourceId("resource-0").build());
        assertThat(store.compareAndSet(1, claimed(store.find(theirs.runId()).orElseThrow(), T), List.of(theirs))).isTrue();
        assertThat(all(DecisionQuery.forAgent(agentId).resourceId("resource-0").build())).doesNotContain(theirs)
                .containsExactlyElementsOf(expected(mine, DecisionQuery.forAgent(agentId).resourceId("resource-0").build()));
        assertThat(all(DecisionQuery.forAgent(other).build())).containsExactly(theirs);
    }

    @Test
    void everyFieldIsKeptVerbatimIncludingNullsAndLongText() {
        String reason = "why: \u00e9\u4e2d\ud83d\ude00 'quoted' \"double\" %_* \\ \n".repeat(200);
        DecisionRecord full = record(agentId + "-verbatim", "🙂 actor %_", T).reason(reason).idempotencyKey("k-" + agentId)
                .argsDigestBefore("b".repeat(64)).argsDigestAfter("c".repeat(64)).kind(DecisionKind.EDIT).build();
        DecisionRecord sparse = DecisionRecord.builder().decisionId(UUID.randomUUID().toString()).agentId(agentId)
                .runId(agentId + "-verbatim").kind(DecisionKind.CONTINUE).actor(DecisionRecord.UNKNOWN).instanceId("i")
                .decidedAt(T.plusNanos(1_234_567)).build();
        write(full);
        write(sparse);
        assertThat(recordsOf(agentId + "-verbatim")).containsExactly(sparse, full);
        assertThat(sparse.decidedAt()).isEqualTo(T.plusMillis(1));
    }
}
