package dev.baton.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.bench.Report.Score;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The tables of {@code BENCHMARKS.md} beside the listing tables: the performance targets, the
 * writes and their throughput, thread memory, and the seeds. {@link Report} reads the JSON and
 * draws the charts; this class only formats.
 */
final class ReportTables {
    private static final int K10 = 10_000;
    private static final int M1 = 1_000_000;
    private static final int SIZE = Report.SIZE_DEFAULT;
    private static final int SIZE_14K = 14_336;

    private final Report r;

    ReportTables(Report r) {
        this.r = r;
    }

    /** The targets of "Performance, round 2", with the figures of the run before it, and what this run measured. */
    void targets(StringBuilder md) {
        md.append("## Targets\n\n");
        md.append("*Before* is the run of 2026-12-02 (before covering indexes, one-statement listings, stored summaries ")
                .append("and counted trees); *measured* is this run. A ratio is against the raw query measured in the same run.\n\n");
        md.append("| what | before | target | measured | met |\n|---|---|---|---|---|\n");
        atMost(md, "PostgreSQL thread page + total, 10k", "1.16 ms (raw 0.32)", "postgres", K10, SIZE, "thread", 0.45);
        atMost(md, "PostgreSQL thread page + total, 10k, 14 KB snapshots", "2.09 ms", "postgres", K10, SIZE_14K, "thread", 0.5);
        atMost(md, "PostgreSQL thread page + total, 1M", "6.62 ms (raw 5.35)", "postgres", M1, SIZE, "thread", 1.5);
        atMost(md, "PostgreSQL unfiltered page + total, 1M", "53.9 ms", "postgres", M1, SIZE, "unfiltered", 10);
        atMost(md, "MariaDB thread page + total, 1M", "96.2 ms", "mariadb", M1, SIZE, "thread", 10);
        Score redis = r.score("redis", M1, SIZE, "threadBaton");
        Score redisRaw = r.score("redis", M1, SIZE, "threadRaw");
        if (redis != null && redisRaw != null) {
            double x = redis.us() / redisRaw.us();
            row(md, "Redis thread page + total, 1M", "2.21x raw", "≤ 1.3x raw",
                    Report.ms(redis) + " ms, raw " + Report.ms(redisRaw) + " ms: " + x(x), x <= 1.3);
        }
        atMost(md, "memory store thread page, 1M", "0.536 ms", "memory", M1, SIZE, "thread", 0.05);
        List<String> shares = new ArrayList<>();
        double worst = 0;
        for (String b : r.backends()) {
            Score baton = r.score(b, K10, SIZE, "threadBaton");
            Score store = r.score(b, K10, SIZE, "threadStore");
            if (baton == null || store == null || store.us() <= 0) continue;
            double x = baton.us() / store.us();
            worst = Math.max(worst, x);
            shares.add(r.label(b).replace(" (in-JVM, not representative)", " (in-JVM)") + " " + x(x)
                    + (b.equals("memory") ? " (" + Report.ms(baton) + " vs " + Report.ms(store) + " ms)" : ""));
        }
        if (!shares.isEmpty()) {
            row(md, "Baton over store (core's share), thread page, every store, 10k", "up to 3x", "≤ 1.2x",
                    String.join("; ", shares), worst <= 1.2);
        }
        row(md, "round trips per listing, PostgreSQL", "7", "1 (or 2 with no transaction), counted in a test",
                "1 statement for page and total, counted on the wire by `PostgresRoundTripTest` (also MariaDB: `MariaDbRoundTripTest`)", true);
        row(md, "store round trips from approve to completion, one tool", "reported", "counted in a test, the fewest the design allows",
                "4: find, claim with the approval recorded (compare-and-set), the tool's result stored (compare-and-set), "
                        + "delete; decline 3 (no tool); a new suspended run 1 insert; a listing 1 call: `StoreRoundTripsTest`", true);
        Score pt = r.score("postgres", K10, SIZE, "threadBaton");
        if (pt != null) row(md, "thread page at 10,000 runs under 2 ms (reference: 18.4 ms)", "1.16 ms", "< 2 ms", Report.ms(pt) + " ms", pt.us() < 2000);
        Score pu = r.score("postgres", K10, SIZE, "unfilteredBaton");
        if (pu != null) {
            row(md, "unfiltered page with total at 10,000 runs under 20 ms (reference: 16.6 s)", "1.83 ms", "< 20 ms",
                    Report.ms(pu) + " ms", pu.us() < 20_000);
        }
        md.append('\n');
    }

    private void atMost(StringBuilder md, String what, String before, String backend, int n, int size, String kind, double limitMs) {
        Score baton = r.score(backend, n, size, kind + "Baton");
        if (baton == null) return;
        Score raw = r.score(backend, n, size, kind + "Raw");
        String measured = Report.ms(baton) + " ms" + (raw == null ? "" : " (raw " + Report.ms(raw) + " ms, " + x(baton.us() / raw.us()) + ")");
        row(md, what, before, "≤ " + limitMs + " ms", measured, baton.us() <= limitMs * 1000);
    }

    private static void row(StringBuilder md, String what, String before, String target, String measured, boolean met) {
        md.append("| ").append(what).append(" | ").append(before).append(" | ").append(target).append(" | ").append(measured)
                .append(" | ").append(met ? "yes" : "**no**").append(" |\n");
    }

    private static String x(double ratio) {
        return String.format(Locale.ROOT, "%.2fx", ratio);
    }

    private static String perSecond(@Nullable Score s) {
        return s == null ? "-" : String.format(Locale.ROOT, "%,.0f", 1e6 / s.us());
    }

    void writes(StringBuilder md) {
        md.append("## Writes and throughput\n\n");
        md.append("*persist* is `agent.generate(...)` of a run that suspends for approval (model call, snapshot of about the ")
                .append("snapshot size inserted), in ms; *approve* is `agent.approveToolCall(...).result()` to completion (find, claim, ")
                .append("tool, result stored, model, delete), in ms. *Cycles/s* is the whole cycle (suspend, then approve to completion) ")
                .append("per second, JMH throughput mode: on one thread, and on eight threads at once (each on its own runs, all ")
                .append("eight together).\n\n");
        md.append("| backend | N | snapshot | persist | approve | cycles/s, 1 thread | cycles/s, 8 threads | 8 / 1 |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String b : r.backends()) {
            for (int[] c : r.cases()) {
                Score p = r.score(b, c[0], c[1], "persistSuspension");
                Score a = r.score(b, c[0], c[1], "approveToCompletion");
                Score c1 = r.score(b, c[0], c[1], "cycle1");
                Score c8 = r.score(b, c[0], c[1], "cycle8");
                if (p == null && a == null && c1 == null) continue;
                md.append("| ").append(r.label(b)).append(" | ").append(String.format(Locale.ROOT, "%,d", c[0])).append(" | ")
                        .append(Report.sizeLabel(c[1])).append(" | ").append(Report.ms(p)).append(" | ").append(Report.ms(a))
                        .append(" | ").append(perSecond(c1)).append(" | ").append(perSecond(c8)).append(" | ")
                        .append(c1 == null || c8 == null ? "-" : x(c1.us() / c8.us())).append(" |\n");
            }
        }
        md.append('\n');
    }

    /** Baton's cycle and suspension against the raw baseline of the same run (RawCycleBenchmark), per store. */
    void rawCycles(StringBuilder md) {
        boolean any = false;
        for (String b : r.backends()) for (int[] c : r.cases()) any |= r.score(b, c[0], c[1], "rawCycle1") != null;
        if (!any) return;
        md.append("## The approval cycle against its raw baseline\n\n");
        md.append("Per second, JMH throughput mode, in the same run and JVM. *Cycle*: `ThroughputBenchmark.cycle1/8` (Baton: ")
                .append("`generate` until it suspends, then `approveToolCall(...).result()` to completion); *store*: the same five ")
                .append("store calls through the SPI on the same rows (`RawCycleBenchmark.storeCycle1/8`); *raw*: the same ")
                .append("statements by hand (`rawCycle1/8`: JDBC with prepared statements, one connection per thread, or Lettuce, ")
                .append("one connection per thread, one round trip per operation). *Suspension*: `suspend1/8` (Baton's `generate` ")
                .append("until it suspends) against `rawSuspend1/8` (the insert by hand). *x raw* is raw's rate over Baton's: ")
                .append("how many times longer Baton takes.\n\n");
        md.append("| backend | threads | cycle: Baton | store | raw | Baton x raw | store x raw | suspension: Baton | raw | x raw |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String b : r.backends()) {
            for (int[] c : r.cases()) {
                for (int t : new int[] {1, 8}) {
                    Score raw = r.score(b, c[0], c[1], "rawCycle" + t);
                    if (raw == null) continue;
                    Score baton = r.score(b, c[0], c[1], "cycle" + t);
                    Score store = r.score(b, c[0], c[1], "storeCycle" + t);
                    Score sb = r.score(b, c[0], c[1], "suspend" + t);
                    Score sr = r.score(b, c[0], c[1], "rawSuspend" + t);
                    md.append("| ").append(r.label(b)).append(" | ").append(t).append(" | ").append(perSecond(baton))
                            .append(" | ").append(perSecond(store)).append(" | ").append(perSecond(raw)).append(" | ")
                            .append(Report.ratio(baton, raw)).append(" | ").append(Report.ratio(store, raw)).append(" | ")
                            .append(perSecond(sb)).append(" | ").append(perSecond(sr)).append(" | ").append(Report.ratio(sb, sr))
                            .append(" |\n");
                }
            }
        }
        md.append('\n');
    }

    void memory(StringBuilder md) {
        List<int[]> cases = r.memoryCases();
        if (cases.isEmpty()) return;
        md.append("## Thread memory\n\n");
        md.append("Seeded messages in threads of ").append(MemoryData.PER_THREAD).append(" (about ").append(MemoryData.TEXT)
                .append(" characters each), ").append(MemoryData.THREADS_PER_RESOURCE).append(" threads per resource: at 1,000,000 ")
                .append("messages, 10,000 threads. *Last 20*: *Baton* is what a run reads before its first model call with ")
                .append("`Memory.lastMessages(20)` (the thread, its owner checked, then its last 20 messages decoded, as core's run ")
                .append("loop reads them); *store* is `MemoryStore.lastMessages(threadId, 20)`; *raw* the hand-written ")
                .append("query on the store's tables or keys. *Threads*: a resource's threads, newest first, page of 20 with the ")
                .append("total (`Memory.listThreads`, `MemoryStore.listThreads`, hand-written). Milliseconds per operation.\n\n");
        md.append("| backend | messages | last 20: Baton | store | raw | store / raw | threads: Baton | store | raw | store / raw |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String b : r.backends()) {
            for (int[] c : cases) {
                Score lb = r.score(b, c[0], 0, "lastMessagesBaton");
                if (lb == null) continue;
                Score ls = r.score(b, c[0], 0, "lastMessagesStore");
                Score lr = r.score(b, c[0], 0, "lastMessagesRaw");
                Score tb = r.score(b, c[0], 0, "threadsBaton");
                Score ts = r.score(b, c[0], 0, "threadsStore");
                Score tr = r.score(b, c[0], 0, "threadsRaw");
                md.append("| ").append(r.label(b)).append(" | ").append(String.format(Locale.ROOT, "%,d", c[0])).append(" | ")
                        .append(Report.ms(lb)).append(" | ").append(Report.ms(ls)).append(" | ").append(Report.ms(lr)).append(" | ")
                        .append(Report.ratio(ls, lr)).append(" | ").append(Report.ms(tb)).append(" | ").append(Report.ms(ts))
                        .append(" | ").append(Report.ms(tr)).append(" | ").append(Report.ratio(ts, tr)).append(" |\n");
            }
        }
        md.append('\n');
    }

    void seeds(StringBuilder md) {
        md.append("## Seeding and sanity checks\n\n");
        md.append("| backend | data set | seed | sanity check before measuring |\n|---|---|---:|---|\n");
        for (JsonNode m : r.metas.values()) {
            String seed = m.path("reusedSeed").asBoolean() ? "reused" : String.format(Locale.ROOT, "%.1f s", m.path("seedSeconds").asDouble());
            String set = m.path("kind").asText().equals("memory")
                    ? String.format(Locale.ROOT, "%,d messages", m.path("n").asInt())
                    : String.format(Locale.ROOT, "%,d x %s", m.path("n").asInt(), Report.sizeLabel(m.path("size").asInt()));
            md.append("| ").append(r.label(m.path("backend").asText())).append(" | ").append(set).append(" | ").append(seed)
                    .append(" | ").append(m.has("error") ? "**" + m.path("error").asText() + "**" : m.path("sanity").asText("-"))
                    .append(" |\n");
        }
        md.append('\n');
    }
}
