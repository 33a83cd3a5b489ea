package dev.baton.store.jdbc;

import dev.baton.StorageException;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.MemoryStore;
import dev.baton.store.QueryFeature;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;
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
 * , {@link StoreCapability#THREAD_MEMORY} and {@link StoreCapability#DECISIONS} (decision records in {@code <table>_decisions}).
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
    private final JdbcRunListing listing;
    private final JdbcMemoryStore memory;
    private final JdbcDecisions decisions;
    private final JdbcRunWrites writes;

    private JdbcSnapshotStore(Jdbi jdbi, @Nullable DataSource dataSource, JdbcDialect dialect, String table, String description,
                              @Nullable AutoCloseable owned, int queryTimeoutSeconds, Set<StoreCapability> capabilities) {
        this.capabilities = capabilities;
        this.dialect = dialect;
        this.table = table;
        this.description = description;
        this.owned = owned;
        this.db = new JdbcAccess(jdbi, dataSource, dialect, description, queryTimeoutSeconds);
        DeciderLabels labels = new DeciderLabels(db, table);
        RunRows rows = new RunRows(db, labels);
        this.listing = new JdbcRunListing(db, table, rows, labels);
        this.memory = new JdbcMemoryStore(db, table);
        this.decisions = new JdbcDecisions(db, table);
        this.writes = new JdbcRunWrites(db, table, rows, decisions, labels);
    }

    /**
     * Starts a store on the application's {@link DataSource}; Baton never closes it.
     *
     * @param dataSource the application's pool
     * @return a builder; {@link Builder#build()} connects
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(Jdbi.create(Objects.requireNonNull(dataSource, "dataSource")), null).dataSource(dataSource);
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
        private @Nullable DataSource dataSource;

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

        /** The pool behind the Jdbi, when known: the statements on one run borrow its connections without a Jdbi handle. */
        Builder dataSource(DataSource pool) {
            this.dataSource = pool;
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
                return new JdbcSnapshotStore(jdbi, dataSource, o.dialect(), table, o.description(), owned, queryTimeoutSeconds,
                        o.capabilities());
            } catch (RuntimeException e) {
                JdbcBootstrap.closeQuietly(owned);
                throw e;
            }
        }
    }

    /** Package-private entry for the provider: a store that owns (and closes) {@code pool}. */
    static Builder owningBuilder(Jdbi jdbi, AutoCloseable pool) {
        Builder b = new Builder(jdbi, null).owning(pool);
        return pool instanceof DataSource ds ? b.dataSource(ds) : b;
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
        JdbcBootstrap.printDdl(args);
    }

    /** {@return the database this store talks to} */
    public JdbcDialect dialect() {
        return dialect;
    }

    /** {@return the table this store keeps its runs in} */
    public String table() {
        return table;
    }

    @Override
    public boolean insert(RunSnapshot s) {
        return writes.insert(s);
    }

    @Override
    public Optional<RunSnapshot> find(String runId) {
        return writes.find(runId);
    }

    /** One {@code UPDATE ... WHERE run_id = ? AND version = ?} of every field a run's life changes. */
    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot r) {
        return writes.compareAndSet(expectedVersion, r);
    }

    /** The {@code UPDATE} and an {@code INSERT} into {@code <table>_decisions} per record, in one transaction. */
    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot r, List<DecisionRecord> records) {
        return writes.compareAndSet(expectedVersion, r, records);
    }

    /** The {@code DELETE} and an {@code INSERT} into {@code <table>_decisions} per record, in one transaction. */
    @Override
    public boolean delete(String runId, long expectedVersion, List<DecisionRecord> records) {
        return writes.delete(runId, expectedVersion, records);
    }

    /** One indexed query per page: {@code (agent_id[, run_id | thread_id | resource_id | actor], decided_at, decision_id)}. */
    @Override
    public DecisionPage listDecisions(DecisionQuery query) {
        return decisions.list(query);
    }

    /** A point lookup on the unique {@code (agent_id, idempotency_key)} index. */
    @Override
    public Optional<DecisionRecord> findDecision(String agentId, String idempotencyKey) {
        return decisions.find(agentId, idempotencyKey);
    }

    /** One {@code DELETE} of the oldest {@code limit} records before {@code olderThan}. */
    @Override
    public int purgeDecisions(String agentId, Instant olderThan, int limit) {
        return decisions.purge(agentId, olderThan, limit);
    }

    /**
     * One {@code UPDATE} of {@code lease_expires_at} and {@code version} where the run is at
     * {@code expectedVersion}, {@code RESUMING} and held by {@code owner}; the payload stays where it is.
     */
    @Override
    public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        return writes.renewLease(runId, expectedVersion, owner, newExpiry);
    }

    /**
     * {@link QueryFeature#BASELINE} and {@link QueryFeature#DECIDERS}: the deciders filter on the labels of
     * migration V007 (PostgreSQL: a GIN-indexed array column; the others: the side table {@code <table>_deciders}).
     */
    @Override
    public Set<QueryFeature> queryFeatures() {
        return FEATURES;
    }

    private static final Set<QueryFeature> FEATURES =
            java.util.Collections.unmodifiableSet(java.util.EnumSet.of(QueryFeature.BASELINE, QueryFeature.DECIDERS));

    /** The database server's clock, see the class comment. */
    @Override
    public Instant now() {
        return db.now();
    }

    /** See the class comment: {@link StoreCapability#STORE_CLOCK}, {@link StoreCapability#THREAD_MEMORY}, and more depending on the database and URL. */
    @Override
    public Set<StoreCapability> capabilities() {
        return capabilities;
    }

    @Override
    public boolean delete(String runId, long expectedVersion) {
        return writes.delete(runId, expectedVersion);
    }

    /**
     * The page and its total in one statement (PostgreSQL always; the others unless the page is
     * past the end, when the total is asked for alone), outside any transaction; see the class comment.
     */
    @Override
    public RunPage list(RunQuery query) {
        return listing.list(query);
    }

    /**
     * One {@code SELECT ... WHERE agent_id = ? AND expires_at <= ? AND <suspended now> ORDER BY
     * expires_at, run_id LIMIT ?} on the index {@code <table>_due}; payloads are left out (empty).
     */
    @Override
    public List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
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
        if (db.close()) JdbcBootstrap.close(owned, description);
    }

    @Override
    public String toString() {
        return "JdbcSnapshotStore[" + description + "]";
    }
}
