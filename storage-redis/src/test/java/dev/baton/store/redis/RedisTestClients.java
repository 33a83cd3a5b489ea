package dev.baton.store.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;

/**
 * One Lettuce client on the test server and one on the test Cluster, per JVM, for the contract suites whose rules
 * do not depend on who owns the client: each test's store is built on it ({@link RedisSnapshotStore#builder}) with
 * a connection of its own, as an application shares its client. A store opened by URL makes a client of its own
 * (its event loops, and on a Cluster a topology load that connects to every node), which cost more CPU than most
 * tests do; the suites that prove that path keep it ({@link RedisSnapshotStoreTest}, {@link RedisClusterSnapshotStoreTest},
 * {@code RedisSnapshotStoreProviderTest}, {@link RedisProcessTest}). The clients have the options the provider gives a
 * client of its own (connect and command timeout: the store's default) and live as long as the JVM (daemon threads).
 */
final class RedisTestClients {
    private static RedisClient standalone;
    private static RedisClusterClient cluster;

    private RedisTestClients() {
    }

    /** A store on the shared client of the test server: keys under {@code prefix}, {@code buckets} per agent. */
    static RedisSnapshotStore standalone(String prefix, int buckets) {
        return RedisSnapshotStore.builder(standaloneClient()).keyPrefix(prefix).buckets(buckets).build();
    }

    /** A store on the shared client of the test Cluster: keys under {@code prefix}, {@code buckets} per agent. */
    static RedisSnapshotStore cluster(String prefix, int buckets) {
        return RedisSnapshotStore.builder(clusterClient()).keyPrefix(prefix).buckets(buckets).build();
    }

    private static synchronized RedisClient standaloneClient() {
        if (standalone == null) {
            RedisClient c = RedisClient.create(uri(RedisTestServer.url()));
            c.setOptions(ClientOptions.builder().socketOptions(socket()).timeoutOptions(timeouts()).build());
            standalone = c;
        }
        return standalone;
    }

    private static synchronized RedisClusterClient clusterClient() {
        if (cluster == null) {
            RedisClusterClient c = RedisClusterClient.create(uri(RedisTestCluster.url()));
            c.setOptions(ClusterClientOptions.builder().socketOptions(socket()).timeoutOptions(timeouts()).build());
            cluster = c;
        }
        return cluster;
    }

    private static RedisURI uri(String url) {
        RedisURI uri = RedisURI.create(url);
        uri.setTimeout(RedisSnapshotStore.DEFAULT_TIMEOUT);
        return uri;
    }

    private static SocketOptions socket() {
        return SocketOptions.builder().connectTimeout(RedisSnapshotStore.DEFAULT_TIMEOUT).build();
    }

    private static TimeoutOptions timeouts() {
        return TimeoutOptions.enabled(RedisSnapshotStore.DEFAULT_TIMEOUT);
    }
}
