package dev.baton.tck.listing;

import static dev.baton.tck.support.Snapshots.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.StoreUnderTest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/**
 * A cursor ({@code RunQuery.After}) continues strictly after a position in listing order, with every
 * filter and date bound applied and the total unchanged: stable while runs are inserted and deleted,
 * and as the reference model ({@code RunQuery.matches}, {@code After.precedes}) says.
 */
public abstract class KeysetPaging extends ListingRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected KeysetPaging(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void aCursorContinuesStrictlyAfterTheLastRunOfThePreviousPageInListingOrder() {
        for (int i = 0; i < 7; i++) insert(run("r" + i, "t", i / 2 * 1000, null));   // ties in pairs
        List<String> all = ids(store.list(query().build()).items());
        List<String> walked = new ArrayList<>();
        RunQuery.After after = null;
        while (true) {
            RunPage page = store.list(query().after(after, 3).build());
            assertThat(page.total()).as("the total ignores the cursor").isEqualTo(7);
            if (page.items().isEmpty()) break;
            walked.addAll(ids(page.items()));
            RunSnapshot last = page.items().get(page.items().size() - 1);
            after = new RunQuery.After(last.createdAt(), last.runId());
        }
        assertThat(walked).isEqualTo(all);
    }

    @Test
    void aCursorCombinesWithFiltersAndDates() {
        for (int i = 0; i < 6; i++) insert(run("r" + i, i % 2 == 0 ? "even" : "odd", i * 1000, null));
        RunPage page = store.list(query().threadId("even").createdTo(T0.plusMillis(4000))
                .after(new RunQuery.After(T0.plusMillis(4000), id("r4")), 10).build());
        assertThat(ids(page.items())).containsExactly("r2", "r0");
        assertThat(page.total()).isEqualTo(3);
    }

    @Test
    void aCursorAtARunThatIsGoneStillContinuesFromItsPosition() {
        for (int i = 0; i < 4; i++) insert(run("r" + i, "t", i * 1000, null));
        assertThat(store.delete(id("r2"), 1)).isTrue();
        RunPage page = store.list(query().after(new RunQuery.After(T0.plusMillis(2000), id("r2")), 10).build());
        assertThat(ids(page.items())).containsExactly("r1", "r0");
    }

    @Test
    void aCursorAndAnOffsetDoNotGoTogether() {
        assertThatThrownBy(() -> RunQuery.forAgent(agent, T0).status(RunStatus.SUSPENDED)
                .after(new RunQuery.After(T0, "x"), 10).page(5, 10).build()).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Walks every page with a cursor while another thread inserts and deletes runs: no run that
     * stayed suspended the whole time is skipped or repeated. Seeded, so a failure replays.
     */
    @RepeatedTest(4)
    void pagingWithACursorIsStableUnderConcurrentInsertsAndDeletes(RepetitionInfo repetition) throws Exception {
        Random random = new Random(4242L + repetition.getCurrentRepetition());
        List<String> stable = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            String name = "s" + i;
            insert(run(name, "t", random.nextInt(40) * 1000L, null));   // many ties
            stable.add(name);
        }
        Set<String> churn = ConcurrentHashMap.newKeySet();
        AtomicBoolean walking = new AtomicBoolean(true);
        long seed = random.nextLong();
        Thread writer = new Thread(() -> {
            Random r = new Random(seed);
            int n = 0;
            while (walking.get() && n < 400) {
                String name = "c" + n++;
                if (store.insert(run(name, "t", r.nextInt(40) * 1000L, null))) churn.add(name);
                if (!churn.isEmpty() && r.nextBoolean()) {
                    String gone = churn.iterator().next();
                    if (store.delete(id(gone), 1)) churn.remove(gone);
                }
            }
        });
        writer.start();
        List<String> seen = new ArrayList<>();
        RunQuery.After after = null;
        try {
            for (int pages = 0; pages < 1000; pages++) {
                RunPage page = store.list(query().after(after, 1 + random.nextInt(7)).withPayload(false).build());
                if (page.items().isEmpty()) break;
                seen.addAll(ids(page.items()));
                RunSnapshot last = page.items().get(page.items().size() - 1);
                after = new RunQuery.After(last.createdAt(), last.runId());
            }
        } finally {
            walking.set(false);
            writer.join(30_000);
        }
        assertThat(new HashSet<>(seen)).as("no run is repeated").hasSameSizeAs(seen);
        assertThat(seen).as("no run that stayed is skipped").containsAll(stable);
    }

    @Test
    void cursorPagesAgreeWithTheReferenceModelOnSeededRandomData() {
        Random random = new Random(99L);
        List<RunSnapshot> runs = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            runs.add(insert(run("k" + random.nextInt(1000) + "-" + i, random.nextBoolean() ? "a" : "b",
                    random.nextInt(20) * 1000L, null)));
        }
        for (int q = 0; q < 40; q++) {
            String thread = random.nextInt(3) == 0 ? null : random.nextBoolean() ? "a" : "b";
            RunSnapshot pivot = runs.get(random.nextInt(runs.size()));
            RunQuery.After after = new RunQuery.After(pivot.createdAt(), pivot.runId());
            int limit = 1 + random.nextInt(10);
            RunQuery rq = query().threadId(thread).after(after, limit).build();
            List<String> expected = ids(runs.stream().filter(rq::matches).filter(after::precedes).sorted(RunQuery.ORDER)
                    .limit(limit).toList());
            RunPage page = store.list(rq);
            assertThat(ids(page.items())).as("query %d: thread %s after %s", q, thread, after).isEqualTo(expected);
            assertThat(page.total()).isEqualTo(runs.stream().filter(rq::matches).count());
        }
    }
}
