package dev.baton.tck.listing;

import static dev.baton.tck.support.Snapshots.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.RunSnapshot;
import dev.baton.tck.support.Snapshots;
import dev.baton.tck.support.StoreUnderTest;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@code listDue}: the agent's runs (matched literally) whose deadline has passed, inclusively, and
 * that are suspended as of {@code now}, soonest deadline first, up to the limit; the deadline moves
 * with the run.
 */
public abstract class DueRuns extends ListingRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected DueRuns(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @Test
    void dueRunsAreThoseWhoseDeadlinePassedSoonestFirstUpToTheLimit() {
        insert(run("late", "t", 0, T0.plusSeconds(300)));
        insert(run("b", "t", 1, T0.plusSeconds(60)));
        insert(run("a", "t", 2, T0.plusSeconds(60)));
        insert(run("first", "t", 3, T0.plusSeconds(30)));
        insert(run("never", "t", 4, null));
        assertThat(ids(store.listDue(agent, T0.plusSeconds(60), 10))).containsExactly("first", "a", "b");
        assertThat(ids(store.listDue(agent, T0.plusSeconds(60), 2))).containsExactly("first", "a");
        assertThat(store.listDue(agent, T0.plusSeconds(29), 10)).isEmpty();
        assertThat(ids(store.listDue(agent, T0.plusSeconds(400), 10))).containsExactly("first", "a", "b", "late");
    }

    @Test
    void aRunUnderALiveLeaseIsNotDueButOneWhoseLeaseLapsedIs() {
        RunSnapshot s = insert(run("held", "t", 0, T0.plusSeconds(10)));
        RunSnapshot claimed = s.claimed("me", T0.plusSeconds(100), s.payload());
        assertThat(store.compareAndSet(1, claimed)).isTrue();
        assertThat(store.listDue(agent, T0.plusSeconds(50), 10)).isEmpty();
        assertThat(ids(store.listDue(agent, T0.plusSeconds(100), 10))).containsExactly("held");
    }

    @Test
    void dueRunsAreScopedToTheAgentAndMatchedLiterally() {
        insert(run("mine", "t", 0, T0));
        String other = agent + "-other";
        Instant c = T0;
        assertThat(store.insert(Snapshots.suspendedAt(other, id("theirs"), c).expiresAt(T0).build())).isTrue();
        assertThat(ids(store.listDue(agent, T0.plusSeconds(1), 10))).containsExactly("mine");
        assertThat(ids(store.listDue(other, T0.plusSeconds(1), 10))).containsExactly("theirs");
        assertThat(store.listDue(agent + "%", T0.plusSeconds(1), 10)).isEmpty();
    }

    @Test
    void aDeadlineIsInclusiveAndMovesWithTheRun() {
        RunSnapshot s = insert(run("r", "t", 0, T0.plusSeconds(10)));
        assertThat(ids(store.listDue(agent, T0.plusSeconds(10), 10))).containsExactly("r");
        assertThat(store.compareAndSet(1, s.suspended(T0.plusSeconds(5), s.payload(), T0.plusSeconds(20), s.summary())))
                .isTrue();
        assertThat(store.listDue(agent, T0.plusSeconds(10), 10)).isEmpty();
        assertThat(ids(store.listDue(agent, T0.plusSeconds(20), 10))).containsExactly("r");
        assertThat(store.delete(id("r"), 2)).isTrue();
        assertThat(store.listDue(agent, T0.plusSeconds(30), 10)).isEmpty();
    }
}
