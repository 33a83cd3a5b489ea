/**
 * The storage SPI. A backend implements {@link dev.baton.store.SnapshotStore} and a
 * {@link dev.baton.store.SnapshotStoreProvider}; {@link dev.baton.store.SnapshotStores#open(String)}
 * finds it by URL. Every rule a store must obey is checked by the {@code baton-tck} suite.
 */
@NullMarked
package dev.baton.store;

import org.jspecify.annotations.NullMarked;
