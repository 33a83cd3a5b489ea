package dev.baton.store.jdbc;

import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;

/**
 * The reads of many runs: {@link JdbcSnapshotStore#list}, {@link JdbcSnapshotStore#listDue} and the due notifications
 * (with their one write, {@link JdbcSnapshotStore#updateNotification}),
 * each as few statements as the dialect allows, on the listing indexes of migration V002. A page
 * and its total are one statement ({@link PageAndTotal}), outside any transaction: no
 * {@code BEGIN}/{@code COMMIT}, no isolation level set and reset around it. Only a page past the
 * end on MySQL/MariaDB, H2 or SQLite needs a second statement, for the total alone.
 */
final class JdbcRunListing {
    private static final String ORDER = " ORDER BY created_at DESC, run_id DESC";

    private final JdbcAccess db;
    private final String table;
    private final RunRows rows;
    private final DeciderLabels labels;
    /** {@link Schema#COLUMNS} with the payload, and with an empty payload (the summary is what a listing shows). */
    private final String withPayload;
    private final String withoutPayload;

    JdbcRunListing(JdbcAccess db, String table, RunRows rows, DeciderLabels labels) {
        this.db = db;
        this.labels = labels;
        this.table = table;
        this.rows = rows;
        this.withPayload = Schema.COLUMNS;
        // payload is the 11th column: keep the name, so the row reads the same either way. A
        // payload-free listing never names the payload column, so no database fetches it (InnoDB
        // would fetch a payload stored off-page for every column a statement names).
        this.withoutPayload = Schema.COLUMNS.replace(" payload,", " '' AS payload,");
    }

    /** A statement and its parameters, ids already in their bound form. */
    record Statement(String sql, List<Object> params) {
    }

    // ---------------------------------------------------------------- list

    RunPage list(RunQuery q) {
        Objects.requireNonNull(q, "query");
        if (q.emptyDateRange() || !db.fits(q.agentId()) || !db.fits(q.threadId()) || !db.fits(q.resourceId())
                || (q.deciders() != null && q.deciders().isEmpty())) {   // no decider: nothing matches
            return new RunPage(List.of(), 0);
        }
        Where where = where(q);
        Integer limit = q.limit();
        return db.call("list", null, h -> {
            if (limit != null && limit == 0) return new RunPage(List.of(), count(h, where));
            if (limit == null && q.after() == null) {   // every match: the total is the number of rows
                List<RunSnapshot> all = new ArrayList<>();
                Statement s = new Statement("SELECT " + columns(q) + " FROM " + table + where.sql + ORDER, where.params);
                query(h, s, all, false);
                return new RunPage(all, all.size());
            }
            List<RunSnapshot> items = new ArrayList<>();
            long total = query(h, pageAndTotal(q), items, true);
            if (items.isEmpty() && total < 0) {
                // MySQL/MariaDB, H2, SQLite: no row carried the total; 0 unless the page is past the end
                total = q.offset() == 0 && q.after() == null ? 0 : count(h, where);
            }
            long seen = q.offset() + items.size();
            return new RunPage(items, q.after() == null && !items.isEmpty() ? Math.max(total, seen) : Math.max(total, items.size()));
        });
    }

    /** The one statement that returns the page of {@code q} and, in its last column, the total. */
    Statement pageAndTotal(RunQuery q) {
        Where where = where(q);
        List<Object> pageParams = new ArrayList<>(where.params);
        String cursor = "";
        if (q.after() != null) {
            // an index range on created_at, and among the runs created at that very millisecond
            // only those whose id comes after (before, in binary order) the cursor's
            cursor = " AND created_at <= ? AND (created_at < ? OR run_id < ?)";
            long at = q.after().createdAt().toEpochMilli();
            pageParams.add(at);
            pageParams.add(at);
            pageParams.add(db.id(q.after().runId()));
        }
        List<Object> params = new ArrayList<>(where.countParams);   // the count's, first in the text
        params.addAll(pageParams);
        return new Statement(PageAndTotal.sql(db.dialect, columns(q), Schema.COLUMNS, table, where.sql, where.countFrom, cursor, ORDER,
                PageAndTotal.page(q.limit(), q.offset())), params);
    }

    /**
     * The statement {@link #list} sends for a page of {@code q}: the count alone for a limit of 0,
     * else the page and its total; for tests that look at plans.
     */
    Statement listStatement(RunQuery q) {
        return q.limit() != null && q.limit() == 0 ? countOnly(q) : pageAndTotal(q);
    }

    /** The count of {@code q} alone. */
    Statement countOnly(RunQuery q) {
        Where where = where(q);
        return new Statement("SELECT COUNT(*) FROM " + where.countFrom, where.countParams);
    }

    private long count(Handle h, Where where) {
        var query = h.createQuery("SELECT COUNT(*) FROM " + where.countFrom);
        JdbcAccess.bindAll(query, where.countParams);
        return query.mapTo(Long.class).one();
    }

    /**
     * Runs {@code s}, adding its runs to {@code into}; returns the total from the last column if
     * {@code withTotal} and a row carried one, else -1.
     */
    private long query(Handle h, Statement s, List<RunSnapshot> into, boolean withTotal) {
        var query = h.createQuery(s.sql);
        JdbcAccess.bindAll(query, s.params);
        long[] total = {-1};
        query.scanResultSet((supplier, ctx) -> {
            try (var rs = supplier.get()) {
                while (rs.next()) {
                    if (withTotal && total[0] < 0) total[0] = rs.getLong(RunRows.WIDTH + 1);
                    if (rows.present(rs)) into.add(rows.read(rs));
                }
            }
            return null;
        });
        return total[0];
    }

    private String columns(RunQuery q) {
        return q.withPayload() ? withPayload : withoutPayload;
    }

    // ---------------------------------------------------------------- due runs

    List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        if (limit == 0 || !db.fits(agentId)) return List.of();
        Statement s = due(agentId, now, limit);
        return db.call("listing due runs", null, h -> {
            List<RunSnapshot> out = new ArrayList<>(Math.min(limit, 64));
            query(h, s, out, false);
            return out;
        });
    }

    /** Runs whose deadline has passed and that are suspended at {@code now}: an index range on (agent_id, expires_at, run_id). */
    Statement due(String agentId, Instant now, int limit) {
        long at = now.toEpochMilli();
        return new Statement("SELECT " + withoutPayload + " FROM " + table + " WHERE agent_id = ? AND expires_at <= ? AND "
                + db.dialect.suspendedAt() + " ORDER BY expires_at, run_id LIMIT " + limit,
                List.of(db.id(agentId), at, at));
    }

    // ---------------------------------------------------------------- notifications

    List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(now, "now");
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        if (!db.fits(agentId)) return List.of();
        Statement s = notificationsDue(agentId, now, limit);
        return db.call("listing due notifications", null, h -> {
            List<RunSnapshot> out = new ArrayList<>(Math.min(limit, 64));
            query(h, s, out, false);
            return out;
        });
    }

    /** Runs with a notification due at {@code now}: an index range on (agent_id, notify_at, run_id). */
    Statement notificationsDue(String agentId, Instant now, int limit) {
        return new Statement("SELECT " + withoutPayload + " FROM " + table + " WHERE agent_id = ? AND notify_at <= ?"
                + " ORDER BY notify_at, run_id LIMIT " + limit, List.of(db.id(agentId), now.toEpochMilli()));
    }

    /** A write, but of the notification columns alone, on the primary key: the version stays. */
    boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt, @Nullable Instant notifyAt,
            @Nullable String notifyState) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(expectedNotifyAt, "expectedNotifyAt");
        if (!db.fits(runId)) return false;   // too long to have been stored
        // plain JDBC, as the other writes of one run (JdbcAccess#withConnection): a Jdbi handle cost twice the statement
        return db.withConnection("notification update", runId, c -> {
            try (var p = db.prepare(c, "UPDATE " + table + " SET notify_at = ?, notify_state = ?"
                    + " WHERE run_id = ? AND version = ? AND notify_at = ?")) {
                JdbcAccess.setMillis(p, 1, notifyAt);
                JdbcAccess.setText(p, 2, notifyState);
                db.setId(p, 3, runId);
                p.setLong(4, expectedVersion);
                p.setLong(5, expectedNotifyAt.toEpochMilli());
                return p.executeUpdate() == 1;
            }
        });
    }

    // ---------------------------------------------------------------- WHERE

    /**
     * The filter ({@code sql}, starting with {@code " WHERE "}) and what the count counts: {@code countFrom}, the text
     * after {@code SELECT COUNT(*) FROM}, is the table and the same filter, but for a deciders filter on MySQL/MariaDB
     * ({@link DeciderLabels#countFrom}), which spells the same condition so that the label index drives.
     */
    private record Where(String sql, List<Object> params, String countFrom, List<Object> countParams) {
    }

    /** Every condition of {@code q} but the page and the cursor, on the columns the listing indexes lead with. */
    private Where where(RunQuery q) {
        boolean deciders = q.deciders() != null && !q.deciders().isEmpty();
        StringBuilder sql = new StringBuilder(" WHERE agent_id = ?");
        List<Object> params = new ArrayList<>();
        params.add(db.id(q.agentId()));
        if (q.threadId() != null) {
            sql.append(" AND thread_id = ?");
            params.add(db.id(q.threadId()));
        }
        if (q.resourceId() != null) {
            sql.append(" AND resource_id = ?");
            params.add(db.id(q.resourceId()));
        }
        if (q.createdFrom() != null) {
            sql.append(" AND created_at >= ?");
            params.add(q.createdFrom().toEpochMilli());
        }
        if (q.createdTo() != null) {
            sql.append(" AND created_at <= ?");
            params.add(q.createdTo().toEpochMilli());
        }
        // The effective status is a residual filter on the rows the listing index yields, answered
        // from the index itself (INCLUDE columns, trailing key columns, MySQL's lease_state).
        // With deciders, the filter asks for stored status SUSPENDED (DeciderLabels), and a SUSPENDED snapshot holds no
        // lease (RunSnapshot): the effective status is then SUSPENDED at any time, and the test is left out, so that
        // the waiting-for-me indexes of V009 answer the total without the columns of the lease.
        if (q.status() == RunStatus.SUSPENDED && !deciders) {
            sql.append(" AND ").append(db.dialect.suspendedAt());
            params.add(q.now().toEpochMilli());
        } else if (q.status() == RunStatus.RESUMING) {
            sql.append(" AND ").append(db.dialect.resumingAt());
            params.add(q.now().toEpochMilli());
        }
        if (!deciders) return new Where(sql.toString(), params, table + sql, params);
        String base = sql.toString();
        List<Object> baseParams = List.copyOf(params);
        labels.appendFilter(q.agentId(), q.deciders(), sql, params);
        if (db.dialect != JdbcDialect.MYSQL) return new Where(sql.toString(), params, table + sql, params);
        List<Object> countParams = new ArrayList<>();
        String countFrom = labels.countFrom(q.agentId(), q.deciders(), base, baseParams, countParams);
        return new Where(sql.toString(), params, countFrom, countParams);
    }
}
