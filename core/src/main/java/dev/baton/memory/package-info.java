/**
 * Thread memory: conversations that persist per thread and resource. {@link dev.baton.memory.Memory}
 * is what an agent is configured with and what applications manage threads through; its storage SPI,
 * {@link dev.baton.store.MemoryStore}, is in {@code dev.baton.store} beside the snapshot SPI, reached
 * through {@link dev.baton.store.SnapshotStore#memory()}.
 */
@NullMarked
package dev.baton.memory;

import org.jspecify.annotations.NullMarked;
