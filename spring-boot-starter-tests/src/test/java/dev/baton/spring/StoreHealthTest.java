package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.StorageException;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import dev.baton.store.memory.MemorySnapshotStore;
import dev.baton.tck.support.TcpProxy;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.tools.Server;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The store's health: a cheap ping under a timeout ({@link StoreHealthProbe}, the same on every Spring Boot line);
 * the line's indicator bean; DOWN when the store's server goes away or hangs.
 */
class StoreHealthTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(BootLine.baton());

    private static BootLine.HealthView health(org.springframework.context.ApplicationContext ctx) {
        return BootLine.health(ctx.getBean("batonStoreHealthIndicator"));
    }

    /** A store that answers {@code find} only when let go, and has no clock of its own. */
    static final class HangingStore implements SnapshotStore {
        final AtomicInteger finds = new AtomicInteger();
        volatile CountDownLatch gate = new CountDownLatch(0);
        volatile RuntimeException failure;

        @Override public boolean insert(RunSnapshot snapshot) { return false; }
        @Override public boolean compareAndSet(long expectedVersion, RunSnapshot replacement) { return false; }
        @Override public boolean delete(String runId, long expectedVersion) { return false; }
        @Override public RunPage list(RunQuery query) { throw new UnsupportedOperationException(); }
        @Override public List<RunSnapshot> listDue(String agentId, Instant now, int limit) { return List.of(); }
        @Override public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) { return false; }
        @Override public Set<StoreCapability> capabilities() { return Set.of(); }
        @Override public void close() { }

        @Override
        public Optional<RunSnapshot> find(String runId) {
            finds.incrementAndGet();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (failure != null) throw failure;
            return Optional.empty();
        }
    }

    @Nested
    class ThePing {
        @Test
        void aStoreWithItsOwnClockIsAskedTheTime() {
            try (StoreHealthProbe probe = new StoreHealthProbe(MemorySnapshotStore.create(), Duration.ofSeconds(5))) {
                var h = probe.check();
                assertThat(h.up()).isTrue();
                assertThat(h.details()).containsKeys("store", "storeTime", "capabilities", "latencyMillis");
            }
        }

        @Test
        void anotherStoreIsAskedForARunThatDoesNotExist() {
            HangingStore store = new HangingStore();
            try (StoreHealthProbe probe = new StoreHealthProbe(store, Duration.ofSeconds(5))) {
                assertThat(probe.check().up()).isTrue();
                assertThat(store.finds).hasValue(1);
            }
        }

        @Test
        void aHungStoreIsDownAfterTheTimeoutAndOnlyOnePingIsInFlight() {
            HangingStore store = new HangingStore();
            store.gate = new CountDownLatch(1);
            try (StoreHealthProbe probe = new StoreHealthProbe(store, Duration.ofSeconds(1))) {
                var first = probe.check();
                var second = probe.check();
                assertThat(first.up()).isFalse();
                assertThat(first.details().get("error").toString()).contains("did not answer within 1000 ms");
                assertThat(second.up()).isFalse();
                assertThat(store.finds).as("pings sent while the first hangs").hasValue(1);
                store.gate.countDown();
                // the hung ping answers at last; the next check may still see it, then a fresh one
                assertThat(probe.check().up()).isTrue();
            }
        }

        @Test
        void aFailingStoreIsDownWithTheFailure() {
            HangingStore store = new HangingStore();
            store.failure = new StorageException("connection refused");
            try (StoreHealthProbe probe = new StoreHealthProbe(store, Duration.ofSeconds(5))) {
                var h = probe.check();
                assertThat(h.up()).isFalse();
                assertThat(h.error()).hasMessageContaining("connection refused");
            }
        }
    }

    @Nested
    class InTheContext {
        @Test
        void theIndicatorIsTheBeanBatonStoreHealthIndicatorOfThisBootLine() {
            runner.run(ctx -> {
                assertThat(ctx.getBean("batonStoreHealthIndicator").getClass().getName()).isEqualTo(BootLine.healthIndicatorClass());
                assertThat(health(ctx).status()).isEqualTo("UP");
                assertThat(health(ctx).details()).containsKeys("store", "storeTime");
            });
        }

        @Test
        void aFailingStoreIsDownWithTheFailuresMessageInTheDetails() {
            HangingStore store = new HangingStore();
            store.failure = new StorageException("connection refused");
            runner.withBean(SnapshotStore.class, () -> store).run(ctx -> {
                assertThat(health(ctx).status()).isEqualTo("DOWN");
                assertThat(health(ctx).details().get("error").toString()).contains("connection refused");
            });
        }

        @Test
        void managementHealthBatonEnabledFalseSwitchesItOff() {
            runner.withPropertyValues("management.health.baton.enabled=false")
                    .run(ctx -> assertThat(ctx).doesNotHaveBean("batonStoreHealthIndicator"));
        }
    }

    @Nested
    class WhenTheServerGoesAway {
        @Test
        void postgresIsUpThenDownWhenItsConnectionsAreCut() throws Exception {
            String url = System.getenv("BATON_TEST_POSTGRES_URL");
            assumeTrue(url != null && !url.isBlank(), "BATON_TEST_POSTGRES_URL names no PostgreSQL server");
            URI uri = URI.create(url.substring("jdbc:".length()));
            try (TcpProxy proxy = new TcpProxy(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort())) {
                String proxied = "jdbc:postgresql://127.0.0.1:" + proxy.port() + uri.getRawPath()
                        + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
                upThenDown(proxied, proxy);
            }
        }

        @Test
        void anH2ServerIsUpThenDownWhenItsConnectionsAreCut() throws Exception {
            Server h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
            try (TcpProxy proxy = new TcpProxy("127.0.0.1", h2.getPort())) {
                upThenDown("jdbc:h2:tcp://127.0.0.1:" + proxy.port() + "/mem:health;DB_CLOSE_DELAY=-1", proxy);
            } finally {
                h2.stop();
            }
        }

        private void upThenDown(String url, TcpProxy proxy) {
            runner.withPropertyValues("baton.store.url=" + url, "baton.store.properties.connectTimeout=2",
                    "baton.store.properties.socketTimeout=5", "baton.store.properties.poolSize=2", "baton.health.timeout=1s")
                    .run(ctx -> {
                        assertThat(health(ctx).status()).isEqualTo("UP");
                        proxy.kill();
                        long start = System.nanoTime();
                        assertThat(health(ctx).status()).isEqualTo("DOWN");
                        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
                    });
        }

        @Test
        void aFrozenConnectionIsDownAfterTheTimeout() throws Exception {
            Server h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
            try (TcpProxy proxy = new TcpProxy("127.0.0.1", h2.getPort())) {
                runner.withPropertyValues("baton.store.url=jdbc:h2:tcp://127.0.0.1:" + proxy.port() + "/mem:frozen;DB_CLOSE_DELAY=-1",
                        "baton.store.properties.poolSize=1", "baton.health.timeout=500ms").run(ctx -> {
                            assertThat(health(ctx).status()).isEqualTo("UP");
                            proxy.freeze();
                            var down = health(ctx);
                            assertThat(down.status()).isEqualTo("DOWN");
                            assertThat(down.details().get("error").toString()).contains("did not answer within 500 ms");
                            proxy.kill();   // lets the hung ping and the pool end
                        });
            } finally {
                h2.stop();
            }
        }
    }
}
