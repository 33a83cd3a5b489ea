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
 * The audit trail of decisions: every decision (approve, edit, decline, resume, cancel, discard,
 * continue, expiry) is recorded with who, when, where, why and the argument digests, in the same
 * atomic write as the run's change (a crash before or after any write never keeps one without the
 * other), kept after the run ends, queried by run, thread, resource, actor and time range newest
 * first with a cursor, idempotent by key, and purged by retention. For stores that declare
 * {@link StoreCapability#DECISIONS}; its tests are skipped for others. Extend it and implement
 * {@link #openStore()} (the same database on every call). The rules, one group per
 * {@code @Nested} class, are in {@code dev.baton.tck.decision}.
 */
@Execution(ExecutionMode.SAME_THREAD)
@ProvesCapability(StoreCapability.DECISIONS)
@ExtendWith(NamesTheRule.class)
public abstract class DecisionContract {

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

    /** Every kind of decision is recorded, with every field, and kept after the run ends. */
    @Nested
    class Recording extends dev.baton.tck.decision.Recording {
        Recording() {
            super(storeUnderTest);
        }
    }

    /** The record and the run's change are one write: a crash before or after each write keeps both or neither. */
    @Nested
    class AtomicWithTheRun extends dev.baton.tck.decision.AtomicWithTheRun {
        AtomicWithTheRun() {
            super(storeUnderTest);
        }
    }

    /**
     * Approver rules (docs/approvals.md, A1 to A8): roles per decision, rules by argument, N of M
     * approvals that run the tool once whichever instance lands the last, edits that reset the count,
     * separation of duties, crashes around a partial and a last approval, retried partial approvals.
     */
    @Nested
    class ApproverRules extends dev.baton.tck.decision.ApproverRules {
        ApproverRules() {
            super(storeUnderTest);
        }
    }

    /**
     * Escalation (docs/approvals.md, A9 to A11): a call not decided within its approver rule's
     * {@code escalateAfter} moves to another group, once, recorded by {@code system}, by the expiry
     * sweep and its guarantees across instances and crashes.
     */
    @Nested
    class Escalation extends dev.baton.tck.decision.Escalation {
        Escalation() {
            super(storeUnderTest);
        }
    }

    /** Filters, order, cursor paging and scoping of {@code listDecisions}. */
    @Nested
    class Querying extends dev.baton.tck.decision.Querying {
        Querying() {
            super(storeUnderTest);
        }
    }

    /** A decision sent twice with one key returns the first outcome; keys are unique per agent. */
    @Nested
    class Idempotency extends dev.baton.tck.decision.Idempotency {
        Idempotency() {
            super(storeUnderTest);
        }
    }

    /** Retention: purging removes old records, oldest first, in batches, and nothing else. */
    @Nested
    class Retention extends dev.baton.tck.decision.Retention {
        Retention() {
            super(storeUnderTest);
        }
    }

    /**
     * The store's own writes and queries, without an agent, against {@link dev.baton.store.DecisionQuery#matches}
     * and {@link dev.baton.store.DecisionQuery#ORDER}: every filter combination, cursors, keys, purges; seeded.
     */
    @Nested
    class AgainstTheReference extends dev.baton.tck.decision.AgainstTheReference {
        AgainstTheReference() {
            super(storeUnderTest);
        }
    }
}
