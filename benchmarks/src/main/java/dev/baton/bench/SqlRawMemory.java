package dev.baton.bench;

import dev.baton.StorageException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Thread memory by hand on the store's own tables ({@code <table>_messages}, {@code <table>_threads}):
 * plain JDBC on one connection, autocommit, kept prepared statements, reading the columns the store
 * reads. Last messages: {@code SELECT ... WHERE thread_id = ? ORDER BY seq DESC LIMIT 20} on the
 * primary key. A resource's threads: the page {@code ORDER BY updated_at DESC, id DESC LIMIT 20} and
 * {@code SELECT COUNT(*)} on the {@code (resource_id, updated_at, id)} index.
 */
final class SqlRawMemory implements RawMemory {
    private static final String MESSAGE_COLUMNS = "thread_id, seq, run_id, run_index, role, content, created_at";
    private static final String THREAD_COLUMNS = "id, resource_id, title, metadata, created_at, updated_at";

    private final Connection c;
    private final String table;
    private final boolean binary;
    private final PreparedStatement last;
    private final PreparedStatement threads;
    private final PreparedStatement count;

    SqlRawMemory(Connection c, String table, boolean binary) throws SQLException {
        this.c = c;
        this.table = table;
        this.binary = binary;
        this.last = c.prepareStatement("SELECT " + MESSAGE_COLUMNS + " FROM " + table + "_messages WHERE thread_id = ?"
                + " ORDER BY seq DESC LIMIT " + MemoryFixture.PAGE);
        this.threads = c.prepareStatement("SELECT " + THREAD_COLUMNS + " FROM " + table + "_threads WHERE resource_id = ?"
                + " ORDER BY updated_at DESC, id DESC LIMIT " + MemoryFixture.PAGE);
        this.count = c.prepareStatement("SELECT COUNT(*) FROM " + table + "_threads WHERE resource_id = ?");
    }

    @Override
    public List<String> lastMessages(String threadId, String resourceId, int n) {
        if (n != MemoryFixture.PAGE) throw new IllegalArgumentException("prepared for " + MemoryFixture.PAGE);
        try {
            SqlBackend.bindId(last, 1, threadId, binary);
            List<String> out = new ArrayList<>(n);
            try (ResultSet rs = last.executeQuery()) {
                while (rs.next()) {
                    rs.getLong(2);
                    rs.getBytes(3);
                    rs.getInt(4);
                    rs.getString(5);
                    out.add(rs.getString(6));
                    rs.getLong(7);
                }
            }
            Collections.reverse(out);
            return out;
        } catch (SQLException e) {
            throw new StorageException("raw query on " + table + "_messages failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Threads threads(String resourceId, int limit) {
        if (limit != MemoryFixture.PAGE) throw new IllegalArgumentException("prepared for " + MemoryFixture.PAGE);
        try {
            SqlBackend.bindId(threads, 1, resourceId, binary);
            List<String> ids = new ArrayList<>(limit);
            try (ResultSet rs = threads.executeQuery()) {
                while (rs.next()) {
                    ids.add(binary ? new String(rs.getBytes(1), StandardCharsets.UTF_8) : rs.getString(1));
                    rs.getBytes(2);
                    rs.getString(3);
                    rs.getString(4);
                    rs.getLong(5);
                    rs.getLong(6);
                }
            }
            SqlBackend.bindId(count, 1, resourceId, binary);
            long total;
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                total = rs.getLong(1);
            }
            return new Threads(total, ids);
        } catch (SQLException e) {
            throw new StorageException("raw query on " + table + "_threads failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            c.close();
        } catch (SQLException ignored) {
            // closing at the end of a benchmark
        }
    }
}
