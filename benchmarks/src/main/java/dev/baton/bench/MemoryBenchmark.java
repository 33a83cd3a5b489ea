package dev.baton.bench;

import dev.baton.model.Message;
import dev.baton.store.StoredMessage;
import dev.baton.store.ThreadPage;
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
 * Thread memory on a store holding {@code n} seeded messages ({@link MemoryData}); each invocation
 * takes the next of 64 targets spread over the data.
 *
 * <ul>
 *   <li>{@code lastMessagesBaton}: what a run reads before its first model call, with
 *       {@code Memory.lastMessages(20)}: the thread is read (its owner checked), then its last 20
 *       messages, decoded into {@link Message}s ({@link MemoryFixture#history});</li>
 *   <li>{@code lastMessagesStore}: {@code MemoryStore.lastMessages(threadId, 20)}, the store alone;</li>
 *   <li>{@code lastMessagesRaw}: the hand-written query ({@link RawMemory});</li>
 *   <li>{@code threadsBaton} / {@code threadsStore} / {@code threadsRaw}: a resource's threads,
 *       newest first, page of 20 with the total ({@code Memory.listThreads}, {@code MemoryStore.listThreads},
 *       hand-written).</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MemoryBenchmark {
    @Param("memory")
    public String backend;
    @Param("10000")
    public int n;
    /** Always 0: memory data sets have no snapshot size; kept so every result file has the same parameters. */
    @Param("0")
    public int size;

    MemoryFixture f;
    int i;

    @Setup
    public void setup() {
        f = MemoryFixture.require(backend, n);
    }

    private int next() {
        return (i++) & (MemoryFixture.TARGETS - 1);
    }

    @Benchmark
    public List<Message> lastMessagesBaton() {
        int k = next();
        return f.history(f.threadIds[k], f.threadResources[k]);
    }

    @Benchmark
    public List<StoredMessage> lastMessagesStore() {
        return f.store.lastMessages(f.threadKeys[next()], MemoryFixture.PAGE);
    }

    @Benchmark
    public List<String> lastMessagesRaw() {
        int k = next();
        return f.raw.lastMessages(f.threadKeys[k], f.threadResources[k], MemoryFixture.PAGE);
    }

    @Benchmark
    public ThreadPage threadsBaton() {
        return f.memory.listThreads(f.resourceIds[next()], MemoryFixture.PAGE, 0);
    }

    @Benchmark
    public ThreadPage threadsStore() {
        return f.store.listThreads(f.resourceIds[next()], 0, MemoryFixture.PAGE);
    }

    @Benchmark
    public RawMemory.Threads threadsRaw() {
        return f.raw.threads(f.resourceIds[next()], MemoryFixture.PAGE);
    }
}
