package dev.baton.examples.filestore;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.StorageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The directory of one store handle, and the few things every call of {@link FileSnapshotStore}
 * and {@link FileMemoryStore} does with it: hold the store's lock, write a file atomically, name a
 * file after an id, and turn I/O failures into {@link StorageException}s.
 *
 * <ul>
 *   <li><b>One lock for everything.</b> Every call, read or write, holds an exclusive
 *       {@link FileLock} on {@code DIR/store.lock} (and a lock in this JVM, since a JVM may hold only
 *       one lock on a file). So each call sees and leaves the files consistent, against every thread
 *       and every process of this machine. Simple to check, slow under load: a database does better
 *       with rows and transactions.</li>
 *   <li><b>No call hangs.</b> The lock is waited for at most {@code lockTimeout}; then the call fails
 *       with a {@link StorageException} (a process that hangs while holding the lock cannot hang the
 *       others).</li>
 *   <li><b>Interrupts.</b> A {@link FileChannel} closes itself when its thread is interrupted, which
 *       would fail the write Baton makes to save a run that was interrupted. So a call clears the
 *       thread's interrupt flag for its I/O and sets it again before it returns.</li>
 *   <li><b>Atomic files.</b> A file is written to a temporary file, forced to disk, and moved over
 *       the old one with {@code ATOMIC_MOVE}: a reader sees the old file or the new one, never half.</li>
 *   <li><b>Ids literally.</b> File names are the hex of the ids' UTF-8 bytes, so no character
 *       ({@code /}, {@code *}, {@code ..}, unicode) can escape the directory or collide. Ids longer than
 *       {@link #MAX_ID_BYTES} do not fit a file name.</li>
 * </ul>
 */
final class StoreDirectory {

    /** Longest id, in UTF-8 bytes, whose hex fits a 255-byte file name with the longest suffix used. */
    static final int MAX_ID_BYTES = 110;
    /** Reads and writes the store's JSON files. */
    static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final Map<Path, ReentrantLock> JVM_LOCKS = new ConcurrentHashMap<>();

    /** Work on the files, done while holding the lock. */
    interface IoWork<T> {
        /** Does the work; may throw {@link IOException}, which becomes a {@link StorageException}. */
        T run() throws IOException;
    }

    private final Path root;
    private final String description;
    private final Duration lockTimeout;
    private final ReentrantLock jvmLock;
    private volatile boolean closed;
    private volatile @Nullable IoWork<?> beforeWork;

    StoreDirectory(Path root, Duration lockTimeout) {
        this.root = root;
        this.description = "file store " + root;
        this.lockTimeout = lockTimeout;
        this.jvmLock = JVM_LOCKS.computeIfAbsent(root, p -> new ReentrantLock());
    }

    /** {@code DIR/first/more...}. */
    Path resolve(String first, String... more) {
        return root.resolve(Path.of(first, more));
    }

    /** What {@code describe()} says, and every error message starts with. */
    String description() {
        return description;
    }

    void close() {
        closed = true;
    }

    /**
     * Work every locked call does first, before its own: settling what a process that died while holding the
     * lock left half done (the journal of {@link FileDecisions}).
     */
    void beforeWork(IoWork<?> work) {
        this.beforeWork = work;
    }

    /** Refuses the call if this handle was closed. */
    void checkOpen(String operation) {
        if (closed) throw new StorageException(description + " is closed; " + operation + " was not done");
    }

    /**
     * Runs {@code work} holding this JVM's lock and the file lock: atomic against every thread and
     * process of this machine. I/O failures, a directory that vanished and a lock that stays taken
     * for longer than {@code lockTimeout} become a {@link StorageException} naming the store and the
     * id.
     */
    <T> T locked(String operation, @Nullable String runId, IoWork<T> work) {
        checkOpen(operation);
        boolean interrupted = Thread.interrupted();
        try {
            long deadline = System.nanoTime() + lockTimeout.toNanos();
            if (!jvmLock.tryLock(lockTimeout.toNanos(), TimeUnit.NANOSECONDS)) throw lockTimedOut();
            try (FileChannel ch = FileChannel.open(root.resolve("store.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                FileLock lock = fileLock(ch, deadline);
                try {
                    if (!Files.isDirectory(root.resolve("agents"))) {
                        throw new NoSuchFileException(root + " (the store's directory is gone)");
                    }
                    IoWork<?> first = beforeWork;
                    if (first != null) first.run();
                    return work.run();
                } finally {
                    lock.release();
                }
            } finally {
                jvmLock.unlock();
            }
        } catch (IOException | UncheckedIOException | TimeoutException e) {
            throw StorageException.failed(description, operation, runId, e.getMessage() == null ? e.toString() : e.getMessage(), e);
        } catch (InterruptedException e) {
            interrupted = true;
            throw StorageException.failed(description, operation, runId, "interrupted while waiting for the store's lock", e);
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    /** Waits for the file lock until {@code deadline}, polling: a lock held by another process sends no signal. */
    private FileLock fileLock(FileChannel ch, long deadline) throws IOException, InterruptedException, TimeoutException {
        while (true) {
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;   // held in this JVM by something other than this class: wait as for another process
            }
            if (lock != null) return lock;
            if (System.nanoTime() - deadline >= 0) throw lockTimedOut();
            Thread.sleep(2);
        }
    }

    private TimeoutException lockTimedOut() {
        return new TimeoutException("timed out after " + lockTimeout.toMillis() + " ms waiting for the store's lock ("
                + root.resolve("store.lock") + "): another process holds it");
    }

    /** Writes {@code bytes} to {@code target} atomically: a temporary file, forced to disk, then moved over it. */
    static void write(Path target, byte[] bytes) throws IOException {
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

    /** The file's bytes, or null if there is no such file. */
    static byte @Nullable [] readIfExists(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** The file's JSON as {@code type}, or null if there is no such file. */
    static <T> @Nullable T readJson(Path file, Class<T> type) throws IOException {
        byte[] bytes = readIfExists(file);
        if (bytes == null) return null;
        try {
            return JSON.readValue(bytes, type);
        } catch (IOException | RuntimeException e) {
            throw new IOException("unreadable file " + file.getFileName() + ": " + e.getMessage(), e);
        }
    }

    /** The hex of the id's UTF-8 bytes: a file name that means the id and nothing else. */
    static String hex(String id) {
        return HexFormat.of().formatHex(id.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A file name for a key of any length: the hex of its UTF-8 bytes if that fits a file name, else
     * {@code h} and the hex of its SHA-256 (a hex name never starts with {@code h}, so the two kinds
     * never meet). Used where the file holds the key itself, which a reader compares.
     */
    static String fileName(String key) {
        if (fits(key)) return hex(key);
        try {
            return "h" + HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** True if {@code id} fits a file name. */
    static boolean fits(String id) {
        return id.getBytes(StandardCharsets.UTF_8).length <= MAX_ID_BYTES;
    }

    /** Refuses an id that does not fit a file name. */
    void checkFits(String field, String id) {
        if (!fits(id)) {
            throw new IllegalArgumentException(field + " '" + id.substring(0, Math.min(40, id.length())) + "...' is longer than the "
                    + MAX_ID_BYTES + " UTF-8 bytes " + description + " keeps");
        }
    }
}
