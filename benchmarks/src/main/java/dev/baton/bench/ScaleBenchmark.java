package dev.baton.bench;

import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.ExpiryReport;
import dev.baton.store.RunSnapshot;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Listing at scale ({@link ScaleData}: two busy agents, 10 runs a thread, 100 a resource): a page
 * of 20 with its exact total for a thread, a resource and the whole agent, through
 * {@code agent.listSuspendedRuns}; {@code store.listDue} of 100 runs past their deadline; and an
 * expirer pass ({@code agent.expireDueRuns(100)}) that finds nothing due, which is what every
 * instance pays on every tick. Each invocation takes the next of 64 threads (or resources) spread
 * over the data set. {@link ScaleRun} runs it in-process at each size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ScaleBenchmark {
    @Param("postgres")
    public String backend;
    @Param("1000000")
    public int n;

    ScaleFixture f;

    @Setup
    public void setup() {
        f = ScaleFixture.current;
        if (f == null || f.data.n() != n || !f.data.backend().equals(backend)) {
            throw new IllegalStateException("ScaleBenchmark runs inside ScaleRun, on its seeded fixture");
        }
    }

    /** Which target comes next, per benchmark thread. */
    @State(Scope.Thread)
    public static class Cursor {
        int i;

        int next() {
            return (i++) & (ScaleFixture.TARGETS - 1);
        }
    }

    @Benchmark
    public AgentListSuspendedRunsResult threadPage(Cursor c) {
        int k = c.next();
        return f.agents[ScaleData.agentOfThread(f.threads[k])].listSuspendedRuns(AgentListSuspendedRunsOptions.builder()
                .threadId(ScaleData.threadId(f.threads[k])).perPage(20).page(1).build());
    }

    @Benchmark
    public AgentListSuspendedRunsResult resourcePage(Cursor c) {
        int k = c.next();
        return f.agents[ScaleData.agentOfThread(f.resources[k] * 10)].listSuspendedRuns(AgentListSuspendedRunsOptions.builder()
                .resourceId(ScaleData.resourceId(f.resources[k])).perPage(20).page(1).build());
    }

    @Benchmark
    public AgentListSuspendedRunsResult unfilteredPage(Cursor c) {
        return f.agents[c.next() & 1].listSuspendedRuns(AgentListSuspendedRunsOptions.builder().perPage(20).page(1).build());
    }

    @Benchmark
    public List<RunSnapshot> listDue(Cursor c) {
        return f.store.listDue(ScaleData.agentId(c.next() & 1), ScaleData.DUE.plusSeconds(1), 100);
    }

    @Benchmark
    public ExpiryReport expirerNothingDue(Cursor c) {
        return f.idleExpirers[c.next() & 1].expireDueRuns(100);
    }
}
