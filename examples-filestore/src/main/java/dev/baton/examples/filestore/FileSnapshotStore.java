package dev.baton.examples.filestore;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.StorageException;
import dev.baton.agent.RunStatus;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SnapshotStore} that keeps one JSON file per run in a directory: <strong>a worked
 * example for provider authors, not a production store</strong>. It shows the duties of the SPI
 * and how the TCK certifies them; a real store pushes filtering, ordering and paging into its
 * database, while this one scans the directory of the queried agent.
 *
 * <pre>
 * DIR/store.lock                          locked (FileChannel.lock) around every write and listing
 * DIR/ids/HEX(runId)                      the run's agent id: where find(runId) and delete(runId) look
 * DIR/agents/HEX(agentId)/HEX(runId).json the run: every RunSnapshot field, the payload verbatim
 * </pre>
 *
 * <ul>
 *   <li><b>Ids literally:</b> file names are the hex of the ids' UTF-8 bytes, so no character
 *       ({@code /}, {@code *}, {@code ..}, unicode) can escape the directory or collide. Ids longer
 *       than 125 UTF-8 bytes do not fit a file name and are refused.</li>
 *   <li><b>Atomic writes:</b> a file is written to a temporary file, forced to disk, and moved over
 *       the old one with {@code ATOMIC_MOVE}: a reader sees the old run or the new one, never half.</li>
 *   <li><b>Compare-and-set across processes:</b> insert, compare-and-set and delete read, check and
 *       write while holding an exclusive {@link FileLock} on {@code store.lock} (and a lock in this
 *       JVM, because a JVM may hold only one lock on a file). So it is {@link StoreCapability#SHARED}
 *       between processes <em>on one machine</em>, on a local file system; file locks on network
 *       file systems are not to be trusted.</li>
 *   <li><b>Listing:</b> reads the files of the queried agent only, then filters with
 *       {@link RunQuery#matches}, sorts by {@link RunQuery#ORDER} and pages in Java. Correct, and
 *       linear in the agent's runs: fine for an example, wrong for a real store.</li>
 *   <li><b>Failures:</b> every I/O error becomes a {@link StorageException} naming the store and the
 *       run; a directory that disappeared is an error, not an empty store.</li>
 * </ul>
 */
public final class FileSnapshotStore implements SnapshotStore {

    /** Longest id, in UTF-8 bytes, whose hex and {@code .json} fit a 255-byte file name. */
    static final int MAX_ID_BYTES = 125;
    private static final Map<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /** The file format: every field of a {@link RunSnapshot}, instants as epoch milliseconds. */
    record StoredRun(String runId, String agentId, String status, @Nullable String threadId, @Nullable String resourceId,
                     long createdAt, long suspendedAt, long version, @Nullable String leaseOwner,
                     @Nullable Long leaseExpiresAt, String payload) {

        static StoredRun of(RunSnapshot s) {
            return new StoredRun(s.runId(), s.agentId(), s.status().name(), s.threadId(), s.resourceId(),
                    s.createdAt().toEpochMilli(), s.suspendedAt().toEpochMilli(), s.version(), s.leaseOwner(),
                    s.leaseExpiresAt() == null ? null : s.leaseExpiresAt().toEpochMilli(), s.payload());
        }

        RunSnapshot snapshot() {
            return new RunSnapshot(runId, agentId, RunStatus.valueOf(status), threadId, resourceId,
                    Instant.ofEpochMilli(createdAt), Instant.ofEpochMilli(suspendedAt), version, leaseOwner,
                    leaseExpiresAt == null ? null : Instant.ofEpochMilli(leaseExpiresAt), payload);
        }
    }

    private final Path root;
    private final ReentrantLock jvmLock;
    private final String description;
    private volatile boolean closed;

    private FileSnapshotStore(Path root) {
        this.root = root;
        this.jvmLock = JVM_LOCKS.computeIfAbsent(root, p -> new ReentrantLock());
        this.description = "file store " + root;
    }

    /** Opens (creating it if needed) the store in {@code directory}. */
    public static FileSnapshotStore open(Path directory) {
        Path root = directory.toAbsolutePath().normalize();
        try {
            Files.createDirectories(root.resolve("ids"));
            Files.createDirectories(root.resolve("agents"));
            return new FileSnapshotStore(root.toRealPath());
        } catch (IOException e) {
            throw StorageException.failed("file store " + root, "open", null, e.toString(), e);
        }
    }

    // ---------------------------------------------------------------- SnapshotStore

    @Override
    public boolean insert(RunSnapshot s) {
        checkFits("runId", s.runId());
        checkFits("agentId", s.agentId());
        return locked("insert", s.runId(), () -> {
            if (current(s.runId()).isPresent()) return false;
            write(idFile(s.runId()), hex(s.agentId()).getBytes(StandardCharsets.US_ASCII));
            write(runFile(s.agentId(), s.runId()), JSON.writeValueAsBytes(StoredRun.of(s)));
            return true;
        });
    }

    @Override
    public Optional<RunSnapshot> find(String runId) {
        checkOpen("find");
        if (!fits(runId)) return Optional.empty();
        return io("find", runId, () -> current(runId));
    }

    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot replacement) {
        checkFits("runId", replacement.runId());
        return locked("compare-and-set", replacement.runId(), () -> {
            Optional<RunSnapshot> cur = current(replacement.runId());
            if (cur.isEmpty() || cur.get().version() != expectedVersion) return false;
            write(runFile(replacement.agentId(), replacement.runId()), JSON.writeValueAsBytes(StoredRun.of(replacement)));
            return true;
        });
    }

    @Override
    public boolean delete(String runId, long expectedVersion) {
        if (!fits(runId)) {
            checkOpen("delete");
            return false;
        }
        return locked("delete", runId, () -> {
            Optional<RunSnapshot> cur = current(runId);
            if (cur.isEmpty() || cur.get().version() != expectedVersion) return false;
            Files.delete(runFile(cur.get().agentId(), runId));
            Files.deleteIfExists(idFile(runId));
            return true;
        });
    }

    @Override
    public RunPage list(RunQuery query) {
        if (!fits(query.agentId()) || query.emptyDateRange()) {
            checkOpen("list");
            return new RunPage(List.of(), 0);
        }
        return locked("list", null, () -> {
            List<RunSnapshot> matches = new ArrayList<>();
            Path dir = root.resolve("agents").resolve(hex(query.agentId()));
            if (Files.isDirectory(dir)) {
                try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.json")) {
                    for (Path f : files) {
                        RunSnapshot s = read(f);
                        if (s != null && query.matches(s)) matches.add(s);
                    }
                }
            }
            matches.sort(RunQuery.ORDER);
            Integer limit = query.limit();
            if (limit == null) return new RunPage(matches, matches.size());
            int from = (int) Math.min(query.offset(), matches.size());
            int to = (int) Math.min(matches.size(), (long) from + limit);
            return new RunPage(List.copyOf(matches.subList(from, to)), matches.size());
        });
    }

    /** {@link StoreCapability#SHARED} (by processes of one machine) and {@link StoreCapability#DURABLE}. */
    @Override
    public Set<StoreCapability> capabilities() {
        return Set.of(StoreCapability.SHARED, StoreCapability.DURABLE);
    }

    @Override
    public String describe() {
        return description;
    }

    /** Idempotent; the store holds nothing open between calls, and refuses every call after this. */
    @Override
    public void close() {
        closed = true;
    }

    // ---------------------------------------------------------------- files

    private Optional<RunSnapshot> current(String runId) throws IOException {
        String agentHex;
        try {
            agentHex = Files.readString(idFile(runId), StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        // an id file without its run: a crash between the two writes of an insert or a delete
        return Optional.ofNullable(read(root.resolve("agents").resolve(agentHex).resolve(hex(runId) + ".json")));
    }

    /** The run in {@code file}, or null if it was deleted meanwhile. */
    private @Nullable RunSnapshot read(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        }
        try {
            return JSON.readValue(bytes, StoredRun.class).snapshot();
        } catch (IOException | RuntimeException e) {
            throw new IOException("unreadable run file " + file.getFileName() + ": " + e.getMessage(), e);
        }
    }

    /** Writes {@code bytes} to {@code target} atomically: a temporary file, forced to disk, then moved over it. */
    private static void write(Path target, byte[] bytes) throws IOException {
        Files.createDirectories(target.getParent());
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining()) ch.write(buf);
            ch.force(true);
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private Path idFile(String runId) {
        return root.resolve("ids").resolve(hex(runId));
    }

    private Path runFile(String agentId, String runId) {
        return root.resolve("agents").resolve(hex(agentId)).resolve(hex(runId) + ".json");
    }

    private static String hex(String id) {
        return HexFormat.of().formatHex(id.getBytes(StandardCharsets.UTF_8));
    }

    private static boolean fits(String id) {
        return id.getBytes(StandardCharsets.UTF_8).length <= MAX_ID_BYTES;
    }

    private void checkFits(String field, String id) {
        if (!fits(id)) {
            throw new IllegalArgumentException(field + " '" + id.substring(0, Math.min(40, id.length())) + "...' is longer than the "
                    + MAX_ID_BYTES + " UTF-8 bytes " + description + " keeps");
        }
    }

    // ---------------------------------------------------------------- plumbing

    private interface IoWork<T> {
        T run() throws IOException;
    }

    private void checkOpen(String operation) {
        if (closed) throw new StorageException(description + " is closed; " + operation + " was not done");
    }

    /** Runs {@code work}, turning I/O failures (and a directory that vanished) into a {@link StorageException}. */
    private <T> T io(String operation, @Nullable String runId, IoWork<T> work) {
        try {
            if (!Files.isDirectory(root.resolve("agents"))) throw new NoSuchFileException(root + " (the store's directory is gone)");
            return work.run();
        } catch (IOException | UncheckedIOException e) {
            throw StorageException.failed(description, operation, runId, e.toString(), e);
        }
    }

    /** Runs {@code work} holding this JVM's lock and the file lock: atomic against every thread and process. */
    private <T> T locked(String operation, @Nullable String runId, IoWork<T> work) {
        checkOpen(operation);
        jvmLock.lock();
        try {
            return io(operation, runId, () -> {
                try (FileChannel ch = FileChannel.open(root.resolve("store.lock"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE)) {
                    FileLock lock = ch.lock();
                    try {
                        return work.run();
                    } finally {
                        lock.release();
                    }
                }
            });
        } finally {
            jvmLock.unlock();
        }
    }
}
