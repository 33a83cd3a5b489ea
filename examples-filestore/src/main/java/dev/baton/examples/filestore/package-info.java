/**
 * A worked example of a third-party {@link dev.baton.store.SnapshotStore}: runs in files of a
 * directory (a small row file and a payload file per run), thread memory with one file per thread,
 * registered through {@code META-INF/services}, and certified by the Baton TCK with every contract
 * and every capability ({@code SHARED}, {@code DURABLE}, {@code STORE_CLOCK}, {@code THREAD_MEMORY}).
 * A model for provider authors, not a production store; {@code docs/certification.md} explains its
 * choices.
 */
package dev.baton.examples.filestore;
