/** The Redis {@link dev.baton.store.SnapshotStore} on Lettuce: {@code redis://} and {@code rediss://} URLs. */
@SuppressWarnings("requires-transitive-automatic") // Lettuce has no module-info; its RedisClient is in our API
module dev.baton.store.redis {
    requires transitive dev.baton.core;
    requires transitive lettuce.core;
    requires org.slf4j;
    requires static org.jspecify;

    exports dev.baton.store.redis;

    provides dev.baton.store.SnapshotStoreProvider with dev.baton.store.redis.RedisSnapshotStoreProvider;
}
