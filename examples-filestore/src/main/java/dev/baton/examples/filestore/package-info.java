/**
 * A worked example of a third-party {@link dev.baton.store.SnapshotStore}: one JSON file per run,
 * registered through {@code META-INF/services}, certified by the Baton TCK. A model for provider
 * authors, not a production store.
 */
package dev.baton.examples.filestore;
