package dev.baton.tck;

import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.tck.support.NamesTheRule;
import dev.baton.tck.support.StoreUnderTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The agent half of thread memory: what a run sees of its thread and what it saves there, and when;
 * ownership of threads; suspend, decline, cancel, deletion and subagents; a crash at every write
 * (snapshot and memory) followed by recovery leaves the thread without duplicates or gaps.
 * For stores that declare {@link StoreCapability#THREAD_MEMORY}; its tests are skipped for others.
 * Extend it and implement {@link #openStore()} (the same database on every call). The rules, one
 * group per {@code @Nested} class, are in {@code dev.baton.tck.memory}.
 */
@Execution(ExecutionMode.SAME_THREAD)
@ProvesCapability(StoreCapability.THREAD_MEMORY)
@ExtendWith(NamesTheRule.class)
public abstract class MemoryContract {

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
     * Not a test, and JUnit 5 never calls it: a guard for runners that cannot run JUnit 5 (see
     * {@link SnapshotStoreContract#testRunnerRunsTheJUnitPlatform()}).
     */
    public void testRunnerRunsTheJUnitPlatform() {
        throw new AssertionError(Certification.WRONG_RUNNER);
    }

    /** What a run reads from its thread and saves there, and when. */
    @Nested
    class WhatARunSeesAndSaves extends dev.baton.tck.memory.WhatARunSeesAndSaves {
        WhatARunSeesAndSaves() {
            super(storeUnderTest);
        }
    }

    /** Ownership of threads, and threads managed through the agent's memory. */
    @Nested
    class Threads extends dev.baton.tck.memory.Threads {
        Threads() {
            super(storeUnderTest);
        }
    }

    /** Runs saving to one thread at once lose nothing. */
    @Nested
    class Concurrency extends dev.baton.tck.memory.Concurrency {
        Concurrency() {
            super(storeUnderTest);
        }
    }

    /** A crash at every write, then recovery: no duplicates, no gaps (dynamic tests). */
    @Nested
    class Crashes extends dev.baton.tck.memory.Crashes {
        Crashes() {
            super(storeUnderTest);
        }
    }
}
