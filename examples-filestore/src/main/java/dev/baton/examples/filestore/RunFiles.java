package dev.baton.examples.filestore;

import static dev.baton.examples.filestore.StoreDirectory.JSON;
import static dev.baton.examples.filestore.StoreDirectory.hex;

import dev.baton.store.RunSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The files of the runs of a {@link FileSnapshotStore} (see its layout): where a run's id, row and payload
 * files are, and how they are read and written. Every method is called under the store's lock.
 */
final class RunFiles {
    private final StoreDirectory dir;

    RunFiles(StoreDirectory dir) {
        this.dir = dir;
    }

    /** The run's row, or null if there is none. */
    @Nullable Row row(String runId) throws IOException {
        byte[] agentHex = StoreDirectory.readIfExists(idFile(runId));
        if (agentHex == null) return null;
        // an id file without its row: a crash between the writes of an insert or a delete, i.e. no run
        return StoreDirectory.readJson(dir.resolve("agents", new String(agentHex, StandardCharsets.US_ASCII), hex(runId) + ".json"),
                Row.class);
    }

    /** The rows of the agent's runs. */
    List<Row> rows(String agentId) throws IOException {
        List<Row> rows = new ArrayList<>();
        Path agentDir = dir.resolve("agents", hex(agentId));
        if (!Files.isDirectory(agentDir)) return rows;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(agentDir, "*.json")) {
            for (Path f : files) {
                Row row = StoreDirectory.readJson(f, Row.class);
                if (row != null) rows.add(row);
            }
        }
        return rows;
    }

    String payload(Row row) throws IOException {
        byte[] bytes = StoreDirectory.readIfExists(payloadFile(row));
        if (bytes == null) throw new IOException("the payload file of version " + row.payloadVersion() + " is missing");
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Writes the run: first its payload, in a file of its own version, then its row (the commit point). */
    void writeRun(RunSnapshot s) throws IOException {
        Row row = Row.of(s);
        StoreDirectory.write(payloadFile(row), s.payload().getBytes(StandardCharsets.UTF_8));
        StoreDirectory.write(rowFile(s.agentId(), s.runId()), JSON.writeValueAsBytes(row));
    }

    Path idFile(String runId) {
        return dir.resolve("ids", hex(runId));
    }

    Path rowFile(String agentId, String runId) {
        return dir.resolve("agents", hex(agentId), hex(runId) + ".json");
    }

    Path payloadFile(Row row) {
        return dir.resolve("agents", hex(row.agentId()), hex(row.runId()) + ".v" + row.payloadVersion() + ".payload");
    }

    /** The agent's rows with a notification due at {@code now}, oldest first, as snapshots without payloads. */
    List<RunSnapshot> notificationsDue(String agentId, Instant now, int limit) throws IOException {
        return rows(agentId).stream().filter(r -> r.notifyAt() != null && r.notifyAt() <= now.toEpochMilli())
                .sorted(Comparator.comparing((Row r) -> r.notifyAt()).thenComparing(Row::runId))
                .limit(limit).map(r -> r.snapshot("")).toList();
    }

    /** Rewrites the row only (same version, same payload file) if it is at that version with that notifyAt. */
    boolean moveNotification(String runId, long expectedVersion, Instant expectedNotifyAt, @Nullable Instant notifyAt,
            @Nullable String notifyState) throws IOException {
        Row cur = row(runId);
        if (cur == null || cur.version() != expectedVersion || cur.notifyAt() == null
                || cur.notifyAt() != expectedNotifyAt.toEpochMilli()) {
            return false;
        }
        StoreDirectory.write(rowFile(cur.agentId(), runId), JSON.writeValueAsBytes(cur.notifying(notifyAt, notifyState)));
        return true;
    }
}
