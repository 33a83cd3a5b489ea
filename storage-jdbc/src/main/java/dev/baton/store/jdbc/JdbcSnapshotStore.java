package dev.baton.store.jdbc;

import dev.baton.StorageException;
import dev.baton.store.MemoryStore;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SnapshotStore} in one SQL table, through Jdbi 3: PostgreSQL, MySQL/MariaDB, H2 and
 * SQLite; with {@link #memory()}, thread memory in two more tables of the same database.
 *
 * <p>Every field a query filters or orders on is a real, indexed column; the run state is the
 * {@code payload} text beside them, stored verbatim, and the {@code summary} a listing shows is
 * a second text column, so a listing that asks for no payloads never reads them. Each call is
 * one statement outside any transaction: compare-and-set is {@code UPDATE ... WHERE run_id = ?
 * AND version = ?} (zero rows: the race was lost); a listing is one {@code SELECT} of the page
 * ({@code ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?}, or after a cursor) that
 * carries the total, on an index per filter combination that also covers the count (PostgreSQL
 * {@code INCLUDE}, MySQL/MariaDB's {@code lease_state}); due runs ({@link #listDue}) are an index
 * range on {@code (agent_id, expires_at, run_id)}.
 *
 * <p>Open it by URL ({@code SnapshotStores.open("jdbc:postgresql://db/app")}, which pools
 * connections with HikariCP and closes the pool on {@link #close()}), or from the application's
 * own pool, which Baton never closes:
 *
 * <pre>{@code
 * SnapshotStore store = JdbcSnapshotStore.builder(dataSource)   // or builder(jdbi)
 *     .table("baton_runs")
 *     .schemaMode(SchemaMode.VALIDATE)                          // you run the DDL with Flyway
 *     .build();
 * }</pre>
 *
 * <p>{@link #ddl(JdbcDialect, String)} (or {@code java dev.baton.store.jdbc.JdbcSnapshotStore postgresql})
 * prints the DDL for applications that manage their schema themselves.
 *
 * <p>Leases: {@link #renewLease} is one {@code UPDATE ... SET lease_expires_at = ?, version =
 * version + 1 WHERE run_id = ? AND version = ? AND status = 'RESUMING' AND lease_owner = ?}; the
 * payload is neither read nor sent. {@link #now()} reads the database server's clock
 * (PostgreSQL {@code clock_timestamp()}, MySQL/MariaDB {@code UTC_TIMESTAMP(6)}, H2
 * {@code CURRENT_TIMESTAMP}, SQLite {@code strftime('%f', 'now')}); H2 embedded and SQLite run in
 * the application's process, so theirs is this machine's clock.
 *
 * <p>Capabilities ({@link #capabilities()}): every JDBC store has {@link StoreCapability#STORE_CLOCK}
 * and {@link StoreCapability#THREAD_MEMORY}.
 * PostgreSQL, MySQL/MariaDB, an SQLite file, H2 over TCP and an H2 file opened with
 * {@code AUTO_SERVER=TRUE} are {@link StoreCapability#SHARED} and {@link StoreCapability#DURABLE};
 * an H2 file without {@code AUTO_SERVER} is only durable (a second process cannot open it);
 * {@code jdbc:h2:mem:} and an in-memory SQLite database are neither.
 *
 * <p>Thread-safe: one store (and its {@link #memory()}) serves every thread of a process, each
 * call on a connection of its own from the pool. Whoever opened the store closes it:
 * {@link #close()} closes the pool a URL-opened store created, never a {@code DataSource} or
 * {@code Jdbi} passed to {@link #builder(DataSource)} or {@link #builder(Jdbi)}. Driver failures
 * are {@link StorageException}s naming the database and the run or thread.
 */
public final class JdbcSnapshotStore implements SnapshotStore {

    /** The table name used when none is given. */
    public static final String DEFAULT_TABLE = "baton_runs";
    /** Seconds a statement may run before the driver cancels it, unless the builder says otherwise. */
    public static final int DEFAULT_QUERY_TIMEOUT_SECONDS = 30;

    private final JdbcDialect dialect;
    private final String table;
    private final String description;
    private final @Nullable AutoCloseable owned;
    private final Set<StoreCapability> capabilities;
    private final JdbcAccess db;
    private final RunRows rows;
    private final JdbcRunListing listing;
    private final JdbcMemoryStore memory;

    private JdbcSnapshotStore(Jdbi jdbi, JdbcDialect dialect, String table, String description,
                              @Nullable AutoCloseable owned, int queryTimeoutSeconds, Set<StoreCapability> capabilities) {
        this.capabilities = capabilities;
        this.dialect = dialect;
        this.table = table;
        this.description = description;
        this.owned = owned;
        this.db = new JdbcAccess(jdbi, dialect, description, queryTimeoutSeconds);
        this.rows = new RunRows(db);
        this.listing = new JdbcRunListing(db, table, rows);
        this.memory = new JdbcMemoryStore(db, table);
    }

    /**
     * Starts a store on the application's {@link DataSource}; Baton never closes it.
     *
     * @param dataSource the application's pool
     * @return a builder; {@link Builder#build()} connects
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(Jdbi.create(Objects.requireNonNull(dataSource, "dataSource")), null);
    }

    /**
     * Starts a store on the application's {@link Jdbi}; Baton never closes what it connects to,
     * and changes none of its settings (the query timeout is set on the store's own handles).
     *
     * @param jdbi the application's Jdbi
     * @return a builder; {@link Builder#build()} connects
     */
    public static Builder builder(Jdbi jdbi) {
        return new Builder(Objects.requireNonNull(jdbi, "jdbi"), null);
    }

    /** Builder for {@link JdbcSnapshotStore}. Not thread-safe: one thread builds a store. */
    public static final class Builder {
        private final Jdbi jdbi;
        private @Nullable AutoCloseable owned;
        private @Nullable JdbcDialect dialect;
        private String table = DEFAULT_TABLE;
        private SchemaMode schemaMode = SchemaMode.CREATE;
        private int queryTimeoutSeconds = DEFAULT_QUERY_TIMEOUT_SECONDS;
        private @Nullable String description;
        private @Nullable String url;

        private Builder(Jdbi jdbi, @Nullable AutoCloseable owned) {
            this.jdbi = jdbi;
            this.owned = owned;
        }

        /**
         * The table; default {@value #DEFAULT_TABLE}. A plain identifier, at most 40 characters.
         *
         * @param table the runs table's name; the thread memory's tables are named after it
         * @return this builder
         * @throws IllegalArgumentException if it is not a plain identifier of at most 40 characters
         */
        public Builder table(String table) {
            this.table = Schema.checkTable(table);
            return this;
        }

        /**
         * What to do with the table at start; default {@link SchemaMode#CREATE}.
         *
         * @param schemaMode create, validate or leave the schema alone
         * @return this builder
         */
        public Builder schemaMode(SchemaMode schemaMode) {
            this.schemaMode = Objects.requireNonNull(schemaMode, "schemaMode");
            return this;
        }

        /**
         * The database; by default read from the connection's metadata at {@link #build()}.
         *
         * @param dialect the database's dialect
         * @return this builder
         */
        public Builder dialect(JdbcDialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /**
         * Seconds a statement may run before it is cancelled; default {@value #DEFAULT_QUERY_TIMEOUT_SECONDS}.
         *
         * @param seconds at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code seconds} is less than 1
         */
        public Builder queryTimeoutSeconds(int seconds) {
            if (seconds < 1) throw new IllegalArgumentException("queryTimeoutSeconds must be >= 1, was " + seconds);
            this.queryTimeoutSeconds = seconds;
            return this;
        }

        /**
         * How the store names itself in messages, e.g. the redacted URL; default the dialect and table.
         *
         * @param description the name in messages and {@link JdbcSnapshotStore#describe()}
         * @return this builder
         */
        public Builder description(String description) {
            this.description = Objects.requireNonNull(description, "description");
            return this;
        }

        /** The JDBC URL, when the caller knows it (the provider); else it is read from the connection. */
        Builder url(String jdbcUrl) {
            this.url = jdbcUrl;
            return this;
        }

        /** Hands a resource (the pool a URL-opened store created) to the store, to close with it. */
        Builder owning(AutoCloseable resource) {
            this.owned = resource;
            return this;
        }

        /**
         * Connects, detects the dialect if not given, and applies the {@link SchemaMode}.
         *
         * @return the store, open
         * @throws StorageException if the database cannot be reached or the schema is not usable
         */
        public JdbcSnapshotStore build() {
            try {
                JdbcBootstrap.Opened o = JdbcBootstrap.open(jdbi, dialect, table, schemaMode, description, url);
                return new JdbcSnapshotStore(jdbi, o.dialect(), table, o.description(), owned, queryTimeoutSeconds,
                        o.capabilities());
            } catch (RuntimeException e) {
                closeOwned();
                throw e;
            }
        }

        private void closeOwned() {
            if (owned == null) return;
            try {
                owned.close();
            } catch (Exception ignored) {
                // the open already failed; that error is the one to report
            }
        }
    }

    /** Package-private entry for the provider: a store that owns (and closes) {@code pool}. */
    static Builder owningBuilder(Jdbi jdbi, AutoCloseable pool) {
        return new Builder(jdbi, null).owning(pool);
    }

    /**
     * The DDL of every migration (the runs table, its indexes, the thread memory's tables) and of
     * the history table, for {@code dialect}, as one script to run in order.
     *
     * @param dialect the database
     * @param table   the runs table's name
     * @return the script, statements separated by {@code ;} and a line break
     */
    public static String ddl(JdbcDialect dialect, String table) {
        return Schema.ddl(Objects.requireNonNull(dialect, "dialect"), table);
    }

    /**
     * Prints the DDL: {@code java -cp ... dev.baton.store.jdbc.JdbcSnapshotStore postgresql|mysql|h2|sqlite [table]}.
     *
     * @param args the dialect's name and, optionally, the table's
     */
    public static void main(String[] args) {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: JdbcSnapshotStore postgresql|mysql|h2|sqlite [table]");
            System.exit(2);
        }
        JdbcDialect d = JdbcDialect.valueOf(args[0].toUpperCase(java.util.Locale.ROOT));
        System.out.print(ddl(d, args.length > 1 ? args[1] : DEFAULT_TABLE));
    }

    /** {@return the database this store talks to} */
    public JdbcDialect dialect() {
        return dialect;
    }

    /** {@return the table this store keeps its runs in} */
    public String table() {
        return table;
    }

    // ---------------------------------------------------------------- SnapshotStore

    @Override
    public boolean insert(RunSnapshot s) {
        db.checkFits(s);
        return db.call("insert", s.runId(), h -> {
            var u = h.createUpdate("INSERT INTO " + table + " (" + Schema.COLUMNS + ") VALUES (" + RunRows.VALUES + ")");
            rows.bindRow(u, s);
            try {
                return u.execute() == 1;
            } catch (UnableToExecuteStatementException e) {
                if (e.getCause() instanceof SQLException se && dialect.isDuplicateKey(se)) return false;
                throw e;
            }
        });
    }

    @Override
    public Optional<RunSnapshot> find(String runId) {
        Objects.requireNonNull(runId, "runId");
        if (!dialect.fits(runId)) return Optional.empty();   // too long to have been stored
        return db.call("find", runId, h -> {
            var q = h.createQuery("SELECT " + Schema.COLUMNS + " FROM " + table + " WHERE run_id = ?");
            db.bindId(q, 0, runId);
            return q.map((rs, ctx) -> rows.read(rs)).findOne();
        });
    }

    /** One {@code UPDATE ... WHERE run_id = ? AND version = ?} of every field a run's life changes. */
    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot r) {
        db.checkFits(r);
        return db.call("compare-and-set", r.runId(), h -> {
            var u = h.createUpdate("UPDATE " + table + " SET " + RunRows.CHANGING + " WHERE run_id = ? AND version = ?");
            RunRows.bindChanging(u, r);
            db.bindId(u, 10, r.runId());
            u.bind(11, expectedVersion);
            return u.execute() == 1;
        });
    }

    /**
     * One {@code UPDATE} of {@code lease_expires_at} and {@code version} where the run is at
     * {@code expectedVersion}, {@code RESUMING} and held by {@code owner}; the payload stays where it is.
     */
    @Override
    public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(newExpiry, "newExpiry");
        if (!dialect.fits(runId)) return false;   // too long to have been stored
        return db.call("lease renewal", runId, h -> {
            var u = h.createUpdate("UPDATE " + table + " SET lease_expires_at = ?, version = version + 1"
                    + " WHERE run_id = ? AND version = ? AND status = 'RESUMING' AND " + dialect.leaseOwnerIs());
            u.bind(0, newExpiry.toEpochMilli());
            db.bindId(u, 1, runId);
            u.bind(2, expectedVersion);
            u.bind(3, owner);
            return u.execute() == 1;
        });
    }

    /** The database server's clock, see the class comment. */
    @Override
    public Instant now() {
        return db.call("reading the clock", null, h -> Instant.ofEpochMilli(
                h.createQuery(dialect.nowMillisSql()).mapTo(Long.class).one()));
    }

    /** See the class comment: {@link StoreCapability#STORE_CLOCK}, {@link StoreCapability#THREAD_MEMORY}, and more depending on the database and URL. */
    @Override
    public Set<StoreCapability> capabilities() {
        return capabilities;
    }

    @Override
    public boolean delete(String runId, long expectedVersion) {
        Objects.requireNonNull(runId, "runId");
        if (!dialect.fits(runId)) return false;
        return db.call("delete", runId, h -> {
            var u = h.createUpdate("DELETE FROM " + table + " WHERE run_id = ? AND version = ?");
            db.bindId(u, 0, runId);
            u.bind(1, expectedVersion);
            return u.execute() == 1;
        });
    }

    /**
     * The page and its total in one statement (PostgreSQL always; the others unless the page is
     * past the end, when the total is asked for alone), outside any transaction; see the class comment.
     */
    @Override
    public RunPage list(RunQuery query) {
        Objects.requireNonNull(query, "query");
        return listing.list(query);
    }

    /**
     * One {@code SELECT ... WHERE agent_id = ? AND expires_at <= ? AND <suspended now> ORDER BY
     * expires_at, run_id LIMIT ?} on the index {@code <table>_due}; payloads are left out (empty).
     */
    @Override
    public List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        return listing.listDue(agentId, now, limit);
    }

    /** {@code SELECT ... WHERE agent_id = ? AND notify_at <= ? ORDER BY notify_at, run_id LIMIT ?} on {@code <table>_notify}. */
    @Override
    public List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        return listing.listNotificationsDue(agentId, now, limit);
    }

    /** One {@code UPDATE ... SET notify_at, notify_state WHERE run_id = ? AND version = ? AND notify_at = ?}. */
    @Override
    public boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt, @Nullable Instant notifyAt,
            @Nullable String notifyState) {
        return listing.updateNotification(runId, expectedVersion, expectedNotifyAt, notifyAt, notifyState);
    }

    /** The thread memory in this database ({@code <table>_threads}, {@code <table>_messages}), on the same pool. */
    @Override
    public Optional<MemoryStore> memory() {
        return Optional.of(memory);
    }

    /** The listing, for tests that look at the plans of its statements. */
    JdbcRunListing listing() {
        return listing;
    }

    // ---------------------------------------------------------------- plumbing

    @Override
    public String describe() {
        return description;
    }

    /**
     * Closes the pool a URL-opened store created (never a {@code DataSource} or {@code Jdbi} passed
     * in). Idempotent; every later call on this store fails with a {@link StorageException}.
     */
    @Override
    public void close() {
        if (!db.close()) return;
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                throw new StorageException(description + ": closing the connection pool failed", e);
            }
        }
    }

    @Override
    public String toString() {
        return "JdbcSnapshotStore[" + description + "]";
    }
}
