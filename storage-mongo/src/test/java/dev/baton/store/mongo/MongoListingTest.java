package dev.baton.store.mongo;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.suspended;
import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Listings larger than one server batch (101 documents) come back whole, through the cursor's getMore. */
class MongoListingTest {

    private SnapshotStore store;
    private String agent;
    private List<RunSnapshot> all;

    @BeforeEach
    void seed() {
        store = SnapshotStores.open(MongoTestServer.url());
        agent = uniqueId("big");
        all = new ArrayList<>();
        for (int i = 0; i < 260; i++) {
            // pairs share a creation time, so the tie-breaker works across batch borders too
            RunSnapshot s = suspended(agent, agent + String.format("-%04d", i), i % 2 == 0 ? "t" : "u", "r", (i / 2) * 7L);
            store.insert(s);
            all.add(s);
        }
        all.sort(RunQuery.ORDER);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void everyMatchWithoutALimit() {
        RunPage page = store.list(RunQuery.forAgent(agent, T0.plusSeconds(3600)).build());
        assertThat(page.items()).containsExactlyElementsOf(all);
        assertThat(page.total()).isEqualTo(260);
    }

    @Test
    void aPageLargerThanOneBatch() {
        RunPage page = store.list(RunQuery.forAgent(agent, T0.plusSeconds(3600)).page(30, 150).build());
        assertThat(page.items()).containsExactlyElementsOf(all.subList(30, 180));
        assertThat(page.total()).isEqualTo(260);
    }

    @Test
    void aShortLastPageKnowsItsTotal() {
        List<RunSnapshot> t = all.stream().filter(s -> "t".equals(s.threadId())).toList();
        RunPage page = store.list(RunQuery.forAgent(agent, T0.plusSeconds(3600)).threadId("t").page(120, 50).build());
        assertThat(page.items()).containsExactlyElementsOf(t.subList(120, 130));
        assertThat(page.total()).isEqualTo(130);
    }
}
