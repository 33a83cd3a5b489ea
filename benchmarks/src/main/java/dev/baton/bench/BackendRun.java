package dev.baton.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * One JVM per (backend, N, size), started by {@link BenchMain}: seeds the data set unless its
 * marker says it is there, checks it through Baton, then runs every benchmark on it with JMH
 * inside this JVM (no further forks), so the seeded store is opened once and, for the in-JVM
 * stores, seeded once for all benchmark methods.
 *
 * <p>Arguments: {@code backend n size resultsJson metaJson dataDir warmupIterations warmupMillis
 * iterations iterationMillis}.
 */
public final class BackendRun {

    public static void main(String[] args) throws Exception {
        if (args.length != 10) {
            System.err.println("usage: BackendRun backend n size results.json meta.json dataDir wi wMillis i rMillis");
            System.exit(2);
        }
        String name = args[0];
        int n = Integer.parseInt(args[1]);
        int size = Integer.parseInt(args[2]);
        Jmh jmh = Jmh.parse(args, 3);
        Path metaFile = jmh.metaFile();
        int wi = jmh.wi();

        Map<String, Object> meta = startMeta(name, null, n, size);
        int exit = 0;
        try (Backend backend = Backend.create(name, jmh.dataDir())) {
            meta.put("server", backend.describe());
            meta.put("representative", backend.representative());
            DataSet data = new DataSet(n, size);
            seedUnlessThere(meta, name, data.tag(), () -> backend.isSeeded(data),
                    String.format("%,d runs of %,d characters", n, size), () -> backend.seed(data));

            Fixture f = new Fixture(backend, data);
            try {
                long t1 = System.nanoTime();
                String sanity = f.sanityCheck();
                meta.put("sanity", sanity);
                meta.put("sanitySeconds", (System.nanoTime() - t1) / 1e9);
                System.err.printf("[bench] %s %s: %s%n", name, data.tag(), sanity);
                Fixture.current = f;
                if (wi < 0) {
                    System.err.println("[bench] seed only: no measurement");
                    finish(meta, metaFile, 0);
                }

                String methods = f.raw == null ? "(threadBaton|threadStore|resourceBaton|unfilteredBaton|threadDatesBaton|waitingForBaton|waitingForStore)"
                        : f.raw.deciders() ? "(thread|resource|unfiltered|threadDates|waitingFor)(Baton|Store|Raw)"
                        : "(thread|resource|unfiltered|threadDates|waitingFor)(Baton|Store)|(thread|resource|unfiltered|threadDates)Raw";
                long t2 = System.nanoTime();
                List<String> includes = new java.util.ArrayList<>(List.of("dev\\.baton\\.bench\\.ListingBenchmark\\." + methods + "$",
                        "dev\\.baton\\.bench\\.WriteBenchmark\\.", "dev\\.baton\\.bench\\.ThroughputBenchmark\\."));
                RawCycle probe = f.raw == null ? null : backend.rawCycle(data, f.template());
                if (probe != null) {
                    probe.close();
                    includes.add("dev\\.baton\\.bench\\.RawCycleBenchmark\\.");
                    meta.put("cycleCalls", f.template().calls());
                }
                String only = System.getProperty("bench.only", "");
                if (!only.isEmpty()) includes = List.of(only);   // --only: JMH's own include pattern instead
                // a backend without a raw query (memory), or without the raw waiting-for-me one, skips those even under --only
                String noRaw = f.raw == null ? "dev\\.baton\\.bench\\.ListingBenchmark\\.\\w+Raw$"
                        : f.raw.deciders() ? null : "dev\\.baton\\.bench\\.ListingBenchmark\\.waitingForRaw$";
                measure(includes, noRaw, name, n, size, jmh);
                meta.put("benchSeconds", (System.nanoTime() - t2) / 1e9);
            } finally {
                Fixture.current = null;
                f.purgeWriter();
                f.close();
            }
        } catch (Throwable e) {
            e.printStackTrace();
            meta.put("error", e.toString());
            exit = 1;
        }
        finish(meta, metaFile, exit);
    }

    /**
     * The arguments {@link BackendRun} and {@link MemoryRun} share after their own: where the results and the
     * metadata go, the data directory, and JMH's warm-up and measurement iterations and their lengths.
     */
    record Jmh(Path results, Path metaFile, Path dataDir, int wi, long w, int i, long r) {
        /** Reads the seven arguments from {@code args[from]} on. */
        static Jmh parse(String[] args, int from) {
            return new Jmh(Path.of(args[from]), Path.of(args[from + 1]), Path.of(args[from + 2]),
                    Integer.parseInt(args[from + 3]), Long.parseLong(args[from + 4]),
                    Integer.parseInt(args[from + 5]), Long.parseLong(args[from + 6]));
        }
    }

    /** A data set's check: is it there? */
    @FunctionalInterface
    interface SeedCheck {
        boolean isSeeded() throws Exception;
    }

    /** A data set's seeding. */
    @FunctionalInterface
    interface Seeding {
        void seed() throws Exception;
    }

    /** The metadata every run starts with; {@code kind} is left out when null. */
    static Map<String, Object> startMeta(String backend, String kind, int n, int size) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("backend", backend);
        if (kind != null) meta.put("kind", kind);
        meta.put("n", n);
        meta.put("size", size);
        meta.put("startedAt", Instant.now().toString());
        return meta;
    }

    /**
     * Seeds unless {@code isSeeded} says the data set is there (or {@code -Dbench.reseed=true}), and records
     * in {@code meta} whether the seed was reused and how long it took.
     */
    static void seedUnlessThere(Map<String, Object> meta, String name, String tag, SeedCheck isSeeded, String what,
            Seeding seed) throws Exception {
        long t0 = System.nanoTime();
        boolean seeded = !Boolean.getBoolean("bench.reseed") && isSeeded.isSeeded();
        if (!seeded) {
            System.err.printf("[bench] %s: seeding %s%n", name, what);
            seed.seed();
        }
        double seedSeconds = (System.nanoTime() - t0) / 1e9;
        meta.put("reusedSeed", seeded);
        meta.put("seedSeconds", seedSeconds);
        System.err.printf("[bench] %s %s: %s in %.1f s%n", name, tag, seeded ? "seed reused" : "seeded", seedSeconds);
    }

    /** Runs the benchmarks matching {@code includes} in this JVM (no forks) with the data set's parameters. */
    static void measure(List<String> includes, String backend, int n, int size, Jmh jmh) throws RunnerException {
        measure(includes, null, backend, n, size, jmh);
    }

    /** The same, leaving out the benchmarks matching {@code exclude} (if not null). */
    static void measure(List<String> includes, @org.jspecify.annotations.Nullable String exclude, String backend, int n, int size,
                        Jmh jmh) throws RunnerException {
        ChainedOptionsBuilder o = new OptionsBuilder();
        for (String include : includes) o.include(include);
        if (exclude != null) o.exclude(exclude);
        o.param("backend", backend)
                .param("n", Integer.toString(n))
                .param("size", Integer.toString(size))
                .forks(0)
                .warmupIterations(jmh.wi())
                .warmupTime(TimeValue.milliseconds(jmh.w()))
                .measurementIterations(jmh.i())
                .measurementTime(TimeValue.milliseconds(jmh.r()))
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON)
                .result(jmh.results().toString());
        new Runner(o.build()).run();
    }

    /** Writes the metadata file and exits with {@code exit} (drivers keep non-daemon threads). */
    static void finish(Map<String, Object> meta, Path metaFile, int exit) throws java.io.IOException {
        meta.put("endedAt", Instant.now().toString());
        Files.createDirectories(metaFile.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(metaFile.toFile(), meta);
        System.exit(exit);
    }
}
