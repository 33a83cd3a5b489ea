package dev.baton.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * A Redis Cluster of {@code masters} master nodes on 127.0.0.1 for {@link RedisBucketBenchmark}: {@code redis-server}
 * processes (the binary on the PATH, or {@code BATON_REDIS_SERVER}), no persistence, equal slot ranges (what
 * {@code redis-cli --cluster create} gives), joined with CLUSTER ADDSLOTS / MEET as the tests' cluster is. Every
 * process this class starts is stopped by {@link #close()}.
 */
final class LocalRedisCluster implements AutoCloseable {
    private final List<Process> processes = new ArrayList<>();
    final List<Integer> ports = new ArrayList<>();
    private final Path dir;

    LocalRedisCluster(int masters) throws IOException, InterruptedException {
        dir = Files.createTempDirectory("baton-bench-cluster");
        String binary = System.getenv().getOrDefault("BATON_REDIS_SERVER", "redis-server");
        Runtime.getRuntime().addShutdownHook(new Thread(this::close));   // a killed benchmark leaves no node behind
        try {
            for (int i = 0; i < masters; i++) {
                int port = freePort();
                Process p = new ProcessBuilder(binary, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                        "--cluster-enabled", "yes", "--cluster-config-file", "nodes-" + port + ".conf",
                        "--cluster-node-timeout", "15000", "--dir", dir.toString(), "--save", "", "--appendonly", "no")
                        .redirectErrorStream(true).redirectOutput(new File(dir.toFile(), "redis-" + port + ".log")).start();
                processes.add(p);
                ports.add(port);
            }
            for (int i = 0; i < masters; i++) {
                int from = i * 16384 / masters;
                int to = (i + 1) * 16384 / masters;
                int port = ports.get(i);
                awaitUp(port);
                with(port, r -> {
                    r.clusterAddSlots(IntStream.range(from, to).toArray());
                    if (port != ports.get(0)) r.clusterMeet("127.0.0.1", ports.get(0));
                    return null;
                });
            }
            awaitOk();
        } catch (IOException | InterruptedException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void awaitOk() throws InterruptedException {
        for (int port : ports) {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!with(port, r -> r.clusterInfo().contains("cluster_state:ok")
                    && r.clusterInfo().contains("cluster_known_nodes:" + ports.size()))) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("the cluster is not ok on port " + port);
                Thread.sleep(100);
            }
        }
    }

    String url() {
        return "redis://127.0.0.1:" + ports.get(0);
    }

    /** Runs {@code f} on a connection of its own to one node. */
    static <T> T with(int port, java.util.function.Function<RedisCommands<String, String>, T> f) {
        RedisClient c = RedisClient.create(RedisURI.create("127.0.0.1", port));
        try (StatefulRedisConnection<String, String> conn = c.connect()) {
            return f.apply(conn.sync());
        } finally {
            c.shutdown();
        }
    }

    /** Per node: keys (DBSIZE), used_memory, and the calls since the last {@link #resetStats}: all and EVALSHA/EVAL. */
    List<Map<String, Long>> stats() {
        List<Map<String, Long>> out = new ArrayList<>();
        for (int port : ports) {
            out.add(with(port, r -> {
                Map<String, Long> m = new LinkedHashMap<>();
                m.put("keys", r.dbsize());
                m.put("used_memory", field(r.info("memory"), "used_memory:"));
                long calls = 0;
                long scripts = 0;
                for (String line : r.info("commandstats").split("\r?\n")) {
                    if (!line.startsWith("cmdstat_")) continue;
                    long c = Long.parseLong(line.substring(line.indexOf("calls=") + 6, line.indexOf(',', line.indexOf("calls="))));
                    if (line.startsWith("cmdstat_cluster") || line.startsWith("cmdstat_info") || line.startsWith("cmdstat_config")
                            || line.startsWith("cmdstat_command") || line.startsWith("cmdstat_hello")
                            || line.startsWith("cmdstat_client") || line.startsWith("cmdstat_ping")) continue;
                    calls += c;
                    if (line.startsWith("cmdstat_evalsha") || line.startsWith("cmdstat_eval:")) scripts += c;
                }
                m.put("calls", calls);
                m.put("scripts", scripts);
                return m;
            }));
        }
        return out;
    }

    void resetStats() {
        for (int port : ports) with(port, r -> r.configResetstat());
    }

    /** Empties every node (FLUSHALL ASYNC: a synchronous flush of GBs blocks a node long enough to fail the cluster). */
    void flush() throws InterruptedException {
        for (int port : ports) with(port, r -> r.flushallAsync());
        awaitOk();
        Thread.sleep(10_000);   // the background free of the old keys, before memory is measured again
    }

    private static long field(String info, String name) {
        for (String line : info.split("\r?\n")) if (line.startsWith(name)) return Long.parseLong(line.substring(name.length()).trim());
        return -1;
    }

    private static void awaitUp(int port) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (true) {
            try {
                with(port, RedisCommands::ping);
                return;
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) throw e;
                Thread.sleep(100);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (Process p : processes) p.destroy();
        for (Process p : processes) {
            try {
                p.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
