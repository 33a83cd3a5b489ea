package dev.baton.store.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * The databases {@link JdbcSnapshotStore} speaks, with what differs between them: the DDL
 * (a folder of versioned migrations each), how a duplicate key is reported, and how ids are
 * compared byte for byte.
 */
public enum JdbcDialect {
    /** PostgreSQL 12 or newer. Ids are {@code VARCHAR COLLATE "C"}: binary order, exact match. */
    POSTGRESQL("PostgreSQL", "postgresql", 255),
    /**
     * MariaDB 10.5+ and MySQL 8+. Ids are {@code VARBINARY(764)} (191 four-byte characters), since
     * {@code utf8mb4_bin} pads trailing spaces ({@code 'a' = 'a '}) on MariaDB.
     */
    MYSQL("MySQL/MariaDB", "mysql", 764),
    /** H2 2.x. {@code VARCHAR} compares like {@link String#compareTo}, trailing spaces significant. */
    H2("H2", "h2", 255),
    /** SQLite 3. {@code TEXT} compares with the BINARY collation (UTF-8 bytes). */
    SQLITE("SQLite", "sqlite", 255);

    private final String displayName;
    private final String folder;
    private final int maxIdLength;

    JdbcDialect(String displayName, String folder, int maxIdLength) {
        this.displayName = displayName;
        this.folder = folder;
        this.maxIdLength = maxIdLength;
    }

    /** The human name, e.g. {@code PostgreSQL}. */
    public String displayName() {
        return displayName;
    }

    /** The dialect of a JDBC URL, if it is one Baton supports. */
    public static Optional<JdbcDialect> forUrl(String url) {
        String u = url.toLowerCase(Locale.ROOT);
        if (u.startsWith("jdbc:postgresql:")) return Optional.of(POSTGRESQL);
        if (u.startsWith("jdbc:mysql:") || u.startsWith("jdbc:mariadb:")) return Optional.of(MYSQL);
        if (u.startsWith("jdbc:h2:")) return Optional.of(H2);
        if (u.startsWith("jdbc:sqlite:")) return Optional.of(SQLITE);
        return Optional.empty();
    }

    /** The dialect of {@link java.sql.DatabaseMetaData#getDatabaseProductName()}, if supported. */
    public static Optional<JdbcDialect> forProductName(String product) {
        String p = product.toLowerCase(Locale.ROOT);
        if (p.contains("postgres")) return Optional.of(POSTGRESQL);
        if (p.contains("mariadb") || p.contains("mysql")) return Optional.of(MYSQL);
        if (p.equals("h2")) return Optional.of(H2);
        if (p.contains("sqlite")) return Optional.of(SQLITE);
        return Optional.empty();
    }

    /** Folder of this dialect's migrations under {@code dev/baton/store/jdbc/migrations/}. */
    String folder() {
        return folder;
    }

    /** MySQL/MariaDB keep ids in {@code VARBINARY}: bind and read them as UTF-8 bytes. */
    boolean idsAreBinary() {
        return this == MYSQL;
    }

    /** Whether {@code id} fits the id columns ({@code VARCHAR(255)}, or 764 UTF-8 bytes on MySQL/MariaDB). */
    boolean fits(String id) {
        if (this == MYSQL) return id.getBytes(StandardCharsets.UTF_8).length <= maxIdLength;
        return id.length() <= maxIdLength;
    }

    /** The longest id, in the unit {@link #fits} counts, for messages. */
    String idLimit() {
        return this == MYSQL ? maxIdLength + " UTF-8 bytes" : maxIdLength + " characters";
    }

    /**
     * True only for a violated primary key or unique constraint, never for other failures
     * (a NOT NULL violation, a lost connection, ...).
     */
    boolean isDuplicateKey(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (!(t instanceof SQLException s)) continue;
            switch (this) {
                case POSTGRESQL -> { if ("23505".equals(s.getSQLState())) return true; }
                case MYSQL -> { if (s.getErrorCode() == 1062) return true; }            // ER_DUP_ENTRY
                case H2 -> { if (s.getErrorCode() == 23505) return true; }              // DUPLICATE_KEY_1
                case SQLITE -> {
                    // sqlite-jdbc puts the extended result code name first in the message
                    String m = String.valueOf(s.getMessage());
                    if (s.getErrorCode() == 19 && (m.startsWith("[SQLITE_CONSTRAINT_PRIMARYKEY]")
                            || m.startsWith("[SQLITE_CONSTRAINT_UNIQUE]"))) return true;
                }
            }
        }
        return false;
    }
}
