package dev.baton.store.jdbc;

import dev.baton.SnapshotFormatException;
import dev.baton.StorageException;
import dev.baton.agent.RunStatus;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.statement.SqlStatement;
import org.jdbi.v3.core.statement.SqlStatements;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SnapshotStore} in one SQL table, through Jdbi 3: PostgreSQL, MySQL/MariaDB, H2 and
 * SQLite.
 *
 * <p>Every field a query filters or orders on is a real, indexed column; the run state is the
 * {@code payload} text beside them, stored verbatim. Listing is one {@code SELECT ... WHERE ...
 * ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?} plus a {@code COUNT(*)}, on an index
 * per filter combination; compare-and-set is {@code UPDATE ... WHERE run_id = ? AND version = ?}
 * (zero rows: the race was lost).
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
 * <p>Capabilities ({@link #capabilities()}): every JDBC store has {@link StoreCapability#STORE_CLOCK}.
 * PostgreSQL, MySQL/MariaDB, an SQLite file, H2 over TCP and an H2 file opened with
 * {@code AUTO_SERVER=TRUE} are {@link StoreCapability#SHARED} and {@link StoreCapability#DURABLE};
 * an H2 file without {@code AUTO_SERVER} is only durable (a second process cannot open it);
 * {@code jdbc:h2:mem:} and an in-memory SQLite database are neither.
 */
public final class JdbcSnapshotStore implements SnapshotStore {

    /** The table name used when none is given. */
    public static final String DEFAULT_TABLE = "baton_runs";
    /** Seconds a statement may run before the driver cancels it, unless the builder says otherwise. */
    public static final int DEFAULT_QUERY_TIMEOUT_SECONDS = 30;

    private final Jdbi jdbi;
    private final JdbcDialect dialect;
    private final String table;
    private final String description;
    private final @Nullable AutoCloseable owned;
    private final String selectColumns;
    private final int queryTimeoutSeconds;
    private final Set<StoreCapability> capabilities;
    private volatile boolean closed;

    private JdbcSnapshotStore(Jdbi jdbi, JdbcDialect dialect, String table, String description,
                              @Nullable AutoCloseable owned, int queryTimeoutSeconds, Set<StoreCapability> capabilities) {
        this.jdbi = jdbi;
        this.capabilities = withStoreClock(capabilities);
        this.queryTimeoutSeconds = queryTimeoutSeconds;
        this.dialect = dialect;
        this.table = table;
        this.description = description;
        this.owned = owned;
        this.selectColumns = "SELECT " + Schema.COLUMNS + " FROM " + table;
    }

    /** Starts a store on the application's {@link DataSource}; Baton never closes it. */
    public static Builder builder(DataSource dataSource) {
        return new Builder(Jdbi.create(Objects.requireNonNull(dataSource, "dataSource")), null);
    }

    /**
     * Starts a store on the application's {@link Jdbi}; Baton never closes what it connects to,
     * and changes none of its settings (the query timeout is set on the store's own handles).
     */
    public static Builder builder(Jdbi jdbi) {
        return new Builder(Objects.requireNonNull(jdbi, "jdbi"), null);
    }

    /** Builder for {@link JdbcSnapshotStore}. */
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

        /** The table; default {@value #DEFAULT_TABLE}. A plain identifier, at most 40 characters. */
        public Builder table(String table) {
            this.table = Schema.checkTable(table);
            return this;
        }

        /** What to do with the table at start; default {@link SchemaMode#CREATE}. */
        public Builder schemaMode(SchemaMode schemaMode) {
            this.schemaMode = Objects.requireNonNull(schemaMode, "schemaMode");
            return this;
        }

        /** The database; by default read from the connection's metadata at {@link #build()}. */
        public Builder dialect(JdbcDialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /** Seconds a statement may run before it is cancelled; default {@value #DEFAULT_QUERY_TIMEOUT_SECONDS}. */
        public Builder queryTimeoutSeconds(int seconds) {
            if (seconds < 1) throw new IllegalArgumentException("queryTimeoutSeconds must be >= 1, was " + seconds);
            this.queryTimeoutSeconds = seconds;
            return this;
        }

        /** How the store names itself in messages, e.g. the redacted URL; default the dialect and table. */
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
         * @throws StorageException if the database cannot be reached or the schema is not usable
         */
        public JdbcSnapshotStore build() {
            JdbcDialect d = dialect;
            String what = description != null ? description : "JDBC store (table " + table + ")";
            String jdbcUrl = url;
            try {
                if (d == null) {
                    String[] productAndUrl = jdbi.withHandle(h -> {
                        try {
                            var meta = h.getConnection().getMetaData();
                            return new String[] {meta.getDatabaseProductName(), meta.getURL()};
                        } catch (SQLException e) {
                            throw new StorageException(what0(description) + ": cannot read the database product name", e);
                        }
                    });
                    String product = productAndUrl[0];
                    if (jdbcUrl == null) jdbcUrl = productAndUrl[1];
                    d = JdbcDialect.forProductName(product).orElseThrow(() -> new StorageException(
                            "Baton's JDBC store supports PostgreSQL, MySQL/MariaDB, H2 and SQLite, not " + product));
                }
                String name = description != null ? description : d.displayName() + " (table " + table + ")";
                what = name;
                switch (schemaMode) {
                    case CREATE -> Schema.migrate(jdbi, d, table);
                    case VALIDATE -> Schema.validate(jdbi, table);
                    case NONE -> { }
                }
                if (jdbcUrl == null && schemaMode != SchemaMode.NONE && (d == JdbcDialect.H2 || d == JdbcDialect.SQLITE)) {
                    jdbcUrl = jdbi.withHandle(h -> {   // connected anyway: which H2 / SQLite database is it?
                        try {
                            return h.getConnection().getMetaData().getURL();
                        } catch (SQLException e) {
                            return null;
                        }
                    });
                }
                return new JdbcSnapshotStore(jdbi, d, table, name, owned, queryTimeoutSeconds, capabilitiesOf(d, jdbcUrl));
            } catch (JdbiException e) {
                closeOwned();
                throw new StorageException(what + ": cannot open the store: " + Schema.rootMessage(e), e);
            } catch (RuntimeException e) {
                closeOwned();
                throw e;
            }
        }

        private String what0(@Nullable String d) {
            return d != null ? d : "JDBC store (table " + table + ")";
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
     * What a store on this database offers. A server database is shared and durable; an H2 or
     * SQLite database depends on its URL (in memory: neither; an H2 file without
     * {@code AUTO_SERVER=TRUE}: durable only). An H2 or SQLite store whose URL is unknown (built
     * with {@link Builder#dialect} and {@link SchemaMode#NONE}, so never connected at build time)
     * claims nothing. {@link StoreCapability#STORE_CLOCK}, which every JDBC store has, is added by
     * the store.
     */
    static Set<StoreCapability> capabilitiesOf(JdbcDialect dialect, @Nullable String jdbcUrl) {
        Set<StoreCapability> sharedAndDurable = Set.of(StoreCapability.SHARED, StoreCapability.DURABLE);
        if (dialect == JdbcDialect.POSTGRESQL || dialect == JdbcDialect.MYSQL) return sharedAndDurable;
        if (jdbcUrl == null) return Set.of();
        String u = jdbcUrl.toLowerCase(Locale.ROOT);
        if (dialect == JdbcDialect.H2) {
            String rest = u.startsWith("jdbc:h2:") ? u.substring("jdbc:h2:".length()) : u;
            if (rest.startsWith("mem:")) return Set.of();
            if (rest.startsWith("tcp:") || rest.startsWith("ssl:")) return sharedAndDurable;
            return u.replace(" ", "").contains(";auto_server=true") ? sharedAndDurable : Set.of(StoreCapability.DURABLE);
        }
        String rest = u.startsWith("jdbc:sqlite:") ? u.substring("jdbc:sqlite:".length()) : u;
        int q = rest.indexOf('?');
        String path = q < 0 ? rest : rest.substring(0, q);
        if (path.isEmpty() || path.equals(":memory:") || path.startsWith("file::memory:") || rest.contains("mode=memory")) {
            return Set.of();
        }
        return sharedAndDurable;
    }

    private static Set<StoreCapability> withStoreClock(Set<StoreCapability> capabilities) {
        EnumSet<StoreCapability> all = EnumSet.of(StoreCapability.STORE_CLOCK);
        all.addAll(capabilities);
        return java.util.Collections.unmodifiableSet(all);
    }

    /** The DDL of the runs table (and its history table) for {@code dialect}, as one script. */
    public static String ddl(JdbcDialect dialect, String table) {
        return Schema.ddl(Objects.requireNonNull(dialect, "dialect"), table);
    }

    /**
     * Prints the DDL: {@code java -cp ... dev.baton.store.jdbc.JdbcSnapshotStore postgresql|mysql|h2|sqlite [table]}.
     */
    public static void main(String[] args) {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: JdbcSnapshotStore postgresql|mysql|h2|sqlite [table]");
            System.exit(2);
        }
        JdbcDialect d = JdbcDialect.valueOf(args[0].toUpperCase(java.util.Locale.ROOT));
        System.out.print(ddl(d, args.length > 1 ? args[1] : DEFAULT_TABLE));
    }

    /** The database this store talks to. */
    public JdbcDialect dialect() {
        return dialect;
    }

    /** The table this store keeps its runs in. */
    public String table() {
        return table;
    }

    // ---------------------------------------------------------------- SnapshotStore

    @Override
    public boolean insert(RunSnapshot s) {
        checkFits(s);
        return call("insert", s.runId(), h -> {
            var u = h.createUpdate("INSERT INTO " + table + " (" + Schema.COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
            bindId(u, 0, s.runId());
            bindId(u, 1, s.agentId());
            u.bind(2, s.status().name());
            bindId(u, 3, s.threadId());
            bindId(u, 4, s.resourceId());
            u.bind(5, s.createdAt().toEpochMilli());
            u.bind(6, s.suspendedAt().toEpochMilli());
            u.bind(7, s.version());
            bindText(u, 8, s.leaseOwner());
            bindMillis(u, 9, s.leaseExpiresAt());
            u.bind(10, s.payload());
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
        return call("find", runId, h -> {
            var q = h.createQuery(selectColumns + " WHERE run_id = ?");
            bindId(q, 0, runId);
            return q.map((rs, ctx) -> read(rs)).findOne();
        });
    }

    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot r) {
        checkFits(r);
        return call("compare-and-set", r.runId(), h -> {
            var u = h.createUpdate("UPDATE " + table + " SET status = ?, suspended_at = ?, version = ?, lease_owner = ?,"
                    + " lease_expires_at = ?, payload = ? WHERE run_id = ? AND version = ?");
            u.bind(0, r.status().name());
            u.bind(1, r.suspendedAt().toEpochMilli());
            u.bind(2, r.version());
            bindText(u, 3, r.leaseOwner());
            bindMillis(u, 4, r.leaseExpiresAt());
            u.bind(5, r.payload());
            bindId(u, 6, r.runId());
            u.bind(7, expectedVersion);
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
        return call("lease renewal", runId, h -> {
            var u = h.createUpdate("UPDATE " + table + " SET lease_expires_at = ?, version = version + 1"
                    + " WHERE run_id = ? AND version = ? AND status = 'RESUMING' AND " + dialect.leaseOwnerIs());
            u.bind(0, newExpiry.toEpochMilli());
            bindId(u, 1, runId);
            u.bind(2, expectedVersion);
            u.bind(3, owner);
            return u.execute() == 1;
        });
    }

    /** The database server's clock, see the class comment. */
    @Override
    public Instant now() {
        return call("reading the clock", null, h -> Instant.ofEpochMilli(
                h.createQuery(dialect.nowMillisSql()).mapTo(Long.class).one()));
    }

    /** See the class comment: {@link StoreCapability#STORE_CLOCK}, and more depending on the database and URL. */
    @Override
    public Set<StoreCapability> capabilities() {
        return capabilities;
    }

    @Override
    public boolean delete(String runId, long expectedVersion) {
        Objects.requireNonNull(runId, "runId");
        if (!dialect.fits(runId)) return false;
        return call("delete", runId, h -> {
            var u = h.createUpdate("DELETE FROM " + table + " WHERE run_id = ? AND version = ?");
            bindId(u, 0, runId);
            u.bind(1, expectedVersion);
            return u.execute() == 1;
        });
    }

    @Override
    public RunPage list(RunQuery query) {
        if (query.emptyDateRange()
                || !dialect.fits(query.agentId())
                || (query.threadId() != null && !dialect.fits(query.threadId()))
                || (query.resourceId() != null && !dialect.fits(query.resourceId()))) {
            return new RunPage(List.of(), 0);
        }
        Where where = where(query);
        Integer limit = query.limit();
        return call("list", null, h -> {
            if (limit != null && limit == 0) return new RunPage(List.of(), count(h, where));
            String sql = selectColumns + where.sql + " ORDER BY created_at DESC, run_id DESC"
                    + (limit != null ? " LIMIT " + limit + " OFFSET " + query.offset() : "");
            if (limit == null) {
                List<RunSnapshot> all = rows(h, sql, where);
                return new RunPage(all, all.size());
            }
            // page and count in one snapshot, so the total agrees with the page
            HandleCallback<RunPage, RuntimeException> page = t -> {
                List<RunSnapshot> items = rows(t, sql, where);
                long offset = query.offset();
                boolean lastPage = items.size() < limit && (!items.isEmpty() || offset == 0);
                long total = lastPage ? offset + items.size() : count(t, where);
                return new RunPage(items, items.isEmpty() ? total : Math.max(total, offset + items.size()));
            };
            // SQLite transactions are serializable anyway, and its driver refuses other levels
            return dialect == JdbcDialect.SQLITE ? h.inTransaction(page)
                    : h.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, page);
        });
    }

    /** The page query for {@code query} and its parameters; for tests that look at plans. */
    String listSql(RunQuery query) {
        Integer limit = query.limit();
        return selectColumns + where(query).sql + " ORDER BY created_at DESC, run_id DESC"
                + (limit != null ? " LIMIT " + limit + " OFFSET " + query.offset() : "");
    }

    List<Object> listParameters(RunQuery query) {
        return where(query).params;
    }

    private record Where(String sql, List<Object> params) {
    }

    private Where where(RunQuery q) {
        StringBuilder sql = new StringBuilder(" WHERE agent_id = ?");
        List<Object> params = new ArrayList<>();
        params.add(id(q.agentId()));
        if (q.threadId() != null) {
            sql.append(" AND thread_id = ?");
            params.add(id(q.threadId()));
        }
        if (q.resourceId() != null) {
            sql.append(" AND resource_id = ?");
            params.add(id(q.resourceId()));
        }
        if (q.createdFrom() != null) {
            sql.append(" AND created_at >= ?");
            params.add(q.createdFrom().toEpochMilli());
        }
        if (q.createdTo() != null) {
            sql.append(" AND created_at <= ?");
            params.add(q.createdTo().toEpochMilli());
        }
        // The effective status (a RESUMING run whose lease expired counts as SUSPENDED) is a
        // residual filter on the rows the (agent, thread, resource, created_at) index yields.
        // It also spells out the lease invariants of RunSnapshot, so a corrupt row (unknown
        // status, a SUSPENDED row with a lease, a RESUMING row without one) matches neither
        // branch: it cannot break the listing of the other runs; find() reports it.
        if (q.status() == RunStatus.SUSPENDED) {
            sql.append(" AND ((status = 'SUSPENDED' AND lease_owner IS NULL AND lease_expires_at IS NULL)"
                    + " OR (status = 'RESUMING' AND lease_owner IS NOT NULL AND lease_expires_at <= ?))");
            params.add(q.now().toEpochMilli());
        } else if (q.status() == RunStatus.RESUMING) {
            sql.append(" AND status = 'RESUMING' AND lease_owner IS NOT NULL AND lease_expires_at > ?");
            params.add(q.now().toEpochMilli());
        }
        return new Where(sql.toString(), params);
    }

    private List<RunSnapshot> rows(Handle h, String sql, Where where) {
        var q = h.createQuery(sql);
        for (int i = 0; i < where.params.size(); i++) q.bind(i, where.params.get(i));
        return q.map((rs, ctx) -> read(rs)).list();
    }

    private long count(Handle h, Where where) {
        var q = h.createQuery("SELECT COUNT(*) FROM " + table + where.sql);
        for (int i = 0; i < where.params.size(); i++) q.bind(i, where.params.get(i));
        return q.mapTo(Long.class).one();
    }

    // ---------------------------------------------------------------- rows

    private RunSnapshot read(ResultSet rs) throws SQLException {
        String runId = readId(rs, 1);
        if (runId == null) throw new SnapshotFormatException("(null)", "a row of " + description + " has no run_id", null);
        try {
            String agentId = required(runId, "agent_id", readId(rs, 2));
            String statusText = required(runId, "status", rs.getString(3));
            RunStatus status;
            try {
                status = RunStatus.valueOf(statusText);
            } catch (IllegalArgumentException e) {
                throw new SnapshotFormatException(runId, "unknown status '" + statusText + "' in " + description, e);
            }
            String threadId = readId(rs, 4);
            String resourceId = readId(rs, 5);
            Instant createdAt = Instant.ofEpochMilli(requiredLong(runId, rs, 6, "created_at"));
            Instant suspendedAt = Instant.ofEpochMilli(requiredLong(runId, rs, 7, "suspended_at"));
            long version = requiredLong(runId, rs, 8, "version");
            String leaseOwner = rs.getString(9);
            long lease = rs.getLong(10);
            Instant leaseExpiresAt = rs.wasNull() ? null : Instant.ofEpochMilli(lease);
            String payload = required(runId, "payload", rs.getString(11));
            return new RunSnapshot(runId, agentId, status, threadId, resourceId, createdAt, suspendedAt, version,
                    leaseOwner, leaseExpiresAt, payload);
        } catch (IllegalArgumentException e) {   // RunSnapshot's own checks: version < 1, a lease on a SUSPENDED run, ...
            throw new SnapshotFormatException(runId, e.getMessage() + " in " + description, e);
        }
    }

    private String required(String runId, String column, @Nullable String value) {
        if (value == null) throw new SnapshotFormatException(runId, "column " + column + " is NULL in " + description, null);
        return value;
    }

    private long requiredLong(String runId, ResultSet rs, int index, String column) throws SQLException {
        long v = rs.getLong(index);
        if (rs.wasNull()) throw new SnapshotFormatException(runId, "column " + column + " is NULL in " + description, null);
        return v;
    }

    private @Nullable String readId(ResultSet rs, int index) throws SQLException {
        if (!dialect.idsAreBinary()) return rs.getString(index);
        byte[] b = rs.getBytes(index);
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    private Object id(String value) {
        return dialect.idsAreBinary() ? value.getBytes(StandardCharsets.UTF_8) : value;
    }

    private void bindId(SqlStatement<?> st, int index, @Nullable String value) {
        if (value == null) st.bindNull(index, dialect.idsAreBinary() ? Types.VARBINARY : Types.VARCHAR);
        else st.bind(index, id(value));
    }

    private static void bindText(SqlStatement<?> st, int index, @Nullable String value) {
        if (value == null) st.bindNull(index, Types.VARCHAR);
        else st.bind(index, value);
    }

    private static void bindMillis(SqlStatement<?> st, int index, @Nullable Instant value) {
        if (value == null) st.bindNull(index, Types.BIGINT);
        else st.bind(index, value.toEpochMilli());
    }

    private void checkFits(RunSnapshot s) {
        check("runId", s.runId());
        check("agentId", s.agentId());
        check("threadId", s.threadId());
        check("resourceId", s.resourceId());
        if (s.leaseOwner() != null && s.leaseOwner().length() > 255) {
            throw new IllegalArgumentException("leaseOwner of run '" + s.runId() + "' is longer than the 255 characters "
                    + description + " keeps");
        }
    }

    private void check(String field, @Nullable String value) {
        if (value != null && !dialect.fits(value)) {
            throw new IllegalArgumentException(field + " '" + value.substring(0, Math.min(40, value.length()))
                    + "...' is longer than the " + dialect.idLimit() + " " + description + " keeps");
        }
    }

    // ---------------------------------------------------------------- plumbing

    private <T> T call(String what, @Nullable String runId, Function<Handle, T> work) {
        if (closed) throw new StorageException(description + " is closed; " + what + " was not done");
        try {
            return jdbi.withHandle(h -> {
                // on the handle's own copy of the configuration: a user's Jdbi keeps its settings
                h.getConfig(SqlStatements.class).setQueryTimeout(queryTimeoutSeconds);
                return work.apply(h);
            });
        } catch (JdbiException e) {
            throw StorageException.failed(description, what, runId, Schema.rootMessage(e), e);
        }
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
        if (closed) return;
        closed = true;
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
