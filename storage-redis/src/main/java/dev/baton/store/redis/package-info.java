/**
 * The Redis {@link dev.baton.store.SnapshotStore}: {@link dev.baton.store.redis.RedisSnapshotStore}
 * and its {@link dev.baton.store.redis.RedisSnapshotStoreProvider} for {@code redis://} and
 * {@code rediss://} URLs.
 */
@NullMarked
package dev.baton.store.redis;

import org.jspecify.annotations.NullMarked;
