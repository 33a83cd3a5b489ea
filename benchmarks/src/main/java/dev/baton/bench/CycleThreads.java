package dev.baton.bench;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.store.SnapshotStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where the cycles of several threads wait: {@code threads} threads run one kind of cycle for {@code seconds}
 * (after {@code warmupSeconds}), through a store that counts each SPI call core (or the store cycle) makes and
 * its wall time. Prints cycles a second, and per store method the calls a cycle and the mean and longest wall
 * time of a call: a call whose mean is far above its one-thread figure is where the threads queue.
 *
 * <ul>
 *   <li>{@code baton}: {@code generate} until the run suspends, then {@code approveToolCall} to completion (the
 *       writer agent of the benchmarks, built here on the counting store);</li>
 *   <li>{@code store}: the same five calls through the SPI, replaying the recorded cycle
 *       ({@link RawCycleBenchmark.StoreCycle});</li>
 *   <li>{@code raw}: the statements by hand ({@link RawCycle#cycle}), one connection per thread (not counted).</li>
 * </ul>
 *
 * <pre>
 * java -cp baton-benchmarks.jar dev.baton.bench.CycleThreads sqlite [kind=baton] [threads=8] [seconds=20] [warmupSeconds=5]
 * </pre>
 * With {@code -XX:StartFlightRecording=...} on the command line, the recording shows where the threads wait.
 */
public final class CycleThreads {
    private CycleThreads() {
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        String kind = args.length > 1 ? args[1] : "baton";
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 20;
        int warmup = args.length > 4 ? Integer.parseInt(args[4]) : 5;
        Fixture.runStandalone(name, 10_000, 2048, f -> System.out.println(run(f, kind, threads, seconds, warmup)));
    }

    /** Per store method: calls and wall nanoseconds, counted only while {@link #measuring}. */
    private static final Map<String, LongAdder[]> CALLS = new ConcurrentHashMap<>();
    private static volatile boolean measuring;

    static SnapshotStore counting(SnapshotStore store) {
        InvocationHandler h = (proxy, m, a) -> {
            long t0 = System.nanoTime();
            try {
                return m.invoke(store, a);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            } finally {
                if (measuring && m.getDeclaringClass() != Object.class) {
                    String key = m.getName() + (a == null ? 0 : a.length);
                    LongAdder[] c = CALLS.computeIfAbsent(key, k -> new LongAdder[] {new LongAdder(), new LongAdder(), new LongAdder()});
                    long took = System.nanoTime() - t0;
                    c[0].increment();
                    c[1].add(took);
                    synchronized (c) {
                        if (took > c[2].sum()) {
                            c[2].reset();
                            c[2].add(took);
                        }
                    }
                }
            }
        };
        return (SnapshotStore) Proxy.newProxyInstance(CycleThreads.class.getClassLoader(), new Class<?>[] {SnapshotStore.class}, h);
    }

    static String run(Fixture f, String kind, int threads, int seconds, int warmupSeconds) throws InterruptedException {
        SnapshotStore store = counting(f.store);
        Agent agent = DataSet.agent(Fixture.WRITER, store);
        CycleTemplate t = f.template();
        AtomicLong cycles = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(threads);
        long start = System.nanoTime();
        long measureFrom = start + warmupSeconds * 1_000_000_000L;
        long end = measureFrom + seconds * 1_000_000_000L;
        for (int k = 0; k < threads; k++) {
            int me = k;
            Thread th = new Thread(() -> {
                try {
                    String prompt = DataSet.paddedPrompt(2048, new java.util.SplittableRandom(me));
                    RunOptions options = RunOptions.builder().threadId("w-thread-" + me).resourceId("w-user-" + me).build();
                    RawCycle raw = kind.equals("raw") ? f.backend.rawCycle(f.data, t) : null;
                    RawCycleBenchmark.StoreCycle sc = new RawCycleBenchmark.StoreCycle(store, t);
                    String prefix = "threads-" + ProcessHandle.current().pid() + "-" + me + "-";
                    long i = 0;
                    while (true) {
                        long now = System.nanoTime();
                        if (now >= end || failure.get() != null) break;
                        switch (kind) {
                            case "baton" -> {
                                AgentResult s = agent.generate(prompt, options);
                                AgentResult r = agent.approveToolCall(s.runId(), s.waitingCalls().get(0).toolCallId()).result();
                                if (r.outcome() != RunOutcome.COMPLETED) throw new IllegalStateException("cycle ended " + r.outcome(), r.error());
                            }
                            case "store" -> sc.cycle(prefix + (i++));
                            case "raw" -> raw.cycle(prefix + (i++));
                            default -> throw new IllegalArgumentException("kind: baton, store or raw, not " + kind);
                        }
                        if (now >= measureFrom) cycles.incrementAndGet();
                    }
                    if (raw != null) raw.close();
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            }, "cycle-" + k);
            th.start();
        }
        Thread.sleep(Math.max(0, (measureFrom - System.nanoTime()) / 1_000_000));
        measuring = true;
        done.await();
        measuring = false;
        if (failure.get() != null) throw new IllegalStateException("a cycle failed", failure.get());
        long n = cycles.get();
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%s, %s, %d threads: %d cycles in %d s, %.1f a second%n",
                f.backend.name(), kind, threads, n, seconds, n / (double) seconds));
        for (Map.Entry<String, LongAdder[]> e : new TreeMap<>(CALLS).entrySet()) {
            long calls = e.getValue()[0].sum();
            out.append(String.format(Locale.ROOT, "  %-22s %6.2f a cycle, mean %8.2f ms, longest %8.1f ms%n", e.getKey(),
                    calls / (double) Math.max(1, n), e.getValue()[1].sum() / 1e6 / Math.max(1, calls), e.getValue()[2].sum() / 1e6));
        }
        return out.toString();
    }
}
