package dev.baton.bench;

import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * Client CPU time per cycle, on one thread: Baton's cycle ({@code generate} then {@code approveToolCall}
 * to completion), the same five calls through the store's SPI, and the raw cycle ({@link RawCycle}), each
 * {@code cycles} times after as many warm-up cycles, on a data set seeded by an earlier run. On a machine
 * whose cores are shared, CPU time per cycle says more about the client's own cost than cycles per second:
 * the server's waits (commits) are not in it. Also printed: what the calling thread allocated a cycle, and the
 * process's CPU a cycle (the client's I/O threads, JIT and GC included).
 *
 * <pre>
 * java -cp ... dev.baton.bench.CycleCpu postgres [cycles] [n] [size]
 * </pre>
 */
public final class CycleCpu {
    /** The calling thread's allocated bytes so far, or 0 where the runtime does not count them. */
    static long allocated(ThreadMXBean mx) {
        return mx instanceof com.sun.management.ThreadMXBean sun ? sun.getThreadAllocatedBytes(Thread.currentThread().getId()) : 0;
    }

    /** The process's CPU time so far (every thread: the client's I/O threads, JIT, GC), or 0 where unknown. */
    static long processCpu() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    /**
     * What the Redis server did a cycle between two {@code INFO commandstats} readings: the top-level script calls (round
     * trips of a script each), all commands (a script's inner ones included) and the server's microseconds (a script's
     * time includes its inner commands', so the total is the scripts' and the plain commands' own), then per command.
     * Other clients of the same server are counted too: on a shared server, read it as an upper bound.
     */
    static String serverDelta(java.util.Map<String, long[]> before, java.util.Map<String, long[]> after, int cycles) {
        long scripts = 0;
        long commands = 0;
        long usec = 0;
        StringBuilder per = new StringBuilder();
        for (var e : after.entrySet()) {
            long[] b = before.getOrDefault(e.getKey(), new long[2]);
            long calls = e.getValue()[0] - b[0];
            long us = e.getValue()[1] - b[1];
            if (calls <= 0 || e.getKey().equals("info")) continue;
            commands += calls;
            boolean script = e.getKey().equals("evalsha") || e.getKey().equals("eval");
            if (script) scripts += calls;
            per.append(String.format(Locale.ROOT, " %s %.2f (%.1f us)", e.getKey(), calls / (double) cycles, us / (double) cycles));
            // a script's usec includes its inner commands: count the time of scripts and of plain commands only once
            if (script) usec += us;
        }
        long inner = 0;
        for (var e : after.entrySet()) {
            if (e.getKey().equals("evalsha") || e.getKey().equals("eval") || e.getKey().equals("info")) continue;
            long[] b = before.getOrDefault(e.getKey(), new long[2]);
            inner += e.getValue()[1] - b[1];
        }
        return String.format(Locale.ROOT, "%.2f scripts, %.1f commands, %.1f us of scripts + %.1f us of the other commands"
                + " (inner ones included) a cycle;", scripts / (double) cycles, commands / (double) cycles, usec / (double) cycles,
                inner / (double) cycles) + per;
    }

    public static void main(String[] args) throws Exception {
        String name = args[0];
        int cycles = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        int n = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
        int size = args.length > 3 ? Integer.parseInt(args[3]) : 2048;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Fixture.runStandalone(name, n, size, f -> {
            CycleTemplate t = f.template();
            RawCycle raw = f.backend.rawCycle(f.data, t);
            RawCycleBenchmark.StoreCycle store = new RawCycleBenchmark.StoreCycle(f.store, t);
            String prompt = DataSet.paddedPrompt(size, new java.util.SplittableRandom(3));
            RunOptions options = RunOptions.builder().threadId("w-thread-0").resourceId("w-user-1").build();
            long[] k = {0};
            Runnable batonCycle = () -> {
                AgentResult s = f.writer.generate(prompt, options);
                AgentResult r = f.writer.approveToolCall(s.runId(), s.waitingCalls().get(0).toolCallId()).result();
                if (r.outcome() != RunOutcome.COMPLETED) throw new IllegalStateException("cycle ended " + r.outcome());
            };
            Runnable storeCycle = () -> store.cycle("cpu-store-" + ProcessHandle.current().pid() + "-" + (k[0]++));
            Runnable rawCycle = raw == null ? null : () -> raw.cycle("cpu-raw-" + ProcessHandle.current().pid() + "-" + (k[0]++));
            for (int round = 0; round < 2; round++) {   // the first round warms up
                for (String what : new String[] {"raw", "store", "baton"}) {
                    Runnable r = what.equals("raw") ? rawCycle : what.equals("store") ? storeCycle : batonCycle;
                    if (r == null) continue;
                    java.util.Map<String, long[]> server0 = f.backend instanceof RedisBackend rb ? rb.commandStats() : null;
                    long cpu0 = mx.getCurrentThreadCpuTime();
                    long alloc0 = allocated(mx);
                    long process0 = processCpu();
                    long wall0 = System.nanoTime();
                    for (int c = 0; c < cycles; c++) r.run();
                    long cpu = mx.getCurrentThreadCpuTime() - cpu0;
                    long alloc = allocated(mx) - alloc0;
                    long process = processCpu() - process0;
                    long wall = System.nanoTime() - wall0;
                    if (round == 1) {
                        System.out.printf(Locale.ROOT, "%s %s: %.0f us CPU a cycle, %.0f us wall a cycle, %.1f KB allocated a cycle,"
                                + " %.0f us process CPU a cycle (%d cycles)%n",
                                name, what, cpu / 1e3 / cycles, wall / 1e3 / cycles, alloc / 1024.0 / cycles, process / 1e3 / cycles, cycles);
                        if (server0 != null) System.out.println("  server: " + serverDelta(server0, ((RedisBackend) f.backend).commandStats(), cycles));
                    }
                }
            }
            if (raw != null) raw.close();
        });
    }
}
