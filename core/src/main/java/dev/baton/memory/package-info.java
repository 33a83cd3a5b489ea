/**
 * Thread memory: conversations that persist per thread and resource. {@code Memory}
 * is what an agent is configured with and what applications manage threads through;
 * {@link dev.baton.memory.MemoryStore} is the storage SPI each store module implements, reached
 * through {@link dev.baton.store.SnapshotStore#memory()}.
 */
@NullMarked
package dev.baton.memory;

import org.jspecify.annotations.NullMarked;
