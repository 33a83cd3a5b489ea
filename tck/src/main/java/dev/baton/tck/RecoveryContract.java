package dev.baton.tck;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.NamesTheRule;
import dev.baton.tck.support.StoreUnderTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The recovery half of the TCK: a crash at every store write of a three-step run, a slow store,
 * skewed clocks, dropped and closed streams, interrupts, instances that shut down, and subagents whose runs outlive their
 * process. Extend it and implement {@link #openStore()} (the same database on every call). The
 * rules, one group per {@code @Nested} class, are in {@code dev.baton.tck.recovery}.
 */
@Execution(ExecutionMode.SAME_THREAD)
@ExtendWith(NamesTheRule.class)
public abstract class RecoveryContract {

    private final StoreUnderTest storeUnderTest = new StoreUnderTest(getClass(), this::openStore);

    /**
     * Opens a store on the database under test; the same database on every call. Called before
     * every test, and again by tests that restart the store or need a second one.
     *
     * @return a new store on the database under test; the TCK closes it
     * @throws Exception if the store cannot be opened: the test fails with it
     */
    protected abstract SnapshotStore openStore() throws Exception;

    /**
     * Not a test, and JUnit 5 never calls it: a guard for runners that cannot run JUnit 5. Maven
     * Surefire 2.x (Maven 3.8's default) runs the public {@code test*} methods of a public class as
     * plain tests instead of the contract's tests; this one then fails, saying why, where the build
     * would otherwise run none of the contract's tests and pass.
     */
    public void testRunnerRunsTheJUnitPlatform() {
        throw new AssertionError(Certification.WRONG_RUNNER);
    }

    /** A crash before and after each write of a three-step run, each recovered (dynamic tests). */
    @Nested
    class CrashPoints extends dev.baton.tck.recovery.CrashPoints {
        CrashPoints() {
            super(storeUnderTest);
        }
    }

    /** A slow store, skewed client clocks, the store clock (1 test proves {@code STORE_CLOCK}), a stalled stream. */
    @Nested
    class Leases extends dev.baton.tck.recovery.Leases {
        Leases() {
            super(storeUnderTest);
        }
    }

    /** Dropped, late and closed streams. */
    @Nested
    class Streams extends dev.baton.tck.recovery.Streams {
        Streams() {
            super(storeUnderTest);
        }
    }

    /** Interrupted tools and pools shut down: prompt, resumable, the flag kept. */
    @Nested
    class Interrupts extends dev.baton.tck.recovery.Interrupts {
        Interrupts() {
            super(storeUnderTest);
        }
    }

    /** Subagents whose runs outlive their process. */
    @Nested
    class Subagents extends dev.baton.tck.recovery.Subagents {
        Subagents() {
            super(storeUnderTest);
        }
    }

    /** Instances leave gracefully: {@code Agent.close()} lets a tool finish and hands every claim back at once (rule R12). */
    @Nested
    class Shutdown extends dev.baton.tck.recovery.Shutdown {
        Shutdown() {
            super(storeUnderTest);
        }
    }

    /** Which runs may be discarded. */
    @Nested
    class Discarding extends dev.baton.tck.recovery.Discarding {
        Discarding() {
            super(storeUnderTest);
        }
    }
}
