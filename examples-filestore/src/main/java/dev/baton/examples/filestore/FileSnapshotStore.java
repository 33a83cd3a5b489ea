package dev.baton.examples.filestore;

import static dev.baton.examples.filestore.StoreDirectory.JSON;
import static dev.baton.examples.filestore.StoreDirectory.fits;
import static dev.baton.examples.filestore.StoreDirectory.hex;

import dev.baton.StorageException;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.MemoryStore;
import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.StoreCapability;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SnapshotStore} that keeps each run in files of a directory: <strong>a worked example for
 * provider authors, not a production store</strong>. It shows every duty of the SPI and how the TCK
 * certifies them; a real store pushes filtering, ordering and paging into its database, while this
 * one reads the row files of the queried agent.
 *
 * <pre>
 * DIR/store.lock                               locked around every call (see StoreDirectory)
 * DIR/ids/HEX(runId)                           the run's HEX(agentId): where find(runId) looks
 * DIR/agents/HEX(agentId)/HEX(runId).json      the run's row: every field but the payload, and
 *                                              the version whose payload file holds its payload
 * DIR/agents/HEX(agentId)/HEX(runId).vN.payload the payload text, verbatim, as written at version N
 * DIR/thread-ids/..., DIR/threads/...          thread memory (see FileMemoryStore)
 * DIR/decisions/...                            the audit trail of decisions (see FileDecisions)
 * </pre>
 *
 * <ul>
 *   <li><b>Every field, verbatim:</b> the row holds every {@link RunSnapshot} field but the payload,
 *       the {@code summary} (JSON text, kept as a string) and the deadline {@code expiresAt}
 *       included; instants as epoch milliseconds. The payload is a file of its own, so that the calls
 *       that need no payload never read it: a payload-free listing
 *       ({@link RunQuery#withPayload()} false) and {@link #listDue} read rows only, and
 *       {@link #renewLease} rewrites the row only.</li>
 *   <li><b>One write is one commit:</b> the row file is the commit point. A write puts the new payload
 *       in a new file ({@code .vN.payload}, N the new version), then moves the new row over the old,
 *       then deletes the old payload file. A crash leaves the old row (and its payload) or the new
 *       one, never a row whose payload is another version's; at worst an unreferenced payload file
 *       that nothing reads.</li>
 *   <li><b>Compare-and-set across processes:</b> every call reads, checks and writes while holding the
 *       store's lock. So the store is {@link StoreCapability#SHARED} between processes <em>on one
 *       machine</em>, on a local file system; file locks on network file systems are not to be
 *       trusted.</li>
 *   <li><b>Listing:</b> reads the row files of the queried agent only, filters them with
 *       {@link RunQuery#matches}, sorts by {@link RunQuery#ORDER}, counts, skips to the cursor
 *       ({@link RunQuery#after()}) or the offset, and reads the payloads of the page only. Correct, and
 *       linear in the agent's runs: fine for an example, wrong for a real store (which does it on an
 *       index).</li>
 *   <li><b>Clock:</b> {@link #now()} is this machine's clock, declared as
 *       {@link StoreCapability#STORE_CLOCK}. A store's clock is worth having because every instance that
 *       shares the store reads the same one; the instances that can share this store are processes of
 *       this machine, and they all read this machine's clock. A store on a server must read the
 *       server's time ({@code SELECT now()}, Redis {@code TIME}), never the JVM's.</li>
 *   <li><b>Failures:</b> every I/O error becomes a {@link StorageException} naming the store and the
 *       run; a directory that disappeared is an error, not an empty store; no call waits for the lock
 *       longer than the lock timeout.</li>
 * </ul>
 *
 * <p>Thread-safe, and safe between processes of one machine: every call holds the store's lock.
 * The store keeps nothing open between calls; whoever opened it closes it, and {@link #close()}
 * only makes it refuse later calls (the directory and its files stay).
 */
public final class FileSnapshotStore implements SnapshotStore {

    /** How long a call waits for the store's lock by default before it fails. */
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(10);

    /** Due runs: soonest deadline first, ties by run id ascending. */
    private static final Comparator<Row> DUE_ORDER = Comparator.comparing((Row r) -> r.expiresAt())
            .thenComparing(r -> r.runId());

    private final StoreDirectory dir;
    private final FileMemoryStore memory;
    private final FileDecisions decisions;
    private final RunFiles files;

    private FileSnapshotStore(StoreDirectory dir) {
        this.dir = dir;
        this.memory = new FileMemoryStore(dir);
        this.files = new RunFiles(dir);
        this.decisions = new FileDecisions(dir);
        // every call, of any process, first settles the journal of a write a dead process left (FileDecisions)
        dir.beforeWork(() -> {
            decisions.settle(runId -> {
                Row row = fits(runId) ? files.row(runId) : null;
                return row == null ? null : row.version();
            });
            return null;
        });
    }

    /** Opens (creating it if needed) the store in {@code directory}, waiting at most 10 s for its lock. */
    public static FileSnapshotStore open(Path directory) {
        return open(directory, DEFAULT_LOCK_TIMEOUT);
    }

    /** Opens (creating it if needed) the store in {@code directory}; a call waits at most {@code lockTimeout} for the lock. */
    public static FileSnapshotStore open(Path directory, Duration lockTimeout) {
        Objects.requireNonNull(lockTimeout, "lockTimeout");
        if (lockTimeout.isNegative() || lockTimeout.isZero()) throw new IllegalArgumentException("lockTimeout must be positive");
        Path root = directory.toAbsolutePath().normalize();
        try {
            Files.createDirectories(root.resolve("ids"));
            Files.createDirectories(root.resolve("agents"));
            return new FileSnapshotStore(new StoreDirectory(root.toRealPath(), lockTimeout));
        } catch (IOException e) {
            throw StorageException.failed("file store " + root, "open", null, e.toString(), e);
        }
    }

    // ---------------------------------------------------------------- SnapshotStore

    @Override
    public boolean insert(RunSnapshot s) {
        dir.checkFits("runId", s.runId());
        dir.checkFits("agentId", s.agentId());
        return dir.locked("insert", s.runId(), () -> {
            if (files.row(s.runId()) != null) return false;
            StoreDirectory.write(files.idFile(s.runId()), hex(s.agentId()).getBytes(StandardCharsets.US_ASCII));
            files.writeRun(s);
            return true;
        });
    }

    @Override
    public Optional<RunSnapshot> find(String runId) {
        if (!fits(runId)) {
            dir.checkOpen("find");
            return Optional.empty();
        }
        return dir.locked("find", runId, () -> {
            Row row = files.row(runId);
            return row == null ? Optional.empty() : Optional.of(row.snapshot(files.payload(row)));
        });
    }

    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot replacement) {
        dir.checkFits("runId", replacement.runId());
        return dir.locked("compare-and-set", replacement.runId(), () -> {
            Row cur = files.row(replacement.runId());
            if (cur == null || cur.version() != expectedVersion) return false;
            files.writeRun(replacement);
            if (cur.payloadVersion() != replacement.version()) Files.deleteIfExists(files.payloadFile(cur));
            return true;
        });
    }

    /** Native and payload-free: rewrites the small row file only; the payload file is neither read nor written. */
    @Override
    public boolean renewLease(String runId, long expectedVersion, String owner, Instant newExpiry) {
        if (!fits(runId)) {
            dir.checkOpen("renew-lease");
            return false;
        }
        return dir.locked("renew-lease", runId, () -> {
            Row cur = files.row(runId);
            if (cur == null || cur.version() != expectedVersion || !cur.status().equals(RunStatus.RESUMING.name())
                    || !owner.equals(cur.leaseOwner())) {
                return false;
            }
            StoreDirectory.write(files.rowFile(cur.agentId(), runId), JSON.writeValueAsBytes(cur.renewed(newExpiry)));
            return true;
        });
    }

    @Override
    public boolean delete(String runId, long expectedVersion) {
        if (!fits(runId)) {
            dir.checkOpen("delete");
            return false;
        }
        return dir.locked("delete", runId, () -> {
            Row cur = files.row(runId);
            if (cur == null || cur.version() != expectedVersion) return false;
            Files.delete(files.rowFile(cur.agentId(), runId));   // the commit point
            Files.deleteIfExists(files.payloadFile(cur));
            Files.deleteIfExists(files.idFile(runId));
            return true;
        });
    }

    /**
     * Under the lock: the journal of the records, the compare-and-set (its row file is the commit point), then the
     * record files (see {@link FileDecisions}).
     */
    @Override
    public boolean compareAndSet(long expectedVersion, RunSnapshot replacement, List<DecisionRecord> records) {
        dir.checkFits("runId", replacement.runId());
        checkRecords(replacement.agentId(), replacement.runId(), records);
        return dir.locked("compare-and-set", replacement.runId(), () -> {
            Row cur = files.row(replacement.runId());
            if (cur == null || cur.version() != expectedVersion || decisions.taken(records)) return false;
            FileDecisions.Journal journal = decisions.begin(replacement.runId(), false, replacement.version(), records);
            files.writeRun(replacement);
            if (cur.payloadVersion() != replacement.version()) Files.deleteIfExists(files.payloadFile(cur));
            decisions.complete(journal);
            return true;
        });
    }

    /** Under the lock: the journal of the records, the delete (the row file's deletion is the commit point), the record files. */
    @Override
    public boolean delete(String runId, long expectedVersion, List<DecisionRecord> records) {
        if (!fits(runId)) {
            dir.checkOpen("delete");
            return false;
        }
        return dir.locked("delete", runId, () -> {
            Row cur = files.row(runId);
            if (cur == null || cur.version() != expectedVersion) return false;
            checkRecords(cur.agentId(), runId, records);
            if (decisions.taken(records)) return false;
            FileDecisions.Journal journal = decisions.begin(runId, true, expectedVersion, records);
            Files.delete(files.rowFile(cur.agentId(), runId));   // the commit point
            Files.deleteIfExists(files.payloadFile(cur));
            Files.deleteIfExists(files.idFile(runId));
            decisions.complete(journal);
            return true;
        });
    }

    /** Reads the agent's record files and filters, sorts and pages them in memory: linear, as an example may be. */
    @Override
    public DecisionPage listDecisions(DecisionQuery query) {
        if (!fits(query.agentId())) {
            dir.checkOpen("listDecisions");
            return new DecisionPage(List.of(), false);
        }
        return dir.locked("listDecisions", query.runId(), () -> decisions.list(query));
    }

    /** A point lookup: the key's file names the record. */
    @Override
    public Optional<DecisionRecord> findDecision(String agentId, String idempotencyKey) {
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        if (!fits(agentId)) {
            dir.checkOpen("findDecision");
            return Optional.empty();
        }
        return dir.locked("findDecision", null, () -> Optional.ofNullable(decisions.find(agentId, idempotencyKey)));
    }

    @Override
    public int purgeDecisions(String agentId, Instant olderThan, int limit) {
        Objects.requireNonNull(olderThan, "olderThan");
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        if (!fits(agentId)) {
            dir.checkOpen("purgeDecisions");
            return 0;
        }
        return dir.locked("purgeDecisions", null, () -> decisions.purge(agentId, olderThan, limit));
    }

    private static void checkRecords(String agentId, String runId, List<DecisionRecord> records) {
        if (records.isEmpty()) throw new IllegalArgumentException("decisions must not be empty (run " + runId + ")");
        for (DecisionRecord d : records) {
            if (!d.agentId().equals(agentId) || !d.runId().equals(runId)) {
                throw new IllegalArgumentException("decision " + d.decisionId() + " is not of run " + runId + " of agent " + agentId);
            }
        }
    }

    @Override
    public RunPage list(RunQuery query) {
        if (!fits(query.agentId()) || query.emptyDateRange()) {
            dir.checkOpen("list");
            return new RunPage(List.of(), 0);
        }
        return dir.locked("list", null, () -> {
            List<Listed> matches = new ArrayList<>();
            for (Row row : files.rows(query.agentId())) {
                RunSnapshot head = row.snapshot("");
                if (query.matches(head)) matches.add(new Listed(row, head));
            }
            matches.sort(Comparator.comparing(Listed::head, RunQuery.ORDER));
            long total = matches.size();
            RunQuery.After after = query.after();
            if (after != null) matches.removeIf(m -> !after.precedes(m.head()));
            int from = (int) Math.min(query.offset(), matches.size());
            int to = query.limit() == null ? matches.size() : (int) Math.min(matches.size(), (long) from + query.limit());
            List<RunSnapshot> page = new ArrayList<>(to - from);
            for (Listed m : matches.subList(from, to)) {
                page.add(query.withPayload() ? m.row().snapshot(files.payload(m.row())) : m.head());
            }
            return new RunPage(page, total);
        });
    }

    /** A matching run while a listing sorts and pages: its row, and its snapshot without the payload. */
    private record Listed(Row row, RunSnapshot head) {
    }

    /** Reads the agent's rows (never a payload), keeps the due ones, soonest deadline first. Payloads are left empty. */
    @Override
    public List<RunSnapshot> listDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(now, "now");
        if (limit < 0) throw new IllegalArgumentException("limit must be >= 0, was " + limit);
        if (!fits(agentId)) {
            dir.checkOpen("listDue");
            return List.of();
        }
        return dir.locked("listDue", null, () -> {
            List<Row> due = new ArrayList<>();
            for (Row row : files.rows(agentId)) {
                RunSnapshot s = row.snapshot("");
                if (s.expiresAt() != null && !s.expiresAt().isAfter(now) && s.effectiveStatus(now) == RunStatus.SUSPENDED) {
                    due.add(row);
                }
            }
            due.sort(DUE_ORDER);
            return due.stream().limit(limit).map(r -> r.snapshot("")).toList();
        });
    }

    /** Reads the agent's rows (never a payload), keeps those with a notification due, oldest first. Linear, as listDue. */
    @Override
    public List<RunSnapshot> listNotificationsDue(String agentId, Instant now, int limit) {
        Objects.requireNonNull(now, "now");
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, was " + limit);
        if (!fits(agentId)) {
            dir.checkOpen("listNotificationsDue");
            return List.of();
        }
        return dir.locked("listNotificationsDue", null, () -> files.notificationsDue(agentId, now, limit));
    }

    /** Rewrites the small row file only, under the store's lock; the version and the payload file stay. */
    @Override
    public boolean updateNotification(String runId, long expectedVersion, Instant expectedNotifyAt, @Nullable Instant notifyAt,
            @Nullable String notifyState) {
        Objects.requireNonNull(expectedNotifyAt, "expectedNotifyAt");
        if (!fits(runId)) {
            dir.checkOpen("update-notification");
            return false;
        }
        return dir.locked("update-notification", runId, () -> files.moveNotification(runId, expectedVersion, expectedNotifyAt,
                notifyAt, notifyState));
    }

    /** This machine's clock: the one clock of every process that can share this store (see the class comment). */
    @Override
    public Instant now() {
        dir.checkOpen("now");
        return Instant.now();
    }

    /** Thread memory in the same directory: one file per thread (see {@link FileMemoryStore}). */
    @Override
    public Optional<MemoryStore> memory() {
        return Optional.of(memory);
    }

    /**
     * {@link dev.baton.store.QueryFeature#BASELINE} and {@link dev.baton.store.QueryFeature#DECIDERS}: a listing reads
     * every row of the agent and filters it with {@link RunQuery#matches}, which has the deciders rule (the labels are a
     * field of the row).
     */
    @Override
    public Set<dev.baton.store.QueryFeature> queryFeatures() {
        return Set.of(dev.baton.store.QueryFeature.BASELINE, dev.baton.store.QueryFeature.DECIDERS);
    }

    /**
     * {@link StoreCapability#SHARED} (by processes of one machine), {@link StoreCapability#DURABLE},
     * {@link StoreCapability#STORE_CLOCK} (this machine's clock), {@link StoreCapability#THREAD_MEMORY} and
     * {@link StoreCapability#DECISIONS} (see {@link FileDecisions}) and {@link StoreCapability#NOTIFICATIONS}.
     */
    @Override
    public Set<StoreCapability> capabilities() {
        return Set.of(StoreCapability.SHARED, StoreCapability.DURABLE, StoreCapability.STORE_CLOCK,
                StoreCapability.THREAD_MEMORY, StoreCapability.DECISIONS,
                StoreCapability.NOTIFICATIONS);
    }

    @Override
    public String describe() {
        return dir.description();
    }

    /** Idempotent; the store holds nothing open between calls, and refuses every call after this (its memory too). */
    @Override
    public void close() {
        dir.close();
    }
}
