package dev.baton.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.baton.agent.Agent;
import dev.baton.agent.ExpiryPolicy;
import dev.baton.agent.ExpiryReport;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scale benchmark: seeds {@link ScaleData} at each size on PostgreSQL and MariaDB, and {@link RedisScaleData} on Redis (once; the
 * seeded tables are kept), measures what a run costs on disk, runs {@link ScaleBenchmark} on it,
 * times one real expirer pass, and writes a report comparing the sizes.
 *
 * <pre>
 * java -jar benchmarks/target/baton-benchmarks.jar scale                 # 1,000,000 and 10,000,000 runs
 * java -jar benchmarks/target/baton-benchmarks.jar scale --quick         # CI: 10,000 and 100,000, a few seconds each
 * </pre>
 *
 * Options: {@code --backends postgres,mariadb} (or {@code redis}, not by default: see {@link RedisScaleData}), {@code --redis-db 9}, {@code --sizes 1000000,10000000}, {@code --out DIR},
 * {@code --report FILE}, {@code --wi/--w/--i/--r} (as for the main run). Server URLs come from
 * {@code BATON_TEST_POSTGRES_URL}, {@code BATON_TEST_MARIADB_URL} and {@code BATON_TEST_REDIS_URL}.
 */
public final class ScaleRun {
    private ScaleRun() {
    }

    public static void main(String[] argv) throws Exception {
        // a shared machine may run another JMH at the same time: this one runs in-process, its own lock is not needed
        if (System.getProperty("jmh.ignoreLock") == null) System.setProperty("jmh.ignoreLock", "true");
        List<String> args = new ArrayList<>(List.of(argv));
        boolean quick = args.remove("--quick");
        Map<String, String> o = new LinkedHashMap<>();
        for (int k = 0; k + 1 < args.size(); k += 2) {
            if (!args.get(k).startsWith("--")) throw new IllegalArgumentException("bad argument: " + args.get(k));
            o.put(args.get(k).substring(2), args.get(k + 1));
        }
        if (args.size() % 2 != 0) throw new IllegalArgumentException("an option without a value: " + args);
        List<String> backends = List.of(o.getOrDefault("backends", "postgres,mariadb").split(","));
        List<Integer> sizes = new ArrayList<>();
        for (String s : o.getOrDefault("sizes", quick ? "10000,100000" : "1000000,10000000").split(",")) sizes.add(Integer.parseInt(s.trim()));
        Path out = Path.of(o.getOrDefault("out", "benchmarks/target/bench-results/scale" + (quick ? "-quick" : "")));
        Path report = Path.of(o.getOrDefault("report", out.resolve("SCALE.md").toString()));
        int wi = Integer.parseInt(o.getOrDefault("wi", "1"));
        long w = Long.parseLong(o.getOrDefault("w", quick ? "200" : "1000"));
        int i = Integer.parseInt(o.getOrDefault("i", quick ? "1" : "3"));
        long r = Long.parseLong(o.getOrDefault("r", quick ? "300" : "2000"));
        Files.createDirectories(out);
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String backend : backends) {
            for (int n : sizes) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("backend", backend);
                row.put("n", n);
                ScaleSeed data = seedOf(backend, n, o.getOrDefault("redis-db", "9"));
                boolean reused = data.isSeeded();
                row.put("reusedSeed", reused);
                row.put("seedSeconds", reused ? data.seededSeconds() : data.seed());
                row.putAll(data.footprint());
                ScaleFixture f = new ScaleFixture(data);
                try {
                    row.put("sanity", sanity(f));
                    ScaleFixture.current = f;
                    Path results = out.resolve("results-scale-" + backend + "-" + DataSet.human(n) + ".json");
                    org.openjdk.jmh.runner.options.ChainedOptionsBuilder b = new org.openjdk.jmh.runner.options.OptionsBuilder()
                            .include("dev\\.baton\\.bench\\.ScaleBenchmark\\.").param("backend", backend).param("n", Integer.toString(n))
                            .forks(0).threads(1).warmupIterations(wi)
                            .warmupTime(org.openjdk.jmh.runner.options.TimeValue.milliseconds(w)).measurementIterations(i)
                            .measurementTime(org.openjdk.jmh.runner.options.TimeValue.milliseconds(r)).shouldFailOnError(true)
                            .resultFormat(org.openjdk.jmh.results.format.ResultFormatType.JSON).result(results.toString());
                    new org.openjdk.jmh.runner.Runner(b.build()).run();
                    for (JsonNode res : json.readTree(results.toFile())) {
                        String name = res.path("benchmark").asText().replaceFirst(".*\\.", "");
                        row.put(name + "Micros", res.path("primaryMetric").path("score").asDouble());
                    }
                    row.putAll(expirerPass(f));
                } finally {
                    ScaleFixture.current = null;
                    f.close();
                }
                rows.add(row);
                json.writeValue(out.resolve("scale.json").toFile(), rows);
                System.err.println("[scale] " + row);
            }
        }
        String md = report(rows, sizes, quick);
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.writeString(report, md);
        System.out.println(md);
    }

    static ScaleSeed seedOf(String backend, int n, String redisDb) {
        return switch (backend) {
            case "postgres" -> new ScaleData(backend, Backend.env("BATON_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres"), n);
            case "mariadb" -> new ScaleData(backend, Backend.env("BATON_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test?user=root&sslMode=disable"), n);
            case "redis" -> new RedisScaleData(Backend.env("BATON_TEST_REDIS_URL", "redis://127.0.0.1:6379"), Integer.parseInt(redisDb), n);
            default -> throw new IllegalArgumentException("the scale benchmark runs on postgres, mariadb and redis, not " + backend);
        };
    }

    /** Checks the shape through Baton: a thread holds 10 runs, a resource 100, an agent about half. */
    static String sanity(ScaleFixture f) {
        long t = f.threads[3];
        Agent a = f.agents[ScaleData.agentOfThread(t)];
        long thread = a.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().threadId(ScaleData.threadId(t)).perPage(20).page(1).build()).total();
        long resource = a.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().resourceId(ScaleData.resourceId(t / 10)).perPage(20).page(1)
                .build()).total();
        long all = a.listSuspendedRuns(AgentListSuspendedRunsOptions.builder().perPage(20).page(1).build()).total();
        if (thread != ScaleData.PER_THREAD || resource != ScaleData.PER_RESOURCE || all < f.data.n() / 2 - 100_000) {
            throw new IllegalStateException("the seeded data is not what ScaleData says: thread " + thread + ", resource " + resource
                    + ", agent " + all);
        }
        return "thread total " + thread + ", resource total " + resource + ", agent total " + all;
    }

    /** One real expirer pass over 100 due runs (it cancels them: each pass consumes 100 of the seeded due runs). */
    static Map<String, Object> expirerPass(ScaleFixture f) {
        Agent a = f.agent(0, Clock.fixed(ScaleData.DUE.plusSeconds(1), ZoneOffset.UTC), ExpiryPolicy.cancel("scale benchmark"));
        long t0 = System.nanoTime();
        ExpiryReport r = a.expireDueRuns(100);
        double ms = (System.nanoTime() - t0) / 1e6;
        a.close();
        return Map.of("expirerPassMillis", ms, "expirerPassHandled", r.handled());
    }

    static String report(List<Map<String, Object>> rows, List<Integer> sizes, boolean quick) {
        StringBuilder b = new StringBuilder("# Scale benchmark (" + (quick ? "quick" : "full") + ", " + Instant.now() + ")\n\n");
        b.append("Machine: ").append(Machine.describe()).append(". Shared with other jobs while it ran: figures are indicative.\n\n");
        b.append("| backend | runs | bytes/run | seed s | thread page | resource page | agent page | listDue 100 | expirer, nothing due | expirer pass (100 due) |\n");
        b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Map<String, Object> r : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %,d | %.0f | %.0f%s | %s | %s | %s | %s | %s | %.1f ms (%s runs) |%n", r.get("backend"), r.get("n"),
                    r.get("bytesPerRun"), ((Number) r.get("seedSeconds")).doubleValue(), Boolean.TRUE.equals(r.get("reusedSeed")) ? " (kept)" : "",
                    ms(r, "threadPage"), ms(r, "resourcePage"), ms(r, "unfilteredPage"), ms(r, "listDue"), ms(r, "expirerNothingDue"),
                    ((Number) r.get("expirerPassMillis")).doubleValue(), r.get("expirerPassHandled")));
        }
        if (sizes.size() == 2) {
            b.append("\nRatio of the larger size to the smaller (goal for the thread page: at most 1.5x):\n\n| backend | thread | resource | agent | listDue | expirer, nothing due |\n|---|---:|---:|---:|---:|---:|\n");
            for (int k = 0; k + 1 < rows.size(); k++) {
                Map<String, Object> lo = rows.get(k), hi = rows.get(k + 1);
                if (!lo.get("backend").equals(hi.get("backend"))) continue;
                b.append("| ").append(lo.get("backend"));
                for (String op : List.of("threadPage", "resourcePage", "unfilteredPage", "listDue", "expirerNothingDue")) {
                    b.append(String.format(Locale.ROOT, " | %.2fx", ((Number) hi.get(op + "Micros")).doubleValue() / ((Number) lo.get(op + "Micros")).doubleValue()));
                }
                b.append(" |\n");
            }
        }
        return b.toString();
    }

    private static String ms(Map<String, Object> r, String op) {
        Object v = r.get(op + "Micros");
        return v == null ? "-" : String.format(Locale.ROOT, "%.3f ms", ((Number) v).doubleValue() / 1000);
    }
}
