package dev.baton.store.jdbc;

import java.util.Locale;

/**
 * What a {@link JdbcSnapshotStore} does with its table when it starts. Immutable and thread-safe.
 *
 * <ul>
 *   <li>{@link #CREATE} (the default): applies the missing versioned migrations and records them in
 *       the table {@code <table>_schema_history}; safe when several instances start at once.</li>
 *   <li>{@link #VALIDATE}: changes nothing, but fails at start with a {@link dev.baton.StorageException}
 *       if one of the store's tables (the runs table, {@code <table>_threads}, {@code <table>_messages})
 *       or one of their columns is missing. For applications that run the DDL
 *       ({@link JdbcSnapshotStore#ddl(JdbcDialect, String)}, every migration in order) through
 *       Flyway or Liquibase.</li>
 *   <li>{@link #NONE}: touches nothing and checks nothing.</li>
 * </ul>
 */
public enum SchemaMode {
    /** Applies the missing versioned migrations at start (the default). */
    CREATE,
    /** Changes nothing, and fails at start if a table or column of the store is missing. */
    VALIDATE,
    /** Touches nothing and checks nothing. */
    NONE;

    /**
     * Parses {@code create}, {@code validate} or {@code none}, ignoring case.
     *
     * @param value the mode's name, as in the {@code schemaMode} property
     * @return the mode
     * @throws IllegalArgumentException for any other value, naming the three
     */
    public static SchemaMode parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("schemaMode: expected create, validate or none, was '" + value + "'", e);
        }
    }
}
