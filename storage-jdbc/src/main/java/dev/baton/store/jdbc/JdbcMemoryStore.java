package dev.baton.store.jdbc;

import dev.baton.StorageException;
import dev.baton.model.Role;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.StoredMessage;
import dev.baton.store.StoredMessagePage;
import dev.baton.store.ThreadPage;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;

/**
 * The thread memory of a {@link JdbcSnapshotStore}: {@code <table>_threads} and
 * {@code <table>_messages} (migration V003), on the store's own Jdbi and pool, reached through
 * {@link JdbcSnapshotStore#memory()}.
 *
 * <ul>
 *   <li>An append is one transaction on the thread's row (on PostgreSQL one statement, a
 *       {@code WITH ... UPDATE ... RETURNING} feeding the {@code INSERT}): it bumps the thread's counter
 *       {@code next_seq} by the number of messages (which locks the row, so appends to one thread
 *       take turns and interleave whole; PostgreSQL and SQLite {@code UPDATE ... RETURNING}, H2
 *       {@code FINAL TABLE}, MySQL/MariaDB {@code SELECT ... FOR UPDATE} and {@code UPDATE}),
 *       then inserts the messages with the seqs it reserved, skipping any whose
 *       {@code (thread_id, run_id, run_index)} exists (the unique key: {@code ON CONFLICT DO
 *       NOTHING}, {@code ON DUPLICATE KEY UPDATE} of nothing, H2 {@code NOT EXISTS}) as one batch.
 *       O(1) in the length of the thread: no {@code MAX(seq)}.</li>
 *   <li>The last messages and a page of messages are index ranges on the primary key
 *       {@code (thread_id, seq)}; a resource's threads an index range on
 *       {@code (resource_id, updated_at, id)}; a page and its total are one statement
 *       ({@link PageAndTotal}).</li>
 *   <li>Deleting a thread deletes its row first (so an append waiting for it finds no thread) and
 *       then its messages, in one transaction.</li>
 * </ul>
 */
final class JdbcMemoryStore implements MemoryStore {
    /** Messages PostgreSQL appends in one statement (4 parameters each, of at most 65,535); a bigger batch is a transaction. */
    private static final int MAX_ONE_STATEMENT = 1_000;

    private final JdbcAccess db;
    private final String threads;
    private final String messages;

    JdbcMemoryStore(JdbcAccess db, String table) {
        this.db = db;
        this.threads = Schema.threadsTable(table);
        this.messages = Schema.messagesTable(table);
    }

    // ---------------------------------------------------------------- threads

    @Override
    public boolean createThread(MemoryThread t) {
        Objects.requireNonNull(t, "thread");
        db.checkThreadKeyFits(t.id());
        db.checkFits("resourceId", t.resourceId(), "of thread '" + t.id() + "' ");
        return db.call("creating", "thread", t.id(), h -> {
            var u = h.createUpdate("INSERT INTO " + threads + " (" + Schema.THREAD_COLUMNS + ", next_seq) VALUES (?, ?, ?, ?, ?, ?, 0)");
            db.bindId(u, 0, t.id());
            db.bindId(u, 1, t.resourceId());
            JdbcAccess.bindText(u, 2, t.title());
            u.bind(3, t.metadataJson());
            u.bind(4, t.createdAt().toEpochMilli());
            u.bind(5, t.updatedAt().toEpochMilli());
            try {
                return u.execute() == 1;
            } catch (UnableToExecuteStatementException e) {
                if (e.getCause() instanceof SQLException se && db.dialect.isDuplicateKey(se)) return false;
                throw e;
            }
        });
    }

    @Override
    public Optional<MemoryThread> findThread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        if (!db.fitsThreadKey(threadId)) return Optional.empty();   // too long to have been stored
        return db.call("reading", "thread", threadId, h -> {
            var q = h.createQuery("SELECT " + Schema.THREAD_COLUMNS + " FROM " + threads + " WHERE id = ?");
            db.bindId(q, 0, threadId);
            return q.map(threadRow()).findOne();
        });
    }

    @Override
    public boolean updateThread(MemoryThread t) {
        Objects.requireNonNull(t, "thread");
        if (!db.fitsThreadKey(t.id())) return false;
        return db.call("updating", "thread", t.id(), h -> {
            var u = h.createUpdate("UPDATE " + threads + " SET title = ?, metadata = ?, updated_at = ? WHERE id = ?");
            JdbcAccess.bindText(u, 0, t.title());
            u.bind(1, t.metadataJson());
            u.bind(2, t.updatedAt().toEpochMilli());
            db.bindId(u, 3, t.id());
            return u.execute() == 1;
        });
    }

    @Override
    public ThreadPage listThreads(String resourceId, long offset, int limit) {
        Objects.requireNonNull(resourceId, "resourceId");
        checkPage(offset, limit);
        if (!db.fits(resourceId)) return new ThreadPage(List.of(), 0);
        List<MemoryThread> page = new ArrayList<>();
        long total = db.call("listing the threads of resource '" + resourceId + "'", null, h ->
                pageAndTotal(h, threads, THREADS_OF, List.of(db.id(resourceId)), threadsPage(offset, limit), offset, limit,
                        threadRow(), page));
        return new ThreadPage(page, total);
    }

    @Override
    public boolean deleteThread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        if (!db.fitsThreadKey(threadId)) return false;
        return db.call("deleting", "thread", threadId, h -> h.inTransaction(t -> {
            var thread = t.createUpdate("DELETE FROM " + threads + " WHERE id = ?");
            db.bindId(thread, 0, threadId);
            boolean existed = thread.execute() == 1;
            var all = t.createUpdate("DELETE FROM " + messages + " WHERE thread_id = ?");
            db.bindId(all, 0, threadId);
            all.execute();
            return existed;
        }));
    }

    // ---------------------------------------------------------------- messages

    @Override
    public boolean append(String threadId, List<StoredMessage.New> batch, Instant at) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(batch, "messages");
        Objects.requireNonNull(at, "at");
        for (StoredMessage.New m : batch) {
            db.checkFits("runId", m.runId(), "of a message ");
        }
        if (!db.fitsThreadKey(threadId)) return false;
        long millis = at.toEpochMilli();
        if (db.dialect == JdbcDialect.POSTGRESQL && !batch.isEmpty() && batch.size() <= MAX_ONE_STATEMENT) {
            return db.call("appending to", "thread", threadId, h -> appendInOneStatement(h, threadId, batch, millis));
        }
        return db.call("appending to", "thread", threadId, h -> h.inTransaction(t -> {
            Optional<Long> last = reserve(t, threadId, batch.size(), millis);
            if (last.isEmpty()) return false;
            if (batch.isEmpty()) return true;
            long seq = last.get() - batch.size();
            var insert = t.prepareBatch(insertIfNew());
            for (StoredMessage.New m : batch) {
                seq++;
                List<Object> row = List.of(db.id(threadId), seq, db.id(m.runId()), m.runIndex(), m.role().wireName(), m.content(), millis);
                int i = 0;
                for (Object v : row) insert.bind(i++, v);
                if (db.dialect == JdbcDialect.H2) {   // NOT EXISTS (thread_id, run_id, run_index)
                    insert.bind(i++, db.id(threadId));
                    insert.bind(i++, db.id(m.runId()));
                    insert.bind(i, m.runIndex());
                }
                insert.add();
            }
            insert.execute();
            return true;
        }));
    }

    /**
     * PostgreSQL: the whole append as one statement, so one round trip and no transaction to begin
     * and commit. The {@code UPDATE} of the thread's counter locks its row until the statement
     * ends (appends to one thread take turns), the {@code INSERT} takes the seqs it reserved and
     * skips a message the thread has, and nothing is inserted when the thread does not exist.
     */
    private boolean appendInOneStatement(Handle h, String threadId, List<StoredMessage.New> batch, long at) {
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < batch.size(); i++) {
            values.append(i == 0 ? "" : ", ").append("(").append(i + 1)
                    .append(", CAST(? AS VARCHAR), CAST(? AS INTEGER), CAST(? AS VARCHAR), CAST(? AS TEXT))");
        }
        var q = h.createQuery("WITH t AS (UPDATE " + threads + " SET next_seq = next_seq + ?, updated_at = ? WHERE id = ?"
                + " RETURNING next_seq), i AS (INSERT INTO " + messages + " (" + Schema.MESSAGE_COLUMNS + ")"
                + " SELECT ?, t.next_seq - ? + v.n, v.run_id, v.run_index, v.role, v.content, ? FROM t, (VALUES " + values
                + ") AS v (n, run_id, run_index, role, content) ON CONFLICT (thread_id, run_id, run_index) DO NOTHING)"
                + " SELECT next_seq FROM t");
        int k = 0;
        q.bind(k++, (long) batch.size());
        q.bind(k++, at);
        q.bind(k++, threadId);
        q.bind(k++, threadId);
        q.bind(k++, (long) batch.size());
        q.bind(k++, at);
        for (StoredMessage.New m : batch) {
            q.bind(k++, m.runId());
            q.bind(k++, m.runIndex());
            q.bind(k++, m.role().wireName());
            q.bind(k++, m.content());
        }
        return q.mapTo(Long.class).findOne().isPresent();
    }

    /**
     * Locks the thread's row and moves its counter on by {@code n}, setting its update time;
     * returns the counter's new value (the seq of the last message of the batch), or empty if
     * there is no such thread.
     */
    private Optional<Long> reserve(Handle t, String threadId, int n, long at) {
        String bump = "UPDATE " + threads + " SET next_seq = next_seq + ?, updated_at = ? WHERE id = ?";
        switch (db.dialect) {
            case POSTGRESQL, SQLITE -> {
                var q = t.createQuery(bump + " RETURNING next_seq");
                q.bind(0, n);
                q.bind(1, at);
                db.bindId(q, 2, threadId);
                return q.mapTo(Long.class).findOne();
            }
            case H2 -> {
                var q = t.createQuery("SELECT next_seq FROM FINAL TABLE (" + bump + ")");
                q.bind(0, n);
                q.bind(1, at);
                db.bindId(q, 2, threadId);
                return q.mapTo(Long.class).findOne();
            }
            default -> {   // MySQL/MariaDB: no UPDATE ... RETURNING
                var lock = t.createQuery("SELECT next_seq FROM " + threads + " WHERE id = ? FOR UPDATE");
                db.bindId(lock, 0, threadId);
                Optional<Long> current = lock.mapTo(Long.class).findOne();
                if (current.isEmpty()) return current;
                var u = t.createUpdate("UPDATE " + threads + " SET next_seq = ?, updated_at = ? WHERE id = ?");
                u.bind(0, current.get() + n);
                u.bind(1, at);
                db.bindId(u, 2, threadId);
                u.execute();
                return Optional.of(current.get() + n);
            }
        }
    }

    /** One message, unless the thread has its {@code (run_id, run_index)} already; the row's lock keeps this race-free. */
    private String insertIfNew() {
        String insert = "INSERT INTO " + messages + " (" + Schema.MESSAGE_COLUMNS + ")";
        return switch (db.dialect) {
            case POSTGRESQL, SQLITE -> insert + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (thread_id, run_id, run_index) DO NOTHING";
            case MYSQL -> insert + " VALUES (?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE run_index = run_index";
            case H2 -> insert + " SELECT ?, ?, ?, ?, ?, ?, ? FROM DUAL WHERE NOT EXISTS (SELECT 1 FROM " + messages
                    + " WHERE thread_id = ? AND run_id = ? AND run_index = ?)";
        };
    }

    @Override
    public List<StoredMessage> lastMessages(String threadId, int n) {
        Objects.requireNonNull(threadId, "threadId");
        if (n < 0) throw new IllegalArgumentException("n must be >= 0, was " + n);
        if (n == 0 || !db.fitsThreadKey(threadId)) return List.of();
        return db.call("reading the last messages of", "thread", threadId, h -> {
            var q = h.createQuery(lastMessages(n));
            db.bindId(q, 0, threadId);
            List<StoredMessage> newestFirst = new ArrayList<>(q.map(messageRow()).list());
            Collections.reverse(newestFirst);
            return newestFirst;
        });
    }

    @Override
    public StoredMessagePage listMessages(String threadId, long offset, int limit) {
        Objects.requireNonNull(threadId, "threadId");
        checkPage(offset, limit);
        if (!db.fitsThreadKey(threadId)) return new StoredMessagePage(List.of(), 0);
        List<StoredMessage> page = new ArrayList<>();
        long total = db.call("listing the messages of", "thread", threadId, h ->
                pageAndTotal(h, messages, MESSAGES_OF, List.of(db.id(threadId)), messagesPage(offset, limit), offset, limit,
                        messageRow(), page));
        return new StoredMessagePage(page, total);
    }

    // ---------------------------------------------------------------- statements (package-private for plan tests)

    private static final String THREADS_OF = " WHERE resource_id = ?";
    private static final String MESSAGES_OF = " WHERE thread_id = ?";

    /** The last {@code n} messages of a thread, newest first: an index range on (thread_id, seq), backwards. */
    String lastMessages(int n) {
        return "SELECT " + Schema.MESSAGE_COLUMNS + " FROM " + messages + MESSAGES_OF + " ORDER BY seq DESC LIMIT " + n;
    }

    /** A page of a resource's threads and their total ({@link PageAndTotal}); parameters: the resource id, twice. */
    String threadsPage(long offset, int limit) {
        return PageAndTotal.sql(db.dialect, Schema.THREAD_COLUMNS, Schema.THREAD_COLUMNS, threads, THREADS_OF, "",
                " ORDER BY updated_at DESC, id DESC", PageAndTotal.page(limit, offset));
    }

    /** A page of a thread's messages and their total ({@link PageAndTotal}); parameters: the thread id, twice. */
    String messagesPage(long offset, int limit) {
        return PageAndTotal.sql(db.dialect, Schema.MESSAGE_COLUMNS, Schema.MESSAGE_COLUMNS, messages, MESSAGES_OF, "",
                " ORDER BY seq", PageAndTotal.page(limit, offset));
    }

    // ---------------------------------------------------------------- plumbing

    private static void checkPage(long offset, int limit) {
        if (offset < 0) throw new IllegalArgumentException("offset must be >= 0, was " + offset);
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
    }

    /**
     * A page into {@code into} and the total: {@code pageSql}, one statement whose parameters are
     * {@code params} twice and whose last column is the total, unless the page is empty (then,
     * past the end, the count alone: {@code SELECT COUNT(*) FROM table where}).
     */
    private <T> long pageAndTotal(Handle h, String table, String where, List<Object> params, String pageSql, long offset,
                                  int limit, RowMapper<T> mapper, List<T> into) {
        if (limit > 0) {
            var q = h.createQuery(pageSql);
            List<Object> twice = new ArrayList<>(params);
            twice.addAll(params);
            JdbcAccess.bindAll(q, twice);
            long total = q.scanResultSet((supplier, ctx) -> {
                long n = -1;
                try (ResultSet rs = supplier.get()) {
                    int width = rs.getMetaData().getColumnCount() - 1;
                    while (rs.next()) {
                        if (n < 0) n = rs.getLong(width + 1);
                        if (rs.getObject(1) != null) into.add(mapper.map(rs, ctx));
                    }
                }
                return n;
            });
            if (total >= 0) return Math.max(total, offset + into.size());
            if (offset == 0) return 0;   // nothing matches at all
        }
        var count = h.createQuery("SELECT COUNT(*) FROM " + table + where);
        JdbcAccess.bindAll(count, params);
        return count.mapTo(Long.class).one();
    }

    private RowMapper<MemoryThread> threadRow() {
        return (rs, ctx) -> {
            String id = Objects.requireNonNull(db.readId(rs, 1), "id");
            String metadata = rs.getString(4);
            if (metadata == null) {
                throw new StorageException(db.description + ": thread '" + id + "' has no stored metadata");
            }
            try {
                return MemoryThread.builder().id(id).resourceId(db.readId(rs, 2)).title(rs.getString(3))
                        .metadataJson(metadata)
                        .createdAt(Instant.ofEpochMilli(rs.getLong(5))).updatedAt(Instant.ofEpochMilli(rs.getLong(6)))
                        .build();
            } catch (IllegalArgumentException e) {
                throw new StorageException(db.description + ": the stored " + e.getMessage(), e);
            }
        };
    }

    private RowMapper<StoredMessage> messageRow() {
        return (rs, ctx) -> {
            String threadId = Objects.requireNonNull(db.readId(rs, 1), "thread_id");
            long seq = rs.getLong(2);
            String role = rs.getString(5);
            Role r;
            try {
                r = Role.fromWireName(role);
            } catch (IllegalArgumentException e) {
                throw new StorageException(db.description + ": message " + seq + " of thread '" + threadId
                        + "' has no known role: " + e.getMessage(), e);
            }
            return StoredMessage.builder().threadId(threadId).seq(seq)
                    .runId(Objects.requireNonNull(db.readId(rs, 3), "run_id")).runIndex(rs.getInt(4))
                    .role(r).content(rs.getString(6)).createdAt(Instant.ofEpochMilli(rs.getLong(7))).build();
        };
    }

    @Override
    public String toString() {
        return "JdbcMemoryStore[" + db.description + "]";
    }
}
