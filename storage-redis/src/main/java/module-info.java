/** The Redis {@link dev.baton.store.SnapshotStore} on Lettuce: {@code redis://} and {@code rediss://} URLs. */
module dev.baton.store.redis {
    requires transitive dev.baton.core;
    requires transitive lettuce.core;
    requires org.slf4j;
    requires static org.jspecify;

    exports dev.baton.store.redis;

    provides dev.baton.store.SnapshotStoreProvider with dev.baton.store.redis.RedisSnapshotStoreProvider;
}
