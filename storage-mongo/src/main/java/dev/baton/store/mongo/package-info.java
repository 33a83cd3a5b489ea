/**
 * The MongoDB {@link dev.baton.store.SnapshotStore}: {@link dev.baton.store.mongo.MongoSnapshotStore},
 * opened by URL ({@code mongodb://}, {@code mongodb+srv://}) through
 * {@link dev.baton.store.mongo.MongoSnapshotStoreProvider}, or built from an application's own
 * {@code MongoClient}.
 */
@NullMarked
package dev.baton.store.mongo;

import org.jspecify.annotations.NullMarked;
