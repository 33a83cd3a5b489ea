package dev.baton.examples.filestore;

import static dev.baton.examples.filestore.StoreDirectory.JSON;
import static dev.baton.examples.filestore.StoreDirectory.fileName;

import dev.baton.StorageException;
import dev.baton.model.Role;
import dev.baton.store.MemoryStore;
import dev.baton.store.MemoryThread;
import dev.baton.store.StoredMessage;
import dev.baton.store.StoredMessagePage;
import dev.baton.store.ThreadPage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The thread memory of a {@link FileSnapshotStore} ({@link dev.baton.store.StoreCapability#THREAD_MEMORY}):
 * one JSON file per thread, holding the thread, the next {@code seq} and every message, in the
 * store's directory and under the store's lock.
 *
 * <pre>
 * DIR/thread-ids/NAME(key)                      where the thread's file is: rNAME(resourceId), or "none"
 * DIR/threads/rNAME(resourceId)/NAME(key).json  the thread, its next seq and its messages
 * DIR/threads/none/NAME(key).json               a thread without an owner (listed for nobody)
 * </pre>
 * NAME is the hex of the UTF-8 bytes, or {@code h} and the hex of the SHA-256 of a key too long for a
 * file name ({@link StoreDirectory#fileName}); a thread's key ({@code MemoryStore}, "Thread keys") is
 * up to 511 bytes, and the file holds it, so a read compares it.
 *
 * <ul>
 *   <li><b>An append is one atomic file write:</b> under the lock, the thread's file is read, the new
 *       messages get the next {@code seq}s (those whose {@code (runId, runIndex)} the thread already
 *       has are skipped, so a retry after a crash duplicates nothing), and the whole file is written
 *       back atomically with the new update time. Two appends at once are serialized by the lock, so
 *       they interleave whole.</li>
 *   <li><b>Linear, on purpose:</b> an append rewrites the thread's file, and listing a resource's
 *       threads reads each of its files. Correct and simple; a real store appends one row per message
 *       on an index {@code (threadId, seq)} and lists threads on an index {@code (resourceId, updatedAt)}.</li>
 *   <li><b>Verbatim:</b> ids, titles, the metadata's JSON text and message contents are JSON strings
 *       of the file, read back as written.</li>
 * </ul>
 */
final class FileMemoryStore implements MemoryStore {

    /** One message in a thread's file; {@code role} is the role's wire name ({@code user}, {@code assistant}, {@code tool}). */
    record Line(long seq, String runId, int runIndex, String role, String content, long createdAt) {
    }

    /**
     * A thread's file: the thread's fields (the metadata as its JSON text, a string of the file), the seq
     * its next message gets, and its messages in seq order.
     */
    record ThreadFile(String id, @Nullable String resourceId, @Nullable String title, String metadata, long createdAt,
                      long updatedAt, long nextSeq, List<Line> messages) {

        static ThreadFile of(MemoryThread t) {
            return new ThreadFile(t.id(), t.resourceId(), t.title(), t.metadataJson(), t.createdAt().toEpochMilli(),
                    t.updatedAt().toEpochMilli(), 1, List.of());
        }

        /** The same thread with another title, metadata and update time, and these messages. */
        ThreadFile with(@Nullable String newTitle, String newMetadata, Instant at, long newNextSeq, List<Line> newMessages) {
            return new ThreadFile(id, resourceId, newTitle, newMetadata, createdAt, at.toEpochMilli(), newNextSeq, newMessages);
        }
    }

    /** The thread a file holds; a file that breaks the thread's rules is a {@link StorageException} naming it. */
    private MemoryThread thread(ThreadFile t) {
        try {
            if (t.metadata() == null) throw new IllegalArgumentException("it has no metadata");
            return MemoryThread.builder().id(t.id()).resourceId(t.resourceId()).title(t.title()).metadataJson(t.metadata())
                    .createdAt(Instant.ofEpochMilli(t.createdAt())).updatedAt(Instant.ofEpochMilli(t.updatedAt())).build();
        } catch (IllegalArgumentException e) {
            throw new StorageException(dir.description() + ": the file of thread '" + t.id() + "' is not a valid thread: "
                    + e.getMessage(), e);
        }
    }

    /** A message of a thread's file; one that breaks the message's rules is a {@link StorageException} naming it. */
    private StoredMessage message(ThreadFile t, Line m) {
        try {
            return StoredMessage.builder().threadId(t.id()).seq(m.seq()).runId(m.runId()).runIndex(m.runIndex())
                    .role(Role.fromWireName(m.role())).content(m.content()).createdAt(Instant.ofEpochMilli(m.createdAt()))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new StorageException(dir.description() + ": message " + m.seq() + " of thread '" + t.id()
                    + "' is not a valid message: " + e.getMessage(), e);
        }
    }

    /** A resource's threads: newest update first, ties by id descending. */
    private static final Comparator<MemoryThread> LISTING = Comparator.comparing(MemoryThread::updatedAt)
            .thenComparing(MemoryThread::id).reversed();

    private final StoreDirectory dir;

    FileMemoryStore(StoreDirectory dir) {
        this.dir = dir;
    }

    @Override
    public boolean createThread(MemoryThread thread) {
        return dir.locked("createThread", thread.id(), () -> {
            if (read(thread.id()) != null) return false;
            StoreDirectory.write(idFile(thread.id()), ownerDir(thread.resourceId()).getBytes(StandardCharsets.US_ASCII));
            write(ThreadFile.of(thread));
            return true;
        });
    }

    @Override
    public Optional<MemoryThread> findThread(String threadId) {
        return dir.locked("findThread", threadId, () -> Optional.ofNullable(read(threadId)).map(this::thread));
    }

    @Override
    public boolean updateThread(MemoryThread thread) {
        return dir.locked("updateThread", thread.id(), () -> {
            ThreadFile t = read(thread.id());
            if (t == null) return false;
            write(t.with(thread.title(), thread.metadataJson(), thread.updatedAt(), t.nextSeq(), t.messages()));
            return true;
        });
    }

    @Override
    public ThreadPage listThreads(String resourceId, long offset, int limit) {
        Objects.requireNonNull(resourceId, "resourceId");
        checkPage(offset, limit);
        return dir.locked("listThreads", null, () -> {
            List<MemoryThread> threads = new ArrayList<>();
            Path owned = dir.resolve("threads", ownerDir(resourceId));
            if (Files.isDirectory(owned)) {
                try (DirectoryStream<Path> files = Files.newDirectoryStream(owned, "*.json")) {
                    for (Path f : files) {
                        ThreadFile t = StoreDirectory.readJson(f, ThreadFile.class);
                        if (t != null) threads.add(thread(t));
                    }
                }
            }
            threads.sort(LISTING);
            int from = (int) Math.min(offset, threads.size());
            int to = (int) Math.min(threads.size(), (long) from + limit);
            return new ThreadPage(threads.subList(from, to), threads.size());
        });
    }

    @Override
    public boolean deleteThread(String threadId) {
        return dir.locked("deleteThread", threadId, () -> {
            ThreadFile t = read(threadId);
            if (t == null) return false;
            Files.delete(threadFile(t.id(), t.resourceId()));   // the thread and its messages, at once
            Files.deleteIfExists(idFile(threadId));
            return true;
        });
    }

    @Override
    public boolean append(String threadId, List<StoredMessage.New> messages, Instant at) {
        Objects.requireNonNull(at, "at");
        List<StoredMessage.New> batch = List.copyOf(messages);
        return dir.locked("append", threadId, () -> {
            ThreadFile t = read(threadId);
            if (t == null) return false;
            Set<String> has = new HashSet<>();
            for (Line m : t.messages()) has.add(key(m.runId(), m.runIndex()));
            List<Line> all = new ArrayList<>(t.messages());
            long seq = t.nextSeq();
            for (StoredMessage.New m : batch) {
                if (!has.add(key(m.runId(), m.runIndex()))) continue;   // appended before: a retry
                all.add(new Line(seq++, m.runId(), m.runIndex(), m.role().wireName(), m.content(), at.toEpochMilli()));
            }
            write(t.with(t.title(), t.metadata(), at, seq, all));
            return true;
        });
    }

    @Override
    public List<StoredMessage> lastMessages(String threadId, int n) {
        if (n < 0) throw new IllegalArgumentException("n must be >= 0, was " + n);
        return dir.locked("lastMessages", threadId, () -> {
            ThreadFile t = read(threadId);
            if (t == null) return List.of();
            List<Line> all = t.messages();
            return all.subList(Math.max(0, all.size() - n), all.size()).stream().map(m -> message(t, m)).toList();
        });
    }

    @Override
    public StoredMessagePage listMessages(String threadId, long offset, int limit) {
        checkPage(offset, limit);
        return dir.locked("listMessages", threadId, () -> {
            ThreadFile t = read(threadId);
            if (t == null) return new StoredMessagePage(List.of(), 0);
            List<Line> all = t.messages();
            int from = (int) Math.min(offset, all.size());
            int to = (int) Math.min(all.size(), (long) from + limit);
            return new StoredMessagePage(all.subList(from, to).stream().map(m -> message(t, m)).toList(), all.size());
        });
    }

    // ---------------------------------------------------------------- files

    /** The thread's file, or null if there is no such thread. */
    private @Nullable ThreadFile read(String threadId) throws IOException {
        byte[] owner = StoreDirectory.readIfExists(idFile(threadId));
        if (owner == null) return null;
        // an id file without its thread file: a crash between the writes of a create or a delete, i.e. no thread
        ThreadFile t = StoreDirectory.readJson(dir.resolve("threads", new String(owner, StandardCharsets.US_ASCII),
                fileName(threadId) + ".json"), ThreadFile.class);
        return t != null && t.id().equals(threadId) ? t : null;   // a long key's file is named by its hash
    }

    private void write(ThreadFile t) throws IOException {
        StoreDirectory.write(threadFile(t.id(), t.resourceId()), JSON.writeValueAsBytes(t));
    }

    private Path idFile(String threadId) {
        return dir.resolve("thread-ids", fileName(threadId));
    }

    private Path threadFile(String threadId, @Nullable String resourceId) {
        return dir.resolve("threads", ownerDir(resourceId), fileName(threadId) + ".json");
    }

    /** The directory of a resource's threads: {@code r} and the file name of its id (so that {@code ""} has one too), or {@code none}. */
    private static String ownerDir(@Nullable String resourceId) {
        return resourceId == null ? "none" : "r" + fileName(resourceId);
    }

    private static String key(String runId, int runIndex) {
        return runIndex + ":" + runId;
    }

    private static void checkPage(long offset, int limit) {
        if (offset < 0) throw new IllegalArgumentException("offset must be >= 0, was " + offset);
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
    }
}
