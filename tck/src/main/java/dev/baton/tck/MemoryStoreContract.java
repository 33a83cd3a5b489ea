package dev.baton.tck;

import dev.baton.store.MemoryStore;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.tck.support.NamesTheRule;
import dev.baton.tck.support.StoreUnderTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The thread-memory half of the TCK: the {@link MemoryStore} a store offers through
 * {@link SnapshotStore#memory()} when it declares {@link StoreCapability#THREAD_MEMORY}. Threads,
 * their listing by resource, appends (ordered, idempotent per run message, whole under concurrency),
 * the last messages, paging, deletion, and odd input. Extend it and implement {@link #openStore()};
 * its tests are skipped for a store without thread memory. The rules, one group per {@code @Nested}
 * class, are in {@code dev.baton.tck.memorystore}.
 */
@Execution(ExecutionMode.SAME_THREAD)
@ProvesCapability(StoreCapability.THREAD_MEMORY)
@ExtendWith(NamesTheRule.class)
public abstract class MemoryStoreContract {

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

    /** Threads: created once, updated, listed by resource, deleted with their messages. */
    @Nested
    class Threads extends dev.baton.tck.memorystore.Threads {
        Threads() {
            super(storeUnderTest);
        }
    }

    /** Appends ordered and idempotent per run message; last messages and pages. */
    @Nested
    class Messages extends dev.baton.tck.memorystore.Messages {
        Messages() {
            super(storeUnderTest);
        }
    }

    /**
     * The thread-safety duty of {@link MemoryStore}: appends at the same time lose nothing and
     * interleave whole; creates of one thread at the same time create it once.
     */
    @Nested
    class Concurrency extends dev.baton.tck.memorystore.Concurrency {
        Concurrency() {
            super(storeUnderTest);
        }
    }
}
