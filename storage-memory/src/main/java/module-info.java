/** The in-memory {@link dev.baton.store.SnapshotStore}: the default; everything is lost when the JVM stops. */
module dev.baton.store.memory {
    requires transitive dev.baton.core;
    exports dev.baton.store.memory;
    provides dev.baton.store.SnapshotStoreProvider with dev.baton.store.memory.MemorySnapshotStoreProvider;
}
