package dev.baton.bench;

import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The write path on a store that already holds the seeded runs, by an agent ({@value Fixture#WRITER})
 * that owns none of them, so the listings of other benchmarks are unaffected; its runs are removed
 * after every iteration.
 *
 * <ul>
 *   <li>{@code persistSuspension}: {@code agent.generate(...)} of a run whose tool needs approval:
 *       model call, the run suspends, its snapshot (about {@code size} characters) is inserted.</li>
 *   <li>{@code approveToCompletion}: {@code agent.approveToolCall(...).result()} on a run suspended
 *       just before (not timed): find, claim (compare-and-set), the tool runs, progress is stored,
 *       the model answers, the run completes and its snapshot is deleted.</li>
 * </ul>
 * Both cycles together, on one and on eight threads, are {@link ThroughputBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class WriteBenchmark {
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

    /** A writer thread's prompt (padded to the snapshot size) and its rotating thread / resource ids. */
    @State(Scope.Thread)
    public static class Writer {
        String prompt;
        final RunOptions[] options = new RunOptions[64];
        int i;

        @Setup
        public void init(BenchmarkParams params) {
            SplittableRandom r = new SplittableRandom(Thread.currentThread().getId());
            prompt = DataSet.paddedPrompt(Integer.parseInt(params.getParam("size")), r);
            for (int k = 0; k < options.length; k++) {
                options[k] = RunOptions.builder().threadId("w-thread-" + k).resourceId("w-user-" + r.nextInt(1000)).build();
            }
        }

        RunOptions next() {
            return options[(i++) & 63];
        }
    }

    /** A run suspended for approval right before each timed approval. */
    @State(Scope.Thread)
    public static class Pending {
        String runId;
        String toolCallId;

        @Setup(Level.Invocation)
        public void suspend(WriteBenchmark b, Writer w) {
            AgentResult r = b.f.writer.generate(w.prompt, w.next());
            if (r.outcome() != RunOutcome.SUSPENDED) throw new IllegalStateException("run did not suspend: " + r.outcome());
            runId = r.runId();
            toolCallId = r.waitingCalls().get(0).toolCallId();
        }
    }

    @Benchmark
    public AgentResult persistSuspension(Writer w) {
        return f.writer.generate(w.prompt, w.next());
    }

    @Benchmark
    public AgentResult approveToCompletion(Pending p) {
        return approve(p);
    }

    private AgentResult approve(Pending p) {
        AgentResult r = f.writer.approveToolCall(p.runId, p.toolCallId).result();
        if (r.outcome() != RunOutcome.COMPLETED) {
            throw new IllegalStateException("approving " + p.runId + " ended " + r.outcome(), r.error());
        }
        return r;
    }
}
