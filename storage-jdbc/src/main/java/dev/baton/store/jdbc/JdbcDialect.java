package dev.baton.store.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * The databases {@link JdbcSnapshotStore} speaks, with what differs between them: the DDL
 * (a folder of versioned migrations each), how a duplicate key is reported, and how ids are
 * compared byte for byte. Immutable and thread-safe.
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

    /** {@return the human name, e.g. {@code PostgreSQL}} */
    public String displayName() {
        return displayName;
    }

    /**
     * The dialect of a JDBC URL, if it is one Baton supports.
     *
     * @param url a JDBC URL, such as {@code jdbc:postgresql://db/app}
     * @return the dialect, or empty for a database Baton does not support
     */
    public static Optional<JdbcDialect> forUrl(String url) {
        String u = url.toLowerCase(Locale.ROOT);
        if (u.startsWith("jdbc:postgresql:")) return Optional.of(POSTGRESQL);
        if (u.startsWith("jdbc:mysql:") || u.startsWith("jdbc:mariadb:")) return Optional.of(MYSQL);
        if (u.startsWith("jdbc:h2:")) return Optional.of(H2);
        if (u.startsWith("jdbc:sqlite:")) return Optional.of(SQLITE);
        return Optional.empty();
    }

    /**
     * The dialect of {@link java.sql.DatabaseMetaData#getDatabaseProductName()}, if supported.
     *
     * @param product the product name the driver reports, such as {@code PostgreSQL} or {@code MariaDB}
     * @return the dialect, or empty for a database Baton does not support
     */
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

    /**
     * Whether a thread key fits the memory tables' key columns: {@code VARCHAR(511)} since migration
     * V006 ({@code TEXT} on SQLite), or 764 UTF-8 bytes on MySQL/MariaDB; a key is at most 511 UTF-8
     * bytes ({@code MemoryStore}, "Thread keys").
     */
    boolean fitsThreadKey(String key) {
        if (this == MYSQL) return key.getBytes(StandardCharsets.UTF_8).length <= maxIdLength;
        return key.length() <= MAX_THREAD_KEY_LENGTH;
    }

    /** The longest thread key, in characters, on every database but MySQL/MariaDB. */
    static final int MAX_THREAD_KEY_LENGTH = 511;

    /** The longest thread key, in the unit {@link #fitsThreadKey} counts, for messages. */
    String threadKeyLimit() {
        return this == MYSQL ? maxIdLength + " UTF-8 bytes" : MAX_THREAD_KEY_LENGTH + " characters";
    }

    /** The longest id, in the unit {@link #fits} counts, for messages. */
    String idLimit() {
        return this == MYSQL ? maxIdLength + " UTF-8 bytes" : maxIdLength + " characters";
    }

    /**
     * A query of one row and one {@code BIGINT} column: the database server's current time in
     * epoch milliseconds, read in a way that no session time zone or daylight-saving change affects.
     * H2 and SQLite run inside the application's JVM (unless H2 runs as a server), so there it is
     * this machine's clock, read through the database.
     */
    String nowMillisSql() {
        return switch (this) {
            // clock_timestamp(), not now(): now() is the start of the transaction
            case POSTGRESQL -> "SELECT CAST(FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000) AS BIGINT)";
            // UTC_TIMESTAMP, not UNIX_TIMESTAMP(NOW(3)), which reads NOW() in the session's time zone
            // and so is ambiguous in the hour a daylight-saving change repeats
            case MYSQL -> "SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000";
            // CURRENT_TIMESTAMP is a TIMESTAMP WITH TIME ZONE in H2 2.x: its epoch does not depend on the zone
            case H2 -> "SELECT CAST(FLOOR(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP) * 1000) AS BIGINT)";
            // 'now' is the same instant for every call within one statement; %f is "SS.SSS"
            case SQLITE -> "SELECT CAST(strftime('%s', 'now') AS INTEGER) * 1000 + CAST(substr(strftime('%f', 'now'), 4) AS INTEGER)";
        };
    }

    /**
     * The condition "the lease owner is exactly this text" with one parameter. On MySQL/MariaDB the
     * {@code utf8mb4_bin} column is compared as bytes, since MariaDB's {@code utf8mb4_bin} pads
     * trailing spaces ({@code 'a' = 'a '}).
     */
    String leaseOwnerIs() {
        return this == MYSQL ? "CAST(lease_owner AS BINARY) = CAST(? AS BINARY)" : "lease_owner = ?";
    }

    /**
     * The condition "suspended as of the one parameter {@code now}" ({@code RunSnapshot.effectiveStatus}):
     * a {@code SUSPENDED} row without a lease, or a {@code RESUMING} row whose lease has lapsed. It
     * also spells out the lease invariants of {@code RunSnapshot}, so a corrupt row (unknown status,
     * a suspended row with a lease, a resuming row without one) matches neither this nor
     * {@link #resumingAt()}. On MySQL/MariaDB the same test is folded into the indexed virtual
     * column {@code lease_state} (migration V002), so that it can be answered from the index.
     */
    String suspendedAt() {
        return this == MYSQL ? "lease_state <= ?"
                : "((status = 'SUSPENDED' AND lease_owner IS NULL AND lease_expires_at IS NULL)"
                + " OR (status = 'RESUMING' AND lease_owner IS NOT NULL AND lease_expires_at <= ?))";
    }

    /** The condition "resuming under a live lease as of the one parameter {@code now}", see {@link #suspendedAt()}. */
    String resumingAt() {
        return this == MYSQL ? "lease_state > ?"
                : "(status = 'RESUMING' AND lease_owner IS NOT NULL AND lease_expires_at > ?)";
    }

    /**
     * True when the database reports that a migration statement's object already exists (or, for
     * a drop, is already gone): MySQL/MariaDB "duplicate column name", "duplicate key name" and
     * "can't drop; check that it exists", SQLite "duplicate column name". Only these two lack
     * {@code IF NOT EXISTS} for the statements Baton's migrations use.
     */
    boolean isAlreadyApplied(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (!(t instanceof SQLException s)) continue;
            if (this == MYSQL && (s.getErrorCode() == 1060 || s.getErrorCode() == 1061 || s.getErrorCode() == 1091)) return true;
            if (this == SQLITE && String.valueOf(s.getMessage()).contains("duplicate column name")) return true;
        }
        return false;
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
