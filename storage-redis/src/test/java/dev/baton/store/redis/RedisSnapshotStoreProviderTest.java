package dev.baton.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStoreProvider;
import dev.baton.store.SnapshotStores;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RedisSnapshotStoreProviderTest {
    private static final String PREFIX = RedisTestServer.uniquePrefix(RedisSnapshotStoreProviderTest.class);

    @org.junit.jupiter.api.AfterAll
    static void deleteTheTestKeys() {
        RedisTestServer.deleteKeys(PREFIX);
    }

    @Test
    void theServiceLoaderFindsTheProviderForRedisUrlsOnly() {
        SnapshotStoreProvider p = SnapshotStores.providers().stream().filter(x -> x.name().equals("redis")).findFirst().orElseThrow();
        assertThat(p).isInstanceOf(RedisSnapshotStoreProvider.class);
        assertThat(p.accepts("redis://localhost:6379")).isTrue();
        assertThat(p.accepts("rediss://user:pw@cache.example:6380/2")).isTrue();
        assertThat(p.accepts("memory:")).isFalse();
        assertThat(p.accepts("mongodb://localhost")).isFalse();
        assertThat(p.schemes()).containsExactly("redis://", "rediss://");
    }

    @Test
    void openByUrlDescribesTheServerWithoutItsPassword() {
        try (SnapshotStore store = SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX))) {
            assertThat(store).isInstanceOf(RedisSnapshotStore.class);
            assertThat(store.describe()).startsWith("Redis ").contains(PREFIX);
        }
        assertThat(SnapshotStores.redact("redis://u:secret@h:1")).doesNotContain("secret");
    }

    @Test
    void unknownPropertiesAndBadValuesAreRefusedWithTheirName() {
        String url = RedisTestServer.url();
        assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("keyprefix", "x"))).hasMessageContaining("keyprefix");
        assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("timeout", "soon"))).hasMessageContaining("timeout");
        assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("timeout", "0"))).hasMessageContaining("timeout");
        assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("keyPrefix", "a{b}"))).hasMessageContaining("keyPrefix");
        assertThatThrownBy(() -> SnapshotStores.open(url, Map.of("keyPrefix", ""))).hasMessageContaining("keyPrefix");
    }

    @Test
    void scriptsAreLoadedAgainAfterTheServerForgetsThem() {
        RedisClient client = RedisClient.create(RedisTestServer.url());
        try (StatefulRedisConnection<String, String> c = client.connect();
             RedisSnapshotStore store = RedisSnapshotStore.builder(client).keyPrefix(PREFIX).build()) {
            RunSnapshot s = RunSnapshot.builder().runId("run-" + UUID.randomUUID()).agentId("agent-" + UUID.randomUUID())
                    .status(RunStatus.SUSPENDED).threadId("t").createdAt(Instant.EPOCH).suspendedAt(Instant.EPOCH)
                    .payload("{}").summary("{\"calls\":[]}").build();
            c.sync().scriptFlush();
            assertThat(store.insert(s)).isTrue();
            c.sync().scriptFlush();
            assertThat(store.list(dev.baton.store.RunQuery.forAgent(s.agentId(), Instant.EPOCH).threadId("t").build()).items())
                    .containsExactly(s);
            c.sync().scriptFlush();
            assertThat(store.delete(s.runId(), 1)).isTrue();
        } finally {
            client.shutdown();
        }
    }

    @Test
    void timeoutsAreMillisecondsOrIsoDurations() {
        assertThat(RedisSnapshotStoreProvider.duration("1500")).isEqualTo(Duration.ofMillis(1500));
        assertThat(RedisSnapshotStoreProvider.duration("PT3S")).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void bucketsIsAWholeNumberFromOneTo1024AndNamesTheLayoutInTheDescription() {
        assertThat(RedisSnapshotStoreProvider.buckets(" 6 ")).isEqualTo(6);
        for (String bad : new String[] {"0", "1025", "six", "-1", ""}) {
            assertThatThrownBy(() -> SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX, "buckets", bad)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("buckets");
        }
        try (SnapshotStore s = SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX, "buckets", "6"))) {
            assertThat(s.describe()).contains("6 buckets");
        }
        try (SnapshotStore s = SnapshotStores.open(RedisTestServer.url(), Map.of("keyPrefix", PREFIX))) {
            assertThat(s.describe()).doesNotContain("bucket");
        }
    }

    @Test
    void persistenceIsSeenFromAppendOnlyOrSaveRules() {
        assertThat(RedisConnection.persists("no", "")).isFalse();
        assertThat(RedisConnection.persists("yes", "")).isTrue();
        assertThat(RedisConnection.persists("no", "3600 1 300 100")).isTrue();
    }

    @Test
    void closingAStoreBuiltOnAnApplicationClientLeavesTheClientOpen() {
        RedisClient client = RedisClient.create(RedisTestServer.url());
        try {
            RunSnapshot s = RunSnapshot.builder().runId("run-" + UUID.randomUUID()).agentId("agent-" + UUID.randomUUID())
                    .status(RunStatus.SUSPENDED).createdAt(Instant.EPOCH).suspendedAt(Instant.EPOCH)
                    .payload("{}").summary("{\"calls\":[]}").build();
            try (RedisSnapshotStore store = RedisSnapshotStore.builder(client).keyPrefix(PREFIX).timeout(Duration.ofSeconds(3)).build()) {
                assertThat(store.insert(s)).isTrue();
            }
            try (StatefulRedisConnection<String, String> c = client.connect();
                 RedisSnapshotStore again = RedisSnapshotStore.builder(client).keyPrefix(PREFIX).build()) {
                assertThat(c.sync().ping()).isEqualTo("PONG");
                assertThat(again.find(s.runId())).contains(s);
                assertThat(again.delete(s.runId(), 1)).isTrue();
            }
        } finally {
            client.shutdown();
        }
    }
}
