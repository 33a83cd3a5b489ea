package dev.baton.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the benchmarks and writes the report.
 *
 * <pre>
 * java -jar benchmarks/target/baton-benchmarks.jar --quick            # CI: N = 1,000 and 10,000, 1 x 0.5 s
 * java -jar benchmarks/target/baton-benchmarks.jar --report docs/BENCHMARKS.md   # the full run
 * java -jar benchmarks/target/baton-benchmarks.jar report --out DIR --report docs/BENCHMARKS.md   # redraw
 * java -jar benchmarks/target/baton-benchmarks.jar scale [--quick]     # ten million runs: see ScaleRun
 * java -jar benchmarks/target/baton-benchmarks.jar footprint [--quick] # bytes per run on every store: see Footprint
 * </pre>
 *
 * Options: {@code --backends postgres,mariadb,sqlite,h2,redis,mongo,memory}, {@code --plan
 * 10000:2048,1000000:2048} (N:snapshot size), {@code --out DIR} (JMH JSON and metadata),
 * {@code --data DIR} (H2 and SQLite files), {@code --wi/--w/--i/--r} (warmup iterations, warmup
 * ms, iterations, iteration ms), {@code --mongo-max-n} (the in-JVM MongoDB server is skipped above
 * it), {@code --memory M} (messages of the thread-memory data set; 0 skips it), {@code --child-timeout-min}, {@code --only REGEX} (JMH's include pattern
 * instead of every benchmark of the data set, e.g. {@code "(Throughput|RawCycle)Benchmark"}), {@code --jvm "OPTIONS"} (more options for the child JVMs, e.g.
 * {@code -XX:StartFlightRecording=...}), {@code --seed-only} (seed and check, no measurement), {@code --reseed}
 * (ignore the seed markers). Each (backend, N, size) runs in its own JVM ({@link BackendRun});
 * server URLs come from {@code BATON_TEST_POSTGRES_URL}, {@code BATON_TEST_MARIADB_URL},
 * {@code BATON_TEST_REDIS_URL} and {@code BATON_TEST_MONGO_URL}, else 127.0.0.1 defaults.
 */
public final class BenchMain {
    private static boolean reseed;
    /** {@code --only REGEX}: JMH's include pattern (e.g. {@code (Throughput|RawCycle)Benchmark}); empty for every benchmark. */
    private static String only = "";
    /** {@code --jvm "ARGS"}: more options for the child JVMs (e.g. a flight recording). */
    private static String jvmArgs = "";

    public static void main(String[] argv) throws Exception {
        System.setProperty("java.awt.headless", "true");   // the charts are drawn off-screen
        List<String> args = new ArrayList<>(Arrays.asList(argv));
        if (!args.isEmpty() && args.get(0).equals("scale")) {   // ScaleRun: ten million runs on PostgreSQL and MariaDB
            ScaleRun.main(args.subList(1, args.size()).toArray(String[]::new));
            return;
        }
        if (!args.isEmpty() && args.get(0).equals("footprint")) {   // Footprint: bytes per run on every store
            Footprint.main(args.subList(1, args.size()).toArray(String[]::new));
            return;
        }
        boolean reportOnly = !args.isEmpty() && args.get(0).equals("report");
        if (reportOnly) args.remove(0);
        boolean quick = args.remove("--quick");
        boolean seedOnly = args.remove("--seed-only");
        reseed = args.remove("--reseed");
        Map<String, String> o = new LinkedHashMap<>();
        for (int k = 0; k < args.size(); k++) {
            String a = args.get(k);
            if (a.equals("--help") || a.equals("-h")) {
                usage();
                return;
            }
            if (!a.startsWith("--") || k + 1 >= args.size()) {
                System.err.println("bad argument: " + a);
                usage();
                System.exit(2);
            }
            o.put(a.substring(2), args.get(++k));
        }
        Path jarDir = jarDir();
        String mode = quick ? "quick" : "full";
        Path out = Path.of(o.getOrDefault("out", jarDir.resolve("bench-results").resolve(mode).toString()));
        Path report = Path.of(o.getOrDefault("report", out.resolve("BENCHMARKS.md").toString()));
        if (reportOnly) {
            Report.write(out, report);
            return;
        }
        Path data = Path.of(o.getOrDefault("data", jarDir.resolve("bench-data").toString()));
        List<String> backends = List.of(o.getOrDefault("backends", String.join(",", Backend.ALL)).split(","));
        for (String b : backends) {
            if (!Backend.ALL.contains(b)) throw new IllegalArgumentException("unknown backend '" + b + "'; known: " + Backend.ALL);
        }
        String plan = o.getOrDefault("plan", quick ? "1000:2048,10000:2048" : "10000:2048,10000:14336,1000000:2048,100000:2048");
        int wi = seedOnly ? -1 : Integer.parseInt(o.getOrDefault("wi", "1"));
        long w = Long.parseLong(o.getOrDefault("w", "500"));
        int i = Integer.parseInt(o.getOrDefault("i", quick ? "1" : "2"));
        long r = Long.parseLong(o.getOrDefault("r", quick ? "500" : "1000"));
        int mongoMaxN = Integer.parseInt(o.getOrDefault("mongo-max-n", "100000"));
        long childTimeout = Long.parseLong(o.getOrDefault("child-timeout-min", quick ? "10" : "20"));
        int memoryN = Integer.parseInt(o.getOrDefault("memory", quick ? "10000" : "1000000"));
        only = o.getOrDefault("only", "");
        jvmArgs = o.getOrDefault("jvm", "");

        Files.createDirectories(out);
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("mode", mode);
        run.put("plan", plan);
        run.put("memoryMessages", memoryN);
        run.put("backends", backends);
        run.put("warmup", wi + " x " + w + " ms");
        run.put("measurement", i + " x " + r + " ms");
        run.put("command", "java -jar benchmarks/target/baton-benchmarks.jar " + String.join(" ", argv));
        run.put("machine", Machine.describe());
        run.put("startedAt", Instant.now().toString());
        long start = System.nanoTime();
        List<String> failed = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (String step : plan.split(",")) {
            String[] p = step.split(":");
            int n = Integer.parseInt(p[0].trim());
            int size = p.length > 1 ? Integer.parseInt(p[1].trim()) : 2048;
            String tag = DataSet.tag(n, size);
            for (String b : backends) {
                if (b.equals("mongo") && n > mongoMaxN && System.getenv("BATON_TEST_MONGO_URL") == null) {
                    skipped.add(b + " " + tag + " (in-JVM server, above --mongo-max-n " + mongoMaxN + ")");
                    continue;
                }
                String id = b + "-" + tag;
                System.err.printf(Locale.ROOT, "%n[bench] ==== %s (%.0f s so far) ====%n", id, (System.nanoTime() - start) / 1e9);
                int code = child(BackendRun.class, b, n, size, List.of(b, Integer.toString(n), Integer.toString(size),
                        out.resolve("results-" + id + ".json").toString(), out.resolve("meta-" + id + ".json").toString(),
                        data.toString(), Integer.toString(wi), Long.toString(w), Integer.toString(i), Long.toString(r)), childTimeout);
                if (code != 0) failed.add(id + " (exit " + code + ")");
            }
        }
        if (memoryN > 0) {
            for (String b : backends) {
                int messages = memoryN;
                if (b.equals("mongo") && memoryN > mongoMaxN && System.getenv("BATON_TEST_MONGO_URL") == null) {
                    messages = mongoMaxN;   // the in-JVM server scans: measured at --mongo-max-n messages only
                    skipped.add(b + " " + new MemoryData(memoryN).tag() + " (in-JVM server, above --mongo-max-n " + mongoMaxN
                            + "; measured at " + String.format(Locale.ROOT, "%,d", messages) + " messages instead)");
                }
                String id = b + "-" + new MemoryData(messages).tag();
                System.err.printf(Locale.ROOT, "%n[bench] ==== %s (%.0f s so far) ====%n", id, (System.nanoTime() - start) / 1e9);
                int code = child(MemoryRun.class, b, messages, 1024, List.of(b, Integer.toString(messages),
                        out.resolve("results-" + id + ".json").toString(), out.resolve("meta-" + id + ".json").toString(),
                        data.toString(), Integer.toString(wi), Long.toString(w), Integer.toString(i), Long.toString(r)), childTimeout);
                if (code != 0) failed.add(id + " (exit " + code + ")");
            }
        }
        if (seedOnly) {
            System.err.printf(Locale.ROOT, "[bench] seeded in %.0f s%s%n", (System.nanoTime() - start) / 1e9,
                    failed.isEmpty() ? "" : "; FAILED: " + failed);
            System.exit(failed.isEmpty() ? 0 : 1);
        }
        run.put("endedAt", Instant.now().toString());
        run.put("totalSeconds", (System.nanoTime() - start) / 1e9);
        run.put("failed", failed);
        run.put("skipped", skipped);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve("run.json").toFile(), run);
        Report.write(out, report);
        System.err.printf(Locale.ROOT, "%n[bench] done in %.0f s; report %s%s%n", (System.nanoTime() - start) / 1e9, report,
                failed.isEmpty() ? "" : "; FAILED: " + failed);
        System.exit(failed.isEmpty() ? 0 : 1);
    }

    private static int child(Class<?> main, String backend, int n, int size, List<String> args, long timeoutMinutes)
            throws Exception {
        Files.deleteIfExists(Path.of(args.get(main == BackendRun.class ? 3 : 2)));
        boolean inJvm = backend.equals("memory") || backend.equals("mongo");
        long heapMb = inJvm ? Math.max(1024, Math.min(12_288, 1024 + (long) n * size * 4 / (1 << 20))) : 1536;
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms" + heapMb + "m", "-Xmx" + heapMb + "m", "-XX:+UseParallelGC",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dbench.reseed=" + reseed,
                // mongo-java-server warns at every open that it ignores secondary indexes: said once in the report
                "-Dorg.slf4j.simpleLogger.log.de.bwaldvogel=error", "-Dbench.only=" + only,
                "-cp", System.getProperty("java.class.path"), main.getName()));
        if (!jvmArgs.isBlank()) cmd.addAll(cmd.indexOf("-cp"), List.of(jvmArgs.trim().split("\\s+")));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
            System.err.println("[bench] " + backend + " n=" + n + " took longer than " + timeoutMinutes + " min: stopped");
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly();
            return 124;
        }
        return p.exitValue();
    }

    private static Path jarDir() {
        try {
            Path here = Path.of(BenchMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return here.getParent();
        } catch (Exception e) {
            return Path.of("benchmarks", "target");
        }
    }

    private static void usage() {
        System.err.println(String.join(File.separator.equals("/") ? "\n" : System.lineSeparator(),
                "usage: java -jar baton-benchmarks.jar [--quick] [--backends a,b] [--plan N:SIZE,...] [--out DIR]",
                "           [--report FILE] [--data DIR] [--wi N] [--w MS] [--i N] [--r MS] [--mongo-max-n N] [--memory M]",
                "       java -jar baton-benchmarks.jar report [--out DIR] [--report FILE]",
                "backends: " + Backend.ALL));
    }
}
