package dev.baton.bench;

import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import java.util.concurrent.TimeUnit;
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
 * Throughput of the whole approval cycle, in cycles per second: one cycle is
 * {@code agent.generate(...)} of a run that suspends for approval (model call, snapshot stored)
 * followed by {@code agent.approveToolCall(...).result()} to completion (find, claim, the tool,
 * progress, the model, delete), by the writer agent on a store that holds the seeded runs.
 * {@code cycle1} runs it on one thread, {@code cycle8} on eight at once (each on its own runs):
 * JMH reports the cycles per second of all threads together.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ThroughputBenchmark {
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
        f.purgeWriter();
    }

    @TearDown(Level.Iteration)
    public void purge() {
        f.purgeWriter();
    }

    @Benchmark
    @Threads(1)
    public AgentResult cycle1(WriteBenchmark.Writer w) {
        return cycle(w);
    }

    @Benchmark
    @Threads(8)
    public AgentResult cycle8(WriteBenchmark.Writer w) {
        return cycle(w);
    }

    /** The suspension alone ({@code generate} until it suspends), per second, on one thread. */
    @Benchmark
    @Threads(1)
    public AgentResult suspend1(WriteBenchmark.Writer w) {
        return f.writer.generate(w.prompt, w.next());
    }

    /** The suspension alone, per second, on eight threads. */
    @Benchmark
    @Threads(8)
    public AgentResult suspend8(WriteBenchmark.Writer w) {
        return f.writer.generate(w.prompt, w.next());
    }

    private AgentResult cycle(WriteBenchmark.Writer w) {
        AgentResult s = f.writer.generate(w.prompt, w.next());
        if (s.outcome() != RunOutcome.SUSPENDED) throw new IllegalStateException("run did not suspend: " + s.outcome());
        AgentResult r = f.writer.approveToolCall(s.runId(), s.waitingCalls().get(0).toolCallId()).result();
        if (r.outcome() != RunOutcome.COMPLETED) {
            throw new IllegalStateException("approving " + s.runId() + " ended " + r.outcome(), r.error());
        }
        return r;
    }
}
