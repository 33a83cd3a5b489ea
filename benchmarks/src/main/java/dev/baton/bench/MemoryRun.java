package dev.baton.bench;

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
        BackendRun.Jmh jmh = BackendRun.Jmh.parse(args, 2);

        Map<String, Object> meta = BackendRun.startMeta(name, "memory", messages, 0);
        int exit = 0;
        try (Backend backend = Backend.create(name, jmh.dataDir())) {
            meta.put("server", backend.describe());
            meta.put("representative", backend.representative());
            MemoryData data = new MemoryData(messages);
            MemoryFixture f = new MemoryFixture(backend, data);
            try {
                BackendRun.seedUnlessThere(meta, name, data.tag(), () -> data.isSeeded(f.store),
                        String.format("%,d messages in %,d threads", messages, data.threads),
                        () -> data.seed(f.store, name, backend.seedParallelism()));
                String sanity = data.sanityCheck(f.store, f.raw, name);
                meta.put("sanity", sanity);
                System.err.printf("[bench] %s %s: %s%n", name, data.tag(), sanity);
                if (jmh.wi() >= 0) {
                    MemoryFixture.current = f;
                    String methods = f.raw == null ? "(lastMessages|threads)(Baton|Store)" : "(lastMessages|threads)(Baton|Store|Raw)";
                    long t2 = System.nanoTime();
                    BackendRun.measure(List.of("dev\\.baton\\.bench\\.MemoryBenchmark\\." + methods + "$"), name, messages, 0, jmh);
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
        BackendRun.finish(meta, jmh.metaFile(), exit);
    }
}
