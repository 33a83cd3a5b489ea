package dev.baton.store.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;

/**
 * A Redis Cluster for tests, once per JVM: the seed URL in {@code BATON_TEST_REDIS_CLUSTER_URL}, else three
 * master nodes started from the {@code embedded-redis} binary and joined with CLUSTER ADDSLOTS / MEET.
 */
final class RedisTestCluster {
    private static final Logger LOG = LoggerFactory.getLogger(RedisTestCluster.class);
    static final String ENV = "BATON_TEST_REDIS_CLUSTER_URL";
    private static final int NODES = 3;
    private static String url;

    private RedisTestCluster() {
    }

    static synchronized String url() {
        if (url == null) url = resolve();
        return url;
    }

    private static String resolve() {
        String env = System.getenv(ENV);
        if (env != null && !env.isBlank()) return env;
        try {
            Path dir = Files.createTempDirectory("baton-redis-cluster");
            List<Integer> ports = new ArrayList<>();
            List<RedisServer> servers = new ArrayList<>();
            for (int i = 0; i < NODES; i++) {
                int port = RedisTestServer.freePort();
                RedisServer server = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                        .setting("cluster-enabled yes")
                        .setting("cluster-config-file nodes-" + port + ".conf")
                        .setting("cluster-node-timeout 5000")
                        .setting("dir " + dir)
                        .setting("save \"\"").setting("appendonly no")
                        .build();
                server.start();
                servers.add(server);
                ports.add(port);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                for (RedisServer s : servers) {
                    try {
                        s.stop();
                    } catch (IOException e) {
                        // exiting
                    }
                }
            }));
            int per = 16384 / NODES;
            for (int i = 0; i < NODES; i++) {
                int from = i * per;
                int to = i == NODES - 1 ? 16384 : from + per;
                RedisClient c = RedisClient.create(RedisURI.create("127.0.0.1", ports.get(i)));
                try (StatefulRedisConnection<String, String> conn = c.connect()) {
                    conn.sync().clusterAddSlots(IntStream.range(from, to).toArray());
                    if (i > 0) conn.sync().clusterMeet("127.0.0.1", ports.get(0));
                } finally {
                    c.shutdown();
                }
            }
            for (int port : ports) awaitOk(port);
            String u = "redis://127.0.0.1:" + ports.get(0);
            LOG.info("Redis Cluster for tests: embedded-redis nodes {}", ports);
            return u;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start an embedded Redis Cluster; set " + ENV, e);
        }
    }

    private static void awaitOk(int port) {
        RedisClient c = RedisClient.create(RedisURI.create("127.0.0.1", port));
        try (StatefulRedisConnection<String, String> conn = c.connect()) {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!conn.sync().clusterInfo().contains("cluster_state:ok")
                    || !conn.sync().clusterInfo().contains("cluster_known_nodes:" + NODES)) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("cluster did not form on port " + port);
                Thread.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            c.shutdown();
        }
    }
}
