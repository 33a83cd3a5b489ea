package dev.baton.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * The floor of {@link ThroughputBenchmark} and of the write benchmarks, in the same JVM and run: the
 * statements one cycle issues, by hand ({@link RawCycle}: JDBC with prepared statements on one
 * connection per thread, or Lettuce on one connection per thread), replaying the rows a real Baton
 * cycle wrote on this store ({@link CycleTemplate}).
 *
 * <ul>
 *   <li>{@code rawCycle1} / {@code rawCycle8}: the whole cycle (insert, find, claim with its decision
 *       record, result, delete) in cycles per second, on one thread and on eight;</li>
 *   <li>{@code rawSuspend1} / {@code rawSuspend8}: the insert of a suspension alone, per second (the
 *       rows are removed after each iteration, untimed);</li>
 *   <li>{@code storeCycle1} / {@code storeCycle8}: the same five calls through the store's SPI
 *       ({@code insert}, {@code find}, {@code compareAndSet} with the decision record,
 *       {@code compareAndSet}, {@code delete}) on the same rows: the store without core, to tell the
 *       store's share from core's.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RawCycleBenchmark {
    @Param("memory")
    public String backend;
    @Param("10000")
    public int n;
    @Param("2048")
    public int size;

    Fixture f;
    CycleTemplate template;
    final AtomicInteger threads = new AtomicInteger();

    @Setup
    public void setup() {
        f = Fixture.require(backend, n, size);
        template = f.template();
        f.backend.purgeRaw(f.data);
    }

    @TearDown(Level.Iteration)
    public void purge() {
        f.backend.purgeRaw(f.data);
    }

    /** One thread's connection and its run ids. */
    @State(Scope.Thread)
    public static class Worker {
        RawCycle raw;
        StoreCycle store;
        String prefix;
        long i;
        final List<String> inserted = new ArrayList<>();

        @Setup
        public void open(RawCycleBenchmark b) {
            raw = b.f.backend.rawCycle(b.f.data, b.template);
            if (raw == null) throw new IllegalStateException(b.backend + " has no raw cycle");
            store = new StoreCycle(b.f.store, b.template);
            prefix = "raw-" + ProcessHandle.current().pid() + "-" + b.threads.incrementAndGet() + "-" + System.nanoTime() + "-";
        }

        String next() {
            return prefix + (i++);
        }

        @TearDown(Level.Iteration)
        public void removeInserted() {
            for (String id : inserted) raw.remove(id);
            inserted.clear();
        }

        @TearDown
        public void close() {
            raw.close();
        }
    }

    @Benchmark
    @Threads(1)
    public void rawCycle1(Worker w) {
        w.raw.cycle(w.next());
    }

    @Benchmark
    @Threads(8)
    public void rawCycle8(Worker w) {
        w.raw.cycle(w.next());
    }

    @Benchmark
    @Threads(1)
    public void rawSuspend1(Worker w) {
        String id = w.next();
        w.raw.suspend(id);
        w.inserted.add(id);
    }

    @Benchmark
    @Threads(8)
    public void rawSuspend8(Worker w) {
        String id = w.next();
        w.raw.suspend(id);
        w.inserted.add(id);
    }

    @Benchmark
    @Threads(1)
    public void storeCycle1(Worker w) {
        w.store.cycle(w.next());
    }

    @Benchmark
    @Threads(8)
    public void storeCycle8(Worker w) {
        w.store.cycle(w.next());
    }

    /** The cycle's five store calls through the SPI, replaying the template. */
    static final class StoreCycle {
        private final dev.baton.store.SnapshotStore store;
        private final CycleTemplate t;

        StoreCycle(dev.baton.store.SnapshotStore store, CycleTemplate t) {
            this.store = store;
            this.t = t;
        }

        void cycle(String runId) {
            long sh = t.shiftToNow();
            if (!store.insert(t.as(t.inserted(), runId, sh))) throw new IllegalStateException("store insert of " + runId);
            if (store.find(runId).isEmpty()) throw new IllegalStateException("store find of " + runId);
            boolean claimed = t.decisions().isEmpty() ? store.compareAndSet(t.claimVersion(), t.as(t.claimed(), runId, sh))
                    : store.compareAndSet(t.claimVersion(), t.as(t.claimed(), runId, sh), t.decisionsAs(runId, sh));
            if (!claimed) {
                throw new IllegalStateException("store claim of " + runId);
            }
            if (!store.compareAndSet(t.resultVersion(), t.as(t.result(), runId, sh))) throw new IllegalStateException("store result of " + runId);
            if (!store.delete(runId, t.deleteVersion())) throw new IllegalStateException("store delete of " + runId);
        }
    }
}
