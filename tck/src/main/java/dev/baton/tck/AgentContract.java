package dev.baton.tck;

import dev.baton.store.SnapshotStore;
import dev.baton.tck.support.NamesTheRule;
import dev.baton.tck.support.StoreUnderTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The agent half of the Baton TCK: approve / decline / resume / subagent flows, every discovery
 * rule of SPEC section 4, the resume race and lease recovery, and that JSON values handed out are
 * copies (what is approved is what runs), all over the store under test.
 * Extend it and implement {@link #openStore()} (the same database on every call). The rules, one
 * group per {@code @Nested} class, are in {@code dev.baton.tck.agent}.
 */
@Execution(ExecutionMode.SAME_THREAD)
@ExtendWith(NamesTheRule.class)
public abstract class AgentContract {

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

    /** Approve, decline and resume: events, tool and model calls, what is stored and when. */
    @Nested
    class Lifecycle extends dev.baton.tck.agent.Lifecycle {
        Lifecycle() {
            super(storeUnderTest);
        }
    }

    /** Every listing rule of SPEC section 4. */
    @Nested
    class Discovery extends dev.baton.tck.agent.Discovery {
        Discovery() {
            super(storeUnderTest);
        }
    }

    /** Runs listed and resumed by a new agent instance, and after the store is reopened. */
    @Nested
    class Persistence extends dev.baton.tck.agent.Persistence {
        Persistence() {
            super(storeUnderTest);
        }
    }

    /** Bad requests get precise exceptions and change nothing. */
    @Nested
    class BadInput extends dev.baton.tck.agent.BadInput {
        BadInput() {
            super(storeUnderTest);
        }
    }

    /** A supervisor's run and its subagent's inner run. */
    @Nested
    class Subagents extends dev.baton.tck.agent.Subagents {
        Subagents() {
            super(storeUnderTest);
        }
    }

    /** Racing approvals, declines and resumes: exactly one proceeds (16 callers, 100 rounds). */
    @Nested
    class Concurrency extends dev.baton.tck.agent.Concurrency {
        Concurrency() {
            super(storeUnderTest);
        }
    }

    /** Lapsed leases taken over, stored results never run twice, heartbeats. */
    @Nested
    class Leases extends dev.baton.tck.agent.Leases {
        Leases() {
            super(storeUnderTest);
        }
    }

    /**
     * What is approved is what runs: JSON values changed by a stream's reader, a listener or a
     * reader of the listing change nothing stored, nor the tool's input.
     */
    @Nested
    class JsonCopies extends dev.baton.tck.agent.JsonCopies {
        JsonCopies() {
            super(storeUnderTest);
        }
    }
}
