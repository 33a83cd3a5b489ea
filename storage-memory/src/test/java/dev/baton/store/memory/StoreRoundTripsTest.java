package dev.baton.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.model.DeterministicModel;
import dev.baton.store.QueryFeature;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.tool.Tool;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The store calls Baton makes, counted: the fewest the design allows for the common paths. Every
 * store pays these round trips, so they are counted once here, on a store that records its calls.
 */
class StoreRoundTripsTest {

    /** Records every SPI call. */
    static final class Counting implements SnapshotStore {
        final SnapshotStore store = MemorySnapshotStore.create();
        final List<String> calls = new ArrayList<>();

        @Override public boolean insert(RunSnapshot s) { calls.add("insert"); return store.insert(s); }
        @Override public Optional<RunSnapshot> find(String id) { calls.add("find"); return store.find(id); }
        @Override public boolean compareAndSet(long v, RunSnapshot s) { calls.add("compare-and-set " + s.status()); return store.compareAndSet(v, s); }
        @Override public boolean delete(String id, long v) { calls.add("delete"); return store.delete(id, v); }
        @Override public RunPage list(RunQuery q) { calls.add("list"); return store.list(q); }
        @Override public boolean renewLease(String id, long v, String o, Instant e) { calls.add("renew-lease"); return store.renewLease(id, v, o, e); }
        @Override public List<RunSnapshot> listDue(String a, Instant now, int limit) { calls.add("list-due"); return store.listDue(a, now, limit); }
        @Override public Set<QueryFeature> queryFeatures() { return store.queryFeatures(); }
        @Override public void close() { store.close(); }
    }

    private final Counting store = new Counting();
    private final Agent agent = Agent.builder("round-trips")
            .model(DeterministicModel.builder().whenUserSays("flight", "bookFlight", Map.of("to", "SFO")).build())
            .tools(Tool.builder("bookFlight").requireApproval(true).execute((in, ctx) -> "booked").build())
            .store(store).build();

    @Test
    void aNewRunThatWaitsForAnApprovalIsOneInsert() {
        agent.generate("Book a flight", RunOptions.DEFAULT);
        assertThat(store.calls).containsExactly("insert");
    }

    @Test
    void approvingToCompletionWithOneToolIsFourRoundTrips() {
        AgentResult r = agent.generate("Book a flight", RunOptions.DEFAULT);
        store.calls.clear();
        AgentResult done = agent.approveToolCall(r.runId(), r.waitingCalls().get(0).toolCallId()).result();
        assertThat(done.outcome()).isEqualTo(RunOutcome.COMPLETED);
        // read the run; claim it with the approval recorded (the call stored as EXECUTING);
        // store the tool's result before the model is called again; delete the finished run
        assertThat(store.calls).containsExactly("find", "compare-and-set RESUMING", "compare-and-set RESUMING", "delete");
    }

    @Test
    void decliningToCompletionIsThreeRoundTripsAndRunsNothing() {
        AgentResult r = agent.generate("Book a flight", RunOptions.DEFAULT);
        store.calls.clear();
        agent.declineToolCall(r.runId(), r.waitingCalls().get(0).toolCallId(), "no").result();
        // the decline is recorded with the claim, so nothing new needs storing before the model call
        assertThat(store.calls).containsExactly("find", "compare-and-set RESUMING", "delete");
    }

    @Test
    void aListingIsOneStoreCall() {
        agent.generate("Book a flight", RunOptions.DEFAULT);
        store.calls.clear();
        assertThat(agent.listSuspendedRuns().total()).isEqualTo(1);
        assertThat(store.calls).containsExactly("list");
    }
}
