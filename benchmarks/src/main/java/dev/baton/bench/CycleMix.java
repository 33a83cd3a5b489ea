package dev.baton.bench;

import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.store.RunSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Baton against the raw baseline, <em>interleaved</em>: each of {@code threads} threads runs rounds of
 * the five kinds of work below one after the other, in an order that rotates every round, and times
 * each with {@link System#nanoTime()}; the figures are the mean and median wall time of each kind over
 * the measured rounds, and their ratios to raw.
 *
 * <ul>
 *   <li>{@code raw}: the cycle's statements by hand ({@link RawCycle#cycle}), on the thread's own connection;</li>
 *   <li>{@code store}: the same five calls through the store's SPI ({@link RawCycleBenchmark.StoreCycle});</li>
 *   <li>{@code baton}: {@code generate} until the run suspends, then {@code approveToolCall} to completion;</li>
 *   <li>{@code rawSuspend}: the suspension's insert by hand ({@link RawCycle#suspend});</li>
 *   <li>{@code batonSuspend}: {@code generate} until the run suspends;</li>
 *   <li>{@code rawClaim}, {@code storeClaim}: the decision write alone, the claim's compare-and-set with its decision
 *       record ({@link RawCycle#claim} against {@code SnapshotStore.compareAndSet(version, claimed, decisions)}) on a
 *       run inserted just before (not timed);</li>
 *   <li>{@code rawNotify}, {@code storeNotify}: the notification write alone ({@link RawCycle#notify} against
 *       {@code SnapshotStore.updateNotification}) on a run with a notification due, inserted just before through the
 *       store (not timed) and deleted after (not timed).</li>
 * </ul>
 *
 * <p>Why interleaved: JMH (ThroughputBenchmark, RawCycleBenchmark) measures one benchmark after the
 * other, and on this machine a database's commit latency drifts by up to 2x within minutes (WAL
 * flushes, checkpoints, autovacuum of the rows the previous benchmark deleted): the raw cycle alone
 * measured 766 and 420 cycles a second ten minutes apart on an idle machine. Here every kind sees the
 * same moments of the database, so the ratio holds even when the absolute figures move. With eight
 * threads every thread mixes the kinds too, so each kind meets the same contention; the ratio of mean
 * times is then the ratio of throughputs.
 *
 * <pre>
 * java -cp baton-benchmarks.jar dev.baton.bench.CycleMix postgres [threads=1] [seconds=30] [warmupSeconds=10] [n=10000] [size=2048]
 * </pre>
 * On a data set seeded by an earlier run (else it seeds it). Prints one line per kind and the ratios.
 */
public final class CycleMix {
    private static final String[] KINDS = {"raw", "store", "baton", "rawSuspend", "batonSuspend", "rawClaim", "storeClaim",
        "rawNotify", "storeNotify"};
    private static final int MAX_SAMPLES = 200_000;

    private CycleMix() {
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        int n = args.length > 4 ? Integer.parseInt(args[4]) : 10_000;
        int size = args.length > 5 ? Integer.parseInt(args[5]) : 2048;
        Fixture.runStandalone(name, n, size, f -> System.out.println(run(name, f, threads, seconds, warmup, size)));
    }

    /** Runs the mix and returns its report. */
    static String run(String name, Fixture f, int threads, int seconds, int warmupSeconds, int size) throws InterruptedException {
        CycleTemplate t = f.template();
        long[][] sums = new long[threads][KINDS.length];
        long[][] counts = new long[threads][KINDS.length];
        List<long[]>[] samples = newSampleLists(threads);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger ids = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(threads);
        long start = System.nanoTime();
        long measureFrom = start + warmupSeconds * 1_000_000_000L;
        long end = measureFrom + seconds * 1_000_000_000L;
        for (int k = 0; k < threads; k++) {
            int me = k;
            Thread th = new Thread(() -> {
                RawCycle raw = f.backend.rawCycle(f.data, t);
                try {
                    if (raw == null) throw new IllegalStateException(name + " has no raw cycle");
                    RawCycleBenchmark.StoreCycle store = new RawCycleBenchmark.StoreCycle(f.store, t);
                    String prompt = DataSet.paddedPrompt(size, new java.util.SplittableRandom(me + 3));
                    RunOptions options = RunOptions.builder().threadId("mix-thread-" + me).resourceId("mix-user-" + me).build();
                    String prefix = "mix-" + ProcessHandle.current().pid() + "-" + me + "-";
                    long[] mine = new long[MAX_SAMPLES / threads * KINDS.length];
                    int taken = 0;
                    for (long round = 0; ; round++) {
                        long now = System.nanoTime();
                        if (now >= end) break;
                        boolean measured = now >= measureFrom;
                        for (int j = 0; j < KINDS.length; j++) {
                            int kind = (int) ((j + round) % KINDS.length);
                            String id = prefix + ids.incrementAndGet();
                            long sh = t.shiftToNow();
                            java.time.Instant due = java.time.Instant.now();
                            if (kind == 5) raw.suspend(id);                               // set-ups, not timed
                            if (kind == 6 || kind >= 7) {
                                RunSnapshot row = t.as(t.inserted(), id, sh);
                                if (kind >= 7) row = row.toBuilder().notification(due, null).build();
                                if (!f.store.insert(row)) throw new IllegalStateException("insert of " + id);
                            }
                            long t0 = System.nanoTime();
                            switch (kind) {
                                case 0 -> raw.cycle(id);
                                case 1 -> store.cycle(id);
                                case 2 -> {
                                    AgentResult s = f.writer.generate(prompt, options);
                                    AgentResult r = f.writer.approveToolCall(s.runId(), s.waitingCalls().get(0).toolCallId()).result();
                                    if (r.outcome() != RunOutcome.COMPLETED) throw new IllegalStateException("cycle ended " + r.outcome());
                                }
                                case 3 -> raw.suspend(id);
                                case 4 -> {
                                    AgentResult s = f.writer.generate(prompt, options);
                                    if (s.outcome() != RunOutcome.SUSPENDED) throw new IllegalStateException("run did not suspend: " + s.outcome());
                                }
                                case 5 -> raw.claim(id);
                                case 6 -> {
                                    if (!f.store.compareAndSet(t.claimVersion(), t.as(t.claimed(), id, sh), t.decisionsAs(id, sh))) {
                                        throw new IllegalStateException("store claim of " + id);
                                    }
                                }
                                case 7 -> raw.notify(id, t.inserted().version(), due, due.plusSeconds(60), "attempt-1");
                                default -> {
                                    if (!f.store.updateNotification(id, t.inserted().version(), due, due.plusSeconds(60), "attempt-1")) {
                                        throw new IllegalStateException("store notification of " + id);
                                    }
                                }
                            }
                            long took = System.nanoTime() - t0;
                            if (kind == 5) raw.remove(id);                                // clean-ups, not timed
                            if (kind == 6 && !f.store.delete(id, t.claimed().version())) throw new IllegalStateException("delete of " + id);
                            if (kind >= 7 && !f.store.delete(id, t.inserted().version())) throw new IllegalStateException("delete of " + id);
                            if (measured) {
                                sums[me][kind] += took;
                                counts[me][kind]++;
                                if (taken + 1 < mine.length) {
                                    mine[taken++] = kind;
                                    mine[taken++] = took;
                                }
                            }
                        }
                    }
                    samples[me].add(Arrays.copyOf(mine, taken));
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    if (raw != null) raw.close();
                    done.countDown();
                }
            }, "mix-" + k);
            th.start();
        }
        done.await();
        if (failure.get() != null) throw new IllegalStateException("the mix failed: " + failure.get(), failure.get());
        return report(name, threads, seconds, sums, counts, samples);
    }

    @SuppressWarnings("unchecked")
    private static List<long[]>[] newSampleLists(int threads) {
        List<long[]>[] out = new List[threads];
        for (int k = 0; k < threads; k++) out[k] = new ArrayList<>();
        return out;
    }

    private static String report(String name, int threads, int seconds, long[][] sums, long[][] counts, List<long[]>[] samples) {
        double[] mean = new double[KINDS.length];
        double[] median = new double[KINDS.length];
        long[] count = new long[KINDS.length];
        for (int kind = 0; kind < KINDS.length; kind++) {
            long sum = 0;
            List<Long> all = new ArrayList<>();
            for (int k = 0; k < threads; k++) {
                sum += sums[k][kind];
                count[kind] += counts[k][kind];
                for (long[] s : samples[k]) {
                    for (int i = 0; i + 1 < s.length; i += 2) if (s[i] == kind) all.add(s[i + 1]);
                }
            }
            mean[kind] = count[kind] == 0 ? Double.NaN : sum / 1e3 / count[kind];
            all.sort(null);
            median[kind] = all.isEmpty() ? Double.NaN : all.get(all.size() / 2) / 1e3;
        }
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%s, %d thread(s), %d s measured, interleaved%n", name, threads, seconds));
        for (int kind = 0; kind < KINDS.length; kind++) {
            b.append(String.format(Locale.ROOT, "  %-12s %8d done, mean %8.0f us, median %8.0f us, %9.1f a second (threads / mean)%n",
                    KINDS[kind], count[kind], mean[kind], median[kind], threads * 1e6 / mean[kind]));
        }
        b.append(String.format(Locale.ROOT, "  cycle:      Baton x raw %.2f (median %.2f), store x raw %.2f (median %.2f)%n",
                mean[2] / mean[0], median[2] / median[0], mean[1] / mean[0], median[1] / median[0]));
        b.append(String.format(Locale.ROOT, "  suspension: Baton x raw %.2f (median %.2f)%n", mean[4] / mean[3], median[4] / median[3]));
        b.append(String.format(Locale.ROOT, "  decision write (claim): store x raw %.2f (median %.2f)%n", mean[6] / mean[5], median[6] / median[5]));
        b.append(String.format(Locale.ROOT, "  notification write: store x raw %.2f (median %.2f)%n", mean[8] / mean[7], median[8] / median[7]));
        return b.toString();
    }
}
