/**
 * The storage SPI. A backend implements {@link dev.baton.store.SnapshotStore} (and, for thread
 * memory, {@link dev.baton.store.MemoryStore}) and a {@link dev.baton.store.SnapshotStoreProvider};
 * {@link dev.baton.store.SnapshotStores#open(String)} finds it by URL. Every rule a store must obey
 * is checked by the {@code baton-tck} suite; how the SPI may change after 0.1.0 is written in
 * {@link dev.baton.store.SnapshotStore}. This package imports nothing from {@code dev.baton.agent}.
 */
@NullMarked
package dev.baton.store;

import org.jspecify.annotations.NullMarked;
