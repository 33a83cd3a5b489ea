package dev.baton.bench;

import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One JVM per (backend, messages) of the thread-memory benchmarks, started by {@link BenchMain}:
 * seeds {@link MemoryData} through the store's own memory SPI unless its marker is there, checks it
 * against the raw query, then runs {@link MemoryBenchmark} with JMH inside this JVM.
 *
 * <p>Arguments: {@code backend messages resultsJson metaJson dataDir warmupIterations warmupMillis
 * iterations iterationMillis}.
 */
public final class MemoryRun {

    public static void main(String[] args) throws Exception {
        if (args.length != 9) {
            System.err.println("usage: MemoryRun backend messages results.json meta.json dataDir wi wMillis i rMillis");
            System.exit(2);
        }
        String name = args[0];
        int messages = Integer.parseInt(args[1]);
        Path results = Path.of(args[2]);
        Path metaFile = Path.of(args[3]);
        Path dataDir = Path.of(args[4]);
        int wi = Integer.parseInt(args[5]);
        long w = Long.parseLong(args[6]);
        int i = Integer.parseInt(args[7]);
        long r = Long.parseLong(args[8]);

        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("backend", name);
        meta.put("kind", "memory");
        meta.put("n", messages);
        meta.put("size", 0);
        meta.put("startedAt", Instant.now().toString());
        int exit = 0;
        try (Backend backend = Backend.create(name, dataDir)) {
            meta.put("server", backend.describe());
            meta.put("representative", backend.representative());
            MemoryData data = new MemoryData(messages);
            MemoryFixture f = new MemoryFixture(backend, data);
            try {
                long t0 = System.nanoTime();
                boolean seeded = !Boolean.getBoolean("bench.reseed") && data.isSeeded(f.store);
                if (!seeded) {
                    System.err.printf("[bench] %s: seeding %,d messages in %,d threads%n", name, messages, data.threads);
                    data.seed(f.store, name, backend.seedParallelism());
                }
                double seedSeconds = (System.nanoTime() - t0) / 1e9;
                meta.put("reusedSeed", seeded);
                meta.put("seedSeconds", seedSeconds);
                System.err.printf("[bench] %s %s: %s in %.1f s%n", name, data.tag(), seeded ? "seed reused" : "seeded", seedSeconds);
                String sanity = data.sanityCheck(f.store, f.raw, name);
                meta.put("sanity", sanity);
                System.err.printf("[bench] %s %s: %s%n", name, data.tag(), sanity);
                if (wi >= 0) {
                    MemoryFixture.current = f;
                    String methods = f.raw == null ? "(lastMessages|threads)(Baton|Store)" : "(lastMessages|threads)(Baton|Store|Raw)";
                    long t2 = System.nanoTime();
                    BackendRun.measure(List.of("dev\\.baton\\.bench\\.MemoryBenchmark\\." + methods + "$"), name, messages, 0,
                            wi, w, i, r, results);
                    meta.put("benchSeconds", (System.nanoTime() - t2) / 1e9);
                }
            } finally {
                MemoryFixture.current = null;
                f.close();
            }
        } catch (Throwable e) {
            e.printStackTrace();
            meta.put("error", e.toString());
            exit = 1;
        }
        BackendRun.finish(meta, metaFile, exit);
    }
}
