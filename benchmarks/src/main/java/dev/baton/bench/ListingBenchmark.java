package dev.baton.bench;

import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.store.RunPage;
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
 * Listing a page of 20 suspended runs, three ways on the same data: through the whole stack
 * ({@code agent.listSuspendedRuns}, suffix {@code Baton}), through the store alone
 * ({@code store.list(RunQuery)}, suffix {@code Store}), and with the hand-written query
 * ({@link RawQueries}, suffix {@code Raw}). Each invocation takes the next of 64 targets
 * (threads, resources or agents spread over the data set), the same sequence for all three.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ListingBenchmark {
    @Param("memory")
    public String backend;
    @Param("10000")
    public int n;
    @Param("2048")
    public int size;

    Fixture f;

    @Setup
    public void setup() {
        f = Fixture.require(backend, n, size);
    }

    /** Which target comes next, per benchmark thread. */
    @State(Scope.Thread)
    public static class Cursor {
        int i;

        int next() {
            return (i++) & (Fixture.TARGETS - 1);
        }
    }

    // ---- thread filter, page of 20 (with the total) -------------------------------------------

    @Benchmark
    public AgentListSuspendedRunsResult threadBaton(Cursor c) {
        Fixture.Target t = f.thread[c.next()];
        return t.agent().listSuspendedRuns(t.options());
    }

    @Benchmark
    public RunPage threadStore(Cursor c) {
        return f.store.list(f.thread[c.next()].storeQuery());
    }

    @Benchmark
    public RawQueries.Page threadRaw(Cursor c) {
        return f.raw.page(f.thread[c.next()].raw());
    }

    // ---- resource filter, page of 20 ----------------------------------------------------------

    @Benchmark
    public AgentListSuspendedRunsResult resourceBaton(Cursor c) {
        Fixture.Target t = f.resource[c.next()];
        return t.agent().listSuspendedRuns(t.options());
    }

    @Benchmark
    public RawQueries.Page resourceRaw(Cursor c) {
        return f.raw.page(f.resource[c.next()].raw());
    }

    // ---- no filter, page of 20 with the total of the agent's runs -----------------------------

    @Benchmark
    public AgentListSuspendedRunsResult unfilteredBaton(Cursor c) {
        Fixture.Target t = f.unfiltered[c.next()];
        return t.agent().listSuspendedRuns(t.options());
    }

    @Benchmark
    public RawQueries.Page unfilteredRaw(Cursor c) {
        return f.raw.page(f.unfiltered[c.next()].raw());
    }

    // ---- thread and a 7-day creation window ---------------------------------------------------

    @Benchmark
    public AgentListSuspendedRunsResult threadDatesBaton(Cursor c) {
        Fixture.Target t = f.threadDates[c.next()];
        return t.agent().listSuspendedRuns(t.options());
    }

    @Benchmark
    public RawQueries.Page threadDatesRaw(Cursor c) {
        return f.raw.page(f.threadDates[c.next()].raw());
    }

    // ---- "waiting for me": the runs a principal with two roles may decide, page of 20 with the total ----

    @Benchmark
    public AgentListSuspendedRunsResult waitingForBaton(Cursor c) {
        Fixture.Target t = f.waitingFor[c.next()];
        return t.agent().listSuspendedRuns(t.options());
    }

    @Benchmark
    public RunPage waitingForStore(Cursor c) {
        return f.store.list(f.waitingFor[c.next()].storeQuery());
    }

    @Benchmark
    public RawQueries.Page waitingForRaw(Cursor c) {
        return f.raw.page(f.waitingFor[c.next()].raw());
    }
}
