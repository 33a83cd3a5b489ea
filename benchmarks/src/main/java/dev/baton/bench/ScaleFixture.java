package dev.baton.bench;

import dev.baton.agent.Agent;
import dev.baton.agent.ExpiryPolicy;
import dev.baton.store.SnapshotStore;
import java.time.Clock;
import java.time.ZoneOffset;

/** The open store and agents {@link ScaleBenchmark} measures, with its targets spread over the data set. */
final class ScaleFixture implements AutoCloseable {
    static final int TARGETS = 64;
    static volatile ScaleFixture current;

    final ScaleSeed data;
    final SnapshotStore store;
    /** The listing agents, their clock at {@link ScaleData#NOW}. */
    final Agent[] agents = new Agent[ScaleData.AGENTS];
    /** Agents whose clock is before every deadline: an expirer pass finds nothing due. */
    final Agent[] idleExpirers = new Agent[ScaleData.AGENTS];
    final long[] threads = new long[TARGETS];
    final long[] resources = new long[TARGETS];

    ScaleFixture(ScaleSeed data) {
        this.data = data;
        this.store = data.openStore();
        for (int a = 0; a < ScaleData.AGENTS; a++) {
            agents[a] = agent(a, Clock.fixed(ScaleData.NOW, ZoneOffset.UTC), ExpiryPolicy.keep());
            idleExpirers[a] = agent(a, Clock.fixed(ScaleData.START, ZoneOffset.UTC), ExpiryPolicy.cancel("scale benchmark"));
        }
        long threadCount = data.n() / ScaleData.PER_THREAD;
        long resourceCount = data.n() / ScaleData.PER_RESOURCE;
        for (int k = 0; k < TARGETS; k++) {
            threads[k] = (k * 2_654_435_761L + 12_345) % threadCount;
            resources[k] = (k * 2_654_435_761L + 54_321) % resourceCount;
        }
    }

    Agent agent(int a, Clock clock, ExpiryPolicy policy) {
        return Agent.builder(ScaleData.agentId(a)).instructions("You book flights.").model(DataSet.model()).tools(DataSet.bookFlight())
                .store(store).clock(clock).onExpiry(policy).build();
    }

    @Override
    public void close() {
        for (Agent a : agents) a.close();
        for (Agent a : idleExpirers) a.close();
        store.close();
    }
}
