package dev.baton.tck.snapshot;

import static dev.baton.tck.support.Snapshots.T0;
import static dev.baton.tck.support.Snapshots.payloadFor;
import static dev.baton.tck.support.Snapshots.suspended;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.StoreUnderTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ids that break naive escaping in SQL, LIKE, Redis patterns, Mongo operators and key syntax are
 * stored and matched literally.
 */
public abstract class OddInput extends SnapshotStoreRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected OddInput(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    /** Ids that break naive escaping in SQL, LIKE, Redis patterns, Mongo operators and key syntax. */
    static Stream<String> oddIds() {
        return Stream.of("it's", "double\"quote", "100%", "under_score", "back\\slash", "star*", "question?",
                "[brackets]", "{hash-tag}", "a:b:c", "with space", "$ne", "{\"$gt\": \"\"}", "dotted.name.x",
                "'; DROP TABLE runs; --", "SELECT", "caf\u00e9-\u65e5\u672c-\ud83d\ude00", "tab\there", "%", "*", "_");
    }

    @ParameterizedTest
    @MethodSource("dev.baton.tck.snapshot.OddInput#oddIds")
    void oddIdsAreStoredAndMatchedLiterally(String odd) {
        String oddAgent = agent + odd;
        RunSnapshot s = insert(suspended(oddAgent, agent + "-run-" + odd, odd, odd, 5));
        // decoys whose ids a pattern or an operator made of `odd` could match
        insert(suspended(oddAgent, agent + "-run-decoy", odd + "x", "x" + odd, 6));
        insert(suspended(oddAgent, agent + "-run-decoy2", "plain", "plain", 7));
        insert(suspended(agent + "other", agent + "-run-other-" + odd, odd, odd, 8));

        assertThat(store.find(s.runId())).contains(s);
        RunQuery.Builder q = RunQuery.forAgent(oddAgent, T0.plusSeconds(3600));
        assertThat(ids(store.list(q.threadId(odd).build()))).containsExactly(s.runId());
        q = RunQuery.forAgent(oddAgent, T0.plusSeconds(3600));
        assertThat(ids(store.list(q.resourceId(odd).build()))).containsExactly(s.runId());
        q = RunQuery.forAgent(oddAgent, T0.plusSeconds(3600));
        assertThat(store.list(q.threadId(odd).resourceId(odd).build()).total()).isEqualTo(1);
        q = RunQuery.forAgent(oddAgent, T0.plusSeconds(3600));
        assertThat(store.list(q.build()).total()).isEqualTo(3);
        RunSnapshot c = s.claimed("owner " + odd, T0.plusSeconds(99), payloadFor(odd));
        assertThat(store.compareAndSet(1, c)).isTrue();
        assertThat(store.find(s.runId())).contains(c);
        assertThat(store.delete(s.runId(), 2)).isTrue();
        assertThat(store.find(s.runId())).isEmpty();
    }
}
