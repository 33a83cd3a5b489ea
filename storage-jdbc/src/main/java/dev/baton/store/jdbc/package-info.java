/**
 * The JDBC snapshot store: {@link dev.baton.store.jdbc.JdbcSnapshotStore}, its provider for
 * {@code jdbc:postgresql:}, {@code jdbc:mysql:}, {@code jdbc:mariadb:}, {@code jdbc:h2:} and
 * {@code jdbc:sqlite:} URLs, the {@link dev.baton.store.jdbc.JdbcDialect}s and the
 * {@link dev.baton.store.jdbc.SchemaMode}.
 */
@NullMarked
package dev.baton.store.jdbc;

import org.jspecify.annotations.NullMarked;
