package dev.baton.tck.recovery;

import static dev.baton.tck.support.Snapshots.uniqueId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import dev.baton.tck.support.FaultyStore;
import dev.baton.tck.support.SimulatedCrash;
import dev.baton.tck.support.StoreUnderTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every store write is a crash point: a crash before or after any write of a three-step run (see
 * {@code TripScenario}) is recovered through the public API, no snapshot is left behind, and no tool
 * whose result was stored runs again.
 */
public abstract class CrashPoints extends RecoveryRules {

    /**
     * For the contract's {@code @Nested} class of this name.
     *
     * @param storeUnderTest the store under test, as the contract's {@code openStore()} opens it
     */
    protected CrashPoints(StoreUnderTest storeUnderTest) {
        super(storeUnderTest);
    }

    @TestFactory
    Stream<DynamicTest> aCrashBeforeOrAfterAnyStoreWriteOfAThreeStepRunIsRecoveredAndNoStoredResultRunsTwice() {
        // one clean run counts and names the writes
        TripScenario clean = new TripScenario(uniqueId("tck-trip"), clock, LEASE);
        FaultyStore counting = new FaultyStore(store);
        clean.drive(clean.agent(counting, "clean"));
        assertThat(clean.storedRuns(store)).as("a completed run leaves nothing behind").isZero();
        List<FaultyStore.Write> writes = counting.log();
        assertThat(writes.size()).as("writes of the scenario").isGreaterThan(10);
        List<DynamicTest> tests = new ArrayList<>();
        for (FaultyStore.Write w : writes) {
            for (boolean after : new boolean[] {false, true}) {
                String name = "crash " + (after ? "after" : "before") + " write " + w.number() + " of " + writes.size()
                        + " (" + w.operation() + (w.status().isEmpty() ? "" : " " + w.status()) + ")";
                tests.add(DynamicTest.dynamicTest(name, () -> crashAndRecover(w.number(), after)));
            }
        }
        return tests.stream();
    }

    private void crashAndRecover(int n, boolean after) {
        TripScenario trip = new TripScenario(uniqueId("tck-trip"), clock, LEASE);
        FaultyStore dying = new FaultyStore(store).crashAt(n, after);
        assertThatThrownBy(() -> trip.drive(trip.agent(dying, "doomed"))).isInstanceOf(SimulatedCrash.class);
        Set<String> stored = TripScenario.storedResults(dying.log());
        boolean runStored = trip.storedRuns(store) > 0;
        clock.advance(LEASE.plusSeconds(1));
        Agent recovered = trip.agent(store, "recovered");
        if (runStored) {
            assertThat(recovered.listSuspendedRuns().total()).as("the run is listed after the crash").isEqualTo(1);
            AgentResult end = trip.recover(recovered);
            assertThat(end.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(end.text()).contains("all done");
        }
        assertThat(trip.storedRuns(store)).as("no snapshot is left behind").isZero();
        boolean neverStored = n == 1 && !after;
        for (String tool : TripScenario.EFFECTS) {
            if (neverStored) {
                assertThat(trip.effects(tool)).as("%s: nothing was stored, nothing ran", tool).isZero();
            } else if (stored.contains(tool)) {
                assertThat(trip.effects(tool)).as("%s: its result was stored before the crash", tool).isEqualTo(1);
            } else if (runStored) {
                assertThat(trip.effects(tool)).as("%s: ran to the end, at most once more than it was stored", tool)
                        .isBetween(1, 2);
            }
        }
    }
}
