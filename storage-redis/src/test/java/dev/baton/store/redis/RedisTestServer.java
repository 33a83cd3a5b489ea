package dev.baton.store.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.net.ServerSocket;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import redis.embedded.RedisServer;

/**
 * The Redis the tests use, found once per JVM, in this order: the URL in {@code BATON_TEST_REDIS_URL}
 * (CI sets it); a Testcontainers {@code redis:7-alpine} when Docker answers; else a real
 * {@code redis-server} binary from the {@code com.github.codemonstur:embedded-redis} artifact, on a free port.
 */
final class RedisTestServer {
    private static final Logger LOG = LoggerFactory.getLogger(RedisTestServer.class);
    static final String ENV = "BATON_TEST_REDIS_URL";

    private static String url;

    private RedisTestServer() {
    }

    /** The URL of the test server, starting one on first use. */
    static synchronized String url() {
        if (url == null) url = resolve();
        return url;
    }

    /** A key prefix no other test class uses, so that tests never see each other's keys. */
    static String uniquePrefix(Class<?> testClass) {
        return "baton-test:" + testClass.getSimpleName() + ":" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Deletes every key under {@code prefix} (a test's own prefix, free of glob characters), so runs do not pile up. */
    static void deleteKeys(String prefix) {
        RedisClient client = RedisClient.create(url());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            List<String> keys = new ArrayList<>();
            ScanIterator.scan(c.sync(), ScanArgs.Builder.matches(prefix + ":*").limit(1000)).forEachRemaining(keys::add);
            for (int i = 0; i < keys.size(); i += 500) c.sync().unlink(keys.subList(i, Math.min(keys.size(), i + 500)).toArray(String[]::new));
        } finally {
            client.shutdown();
        }
    }

    private static String resolve() {
        String env = System.getenv(ENV);
        if (env != null && !env.isBlank()) {
            LOG.info("Redis for tests: {} from {}", env, ENV);
            return env;
        }
        if (dockerAvailable()) {
            GenericContainer<?> redis = new GenericContainer<>("redis:7-alpine").withExposedPorts(6379);
            redis.start();
            Runtime.getRuntime().addShutdownHook(new Thread(redis::stop));
            String u = "redis://" + redis.getHost() + ":" + redis.getMappedPort(6379);
            LOG.info("Redis for tests: Testcontainers {}", u);
            return u;
        }
        try {
            int port = freePort();
            RedisServer server = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                    .setting("save \"\"").setting("appendonly no").build();
            server.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.stop();
                } catch (IOException e) {
                    // the JVM is exiting anyway
                }
            }));
            String u = "redis://127.0.0.1:" + port;
            LOG.info("Redis for tests: embedded-redis {}", u);
            return u;
        } catch (IOException e) {
            throw new IllegalStateException("No Redis for tests: set " + ENV + ", or make Docker or embedded-redis work", e);
        }
    }

    /** Asks Docker with a deadline, so a stuck daemon or socket can neither hang nor fail the build. */
    private static boolean dockerAvailable() {
        try {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return DockerClientFactory.instance().isDockerAvailable();
                } catch (Throwable t) {
                    return false;
                }
            }).get(15, TimeUnit.SECONDS);
        } catch (Exception e) {
            return false;
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }
}
