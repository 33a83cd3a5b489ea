package dev.baton.tck.snapshot;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random data and random queries, checked against {@link RunQuery#matches} and
 * {@link RunQuery#ORDER} computed here in Java: the store must give the same answers.
 */
public abstract class AgainstAReferenceModel extends SnapshotStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected AgainstAReferenceModel(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void randomQueriesAgreeWithTheReferenceModel() {
        Random random = new Random(20261202L);
        List<String> agents = List.of(agent, agent + "-b");
        List<String> threads = List.of("t0", "t1", "t2");
        List<String> resources = List.of("r0", "r1");
        Instant now = T0.plusSeconds(50);
        List<RunSnapshot> all = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            RunSnapshot s = suspended(agents.get(random.nextInt(2)), agent + "-m" + i,
                    random.nextInt(5) == 0 ? null : threads.get(random.nextInt(3)),
                    random.nextInt(5) == 0 ? null : resources.get(random.nextInt(2)),
                    random.nextInt(40) * 1000L);
            insert(s);
            int lease = random.nextInt(4);
            if (lease == 1) s = claim(s, now.plusSeconds(10));
            if (lease == 2) s = claim(s, now.minusSeconds(10));
            all.add(s);
        }
        for (int i = 0; i < 150; i++) {
            RunQuery.Builder b = RunQuery.forAgent(agents.get(random.nextInt(2)), now);
            if (random.nextBoolean()) b.threadId(threads.get(random.nextInt(3)));
            if (random.nextInt(3) == 0) b.resourceId(resources.get(random.nextInt(2)));
            if (random.nextInt(3) == 0) b.createdFrom(T0.plusMillis(random.nextInt(40) * 1000L));
            if (random.nextInt(3) == 0) b.createdTo(T0.plusMillis(random.nextInt(40) * 1000L));
            int status = random.nextInt(4);
            b.status(status == 0 ? null : status == 1 ? RunStatus.RESUMING : RunStatus.SUSPENDED);
            if (random.nextBoolean()) b.page(random.nextInt(4) * 3L, 1 + random.nextInt(5));
            RunQuery q = b.build();
            List<RunSnapshot> expected = all.stream().filter(q::matches).sorted(RunQuery.ORDER).toList();
            long total = expected.size();
            if (q.limit() != null) {
                int from = (int) Math.min(q.offset(), expected.size());
                expected = expected.subList(from, Math.min(expected.size(), from + q.limit()));
            }
            RunPage page = store.list(q);
            assertThat(page.items()).as("query %s", q).containsExactlyElementsOf(expected);
            assertThat(page.total()).as("total of %s", q).isEqualTo(total);
        }
    }
}
