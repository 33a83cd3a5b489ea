package dev.baton.tck;

import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.tck.support.NamesTheRule;
import dev.baton.tck.support.StoreUnderTest;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The storage half of the Baton TCK. Extend it and implement {@link #openStore()}:
 *
 * <pre>{@code
 * public class PostgresSnapshotStoreTest extends SnapshotStoreContract {
 *     protected SnapshotStore openStore() { return SnapshotStores.open(url); }
 * }
 * }</pre>
 *
 * <p>Each test uses agent ids of its own, so the store need not be emptied between tests, and
 * several suites can share one database. {@code openStore()} is called before every test and
 * must open the <em>same</em> database every time: the restart tests close a store and open a new
 * one to find the runs again.
 *
 * <p>The rules, one group per {@code @Nested} class, each in a file of its own in
 * {@code dev.baton.tck.snapshot}: {@code Persistence}, {@code OddInput}, {@code Filters},
 * {@code Order}, {@code Paging}, {@code AgainstAReferenceModel}, {@code CompareAndSet},
 * {@code Validation} and {@code Closing} hold for every store; {@code Faults} runs when the test
 * supplies {@link #faults()}; {@code Capabilities} checks what the store declares (the store clock
 * only when it declares {@link StoreCapability#STORE_CLOCK}).
 */
@Execution(ExecutionMode.SAME_THREAD)
@ExtendWith(NamesTheRule.class)
public abstract class SnapshotStoreContract {

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
     * The hook for the {@code Faults} tests: a store whose link to its backend the TCK may cut or
     * silence. Empty by default (those tests are then skipped, and the report says so); override it
     * for a store that talks to a server, e.g. with {@link StoreFaults#throughProxy}. Called once
     * per {@code Faults} test; the TCK closes what it returns.
     *
     * @return the faults the TCK may cause, or empty to skip the {@code Faults} tests
     * @throws Exception if the faulty store cannot be opened: the test fails with it
     */
    protected Optional<StoreFaults> faults() throws Exception {
        return Optional.empty();
    }

    /**
     * Not a test, and JUnit 5 never calls it: a guard for runners that cannot run JUnit 5. Maven
     * Surefire 2.x (Maven 3.8's default) runs the public {@code test*} methods of a public class as
     * plain tests instead of the contract's tests; this one then fails, saying why, where the build
     * would otherwise run none of the contract's tests and pass.
     */
    public void testRunnerRunsTheJUnitPlatform() {
        throw new AssertionError(Certification.WRONG_RUNNER);
    }

    /** Every field as inserted, verbatim, across a restart; insert and delete refuse what they must. */
    @Nested
    class Persistence extends dev.baton.tck.snapshot.Persistence {
        Persistence() {
            super(storeUnderTest);
        }
    }

    /** Odd ids stored and matched literally. */
    @Nested
    class OddInput extends dev.baton.tck.snapshot.OddInput {
        OddInput() {
            super(storeUnderTest);
        }
    }

    /** Agent, thread, resource, dates and status: exact, inclusive, judged at the query's now. */
    @Nested
    class Filters extends dev.baton.tck.snapshot.Filters {
        Filters() {
            super(storeUnderTest);
        }
    }

    /** Newest creation first, ties by run id descending. */
    @Nested
    class Order extends dev.baton.tck.snapshot.Order {
        Order() {
            super(storeUnderTest);
        }
    }

    /** Slices of the ordered matches, with the total. */
    @Nested
    class Paging extends dev.baton.tck.snapshot.Paging {
        Paging() {
            super(storeUnderTest);
        }
    }

    /** Seeded random queries answered as {@code RunQuery.matches} and {@code RunQuery.ORDER} say. */
    @Nested
    class AgainstAReferenceModel extends dev.baton.tck.snapshot.AgainstAReferenceModel {
        AgainstAReferenceModel() {
            super(storeUnderTest);
        }
    }

    /** Compare-and-set at the expected version only, atomically, under races. */
    @Nested
    class CompareAndSet extends dev.baton.tck.snapshot.CompareAndSet {
        CompareAndSet() {
            super(storeUnderTest);
        }
    }

    /** Bad queries refused; the store describes itself. */
    @Nested
    class Validation extends dev.baton.tck.snapshot.Validation {
        Validation() {
            super(storeUnderTest);
        }
    }

    /** {@code close()}: harmless twice, and a closed store refuses calls clearly. */
    @Nested
    class Closing extends dev.baton.tck.snapshot.Closing {
        Closing() {
            super(storeUnderTest);
        }
    }

    /** A backend that goes away or goes silent: {@code StorageException}s, no hanging (with {@link #faults()}). */
    @Nested
    class Faults extends dev.baton.tck.snapshot.Faults {
        Faults() {
            super(storeUnderTest, SnapshotStoreContract.this::faults);
        }
    }

    /** The capabilities declared, the same every time; the store clock when declared. */
    @Nested
    class Capabilities extends dev.baton.tck.snapshot.Capabilities {
        Capabilities() {
            super(storeUnderTest);
        }
    }
}
