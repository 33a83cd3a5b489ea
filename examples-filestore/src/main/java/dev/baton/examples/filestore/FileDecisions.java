package dev.baton.examples.filestore;

import static dev.baton.examples.filestore.StoreDirectory.JSON;
import static dev.baton.examples.filestore.StoreDirectory.hex;

import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The audit trail of a {@link FileSnapshotStore} ({@link dev.baton.store.StoreCapability#DECISIONS}), in the
 * store's directory and under the store's lock:
 *
 * <pre>
 * DIR/decisions/journal.json                       the records of the write in progress (see below)
 * DIR/decisions/HEX(agentId)/SHA256(decisionId).json  one record
 * DIR/decisions/HEX(agentId)/keys/SHA256(key)      the decisionId that carries an idempotency key
 * </pre>
 * (Decision ids and keys may be 255 characters: too long for a file name in hex, so their SHA-256 names
 * the file, and the file holds the id itself.)
 *
 * <p><b>One write with the run's change, by a journal.</b> A write with records first writes them to the
 * journal (atomically, like every file here), then commits the run's change (the row file, or its deletion:
 * the commit point of {@link FileSnapshotStore}), then writes the record files and deletes the journal. If
 * the process dies in between, the next call of any process, which must take the same lock first, settles
 * the journal before it does anything else ({@link #settle}): if the run's change was committed (the row is
 * at the journal's version; or, for a delete, gone) the records are written, else they are dropped. So a
 * record exists exactly when its change does, whatever crashes.
 *
 * <p><b>Linear, on purpose:</b> listing and purging read the agent's record files, then filter, sort and page
 * in memory ({@link DecisionQuery#matches}, {@link DecisionQuery#ORDER}). Correct, and simple to check; a real
 * store keeps an index per query shape. The lookup by idempotency key is a point lookup (its key file).
 */
final class FileDecisions {

    /** One record, as its file holds it; {@code decidedAt} in epoch milliseconds, {@code kind} its wire name. */
    record Entry(String decisionId, String agentId, String runId, @Nullable String threadId, @Nullable String resourceId,
                 @Nullable String toolCallId, @Nullable String toolName, String kind, String actor, String instanceId,
                 long decidedAt, @Nullable String reason, @Nullable String argsDigestBefore, @Nullable String argsDigestAfter,
                 @Nullable String idempotencyKey) {

        static Entry of(DecisionRecord d) {
            return new Entry(d.decisionId(), d.agentId(), d.runId(), d.threadId(), d.resourceId(), d.toolCallId(), d.toolName(),
                    d.kind().wireName(), d.actor(), d.instanceId(), d.decidedAt().toEpochMilli(), d.reason(),
                    d.argsDigestBefore(), d.argsDigestAfter(), d.idempotencyKey());
        }

        DecisionRecord record() {
            return DecisionRecord.builder().decisionId(decisionId).agentId(agentId).runId(runId).threadId(threadId)
                    .resourceId(resourceId).toolCallId(toolCallId).toolName(toolName).kind(DecisionKind.fromWireName(kind))
                    .actor(actor).instanceId(instanceId).decidedAt(Instant.ofEpochMilli(decidedAt)).reason(reason)
                    .argsDigestBefore(argsDigestBefore).argsDigestAfter(argsDigestAfter).idempotencyKey(idempotencyKey)
                    .build();
        }
    }

    /**
     * The write in progress: the run's change ({@code delete}, or a compare-and-set to {@code version}) and its
     * records.
     */
    record Journal(String runId, boolean delete, long version, List<Entry> records) {
    }

    /** Reads the version of a run's row: null if the run has no row. */
    interface Rows {
        @Nullable Long version(String runId) throws IOException;
    }

    private final StoreDirectory dir;

    FileDecisions(StoreDirectory dir) {
        this.dir = dir;
    }

    /** True (write nothing) if a record's id or idempotency key is stored already, or repeated among them. */
    boolean taken(List<DecisionRecord> records) {
        Set<String> ids = new HashSet<>();
        Set<String> keys = new HashSet<>();
        for (DecisionRecord r : records) {
            if (!ids.add(r.decisionId()) || Files.exists(recordFile(r.agentId(), r.decisionId()))) return true;
            String key = r.idempotencyKey();
            if (key != null && (!keys.add(key) || Files.exists(keyFile(r.agentId(), key)))) return true;
        }
        return false;
    }

    /** Step 1: the journal, written before the run's change is committed. */
    Journal begin(String runId, boolean delete, long version, List<DecisionRecord> records) throws IOException {
        Journal j = new Journal(runId, delete, version, records.stream().map(Entry::of).toList());
        StoreDirectory.write(journalFile(), JSON.writeValueAsBytes(j));
        return j;
    }

    /** Step 3, after the commit: the record files, then the journal goes. */
    void complete(Journal j) throws IOException {
        for (Entry e : j.records()) {
            StoreDirectory.write(recordFile(e.agentId(), e.decisionId()), JSON.writeValueAsBytes(e));
            if (e.idempotencyKey() != null) {
                StoreDirectory.write(keyFile(e.agentId(), e.idempotencyKey()), e.decisionId().getBytes(StandardCharsets.UTF_8));
            }
        }
        Files.deleteIfExists(journalFile());
    }

    /** Under the lock, before any other work: finishes or drops the journal a dead process left. */
    void settle(Rows rows) throws IOException {
        Journal j = StoreDirectory.readJson(journalFile(), Journal.class);
        if (j == null) return;
        Long version = rows.version(j.runId());
        boolean committed = j.delete() ? version == null : version != null && version == j.version();
        if (committed) {
            complete(j);
        } else {
            Files.deleteIfExists(journalFile());
        }
    }

    DecisionPage list(DecisionQuery q) throws IOException {
        List<DecisionRecord> matches = new ArrayList<>();
        for (Entry e : entries(q.agentId())) {
            DecisionRecord r = e.record();
            if (q.matches(r)) matches.add(r);
        }
        matches.sort(DecisionQuery.ORDER);
        boolean more = matches.size() > q.limit();
        return new DecisionPage(more ? matches.subList(0, q.limit()) : matches, more);
    }

    @Nullable DecisionRecord find(String agentId, String key) throws IOException {
        byte[] id = StoreDirectory.readIfExists(keyFile(agentId, key));
        if (id == null) return null;
        Entry e = StoreDirectory.readJson(recordFile(agentId, new String(id, StandardCharsets.UTF_8)), Entry.class);
        return e == null ? null : e.record();
    }

    int purge(String agentId, Instant olderThan, int limit) throws IOException {
        List<Entry> old = new ArrayList<>();
        for (Entry e : entries(agentId)) if (e.decidedAt() < olderThan.toEpochMilli()) old.add(e);
        old.sort((a, b) -> a.decidedAt() != b.decidedAt() ? Long.compare(a.decidedAt(), b.decidedAt())
                : a.decisionId().compareTo(b.decisionId()));
        List<Entry> gone = old.subList(0, Math.min(limit, old.size()));
        for (Entry e : gone) {
            if (e.idempotencyKey() != null) Files.deleteIfExists(keyFile(agentId, e.idempotencyKey()));
            Files.deleteIfExists(recordFile(agentId, e.decisionId()));
        }
        return gone.size();
    }

    private List<Entry> entries(String agentId) throws IOException {
        List<Entry> entries = new ArrayList<>();
        Path agentDir = dir.resolve("decisions", hex(agentId));
        if (!Files.isDirectory(agentDir)) return entries;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(agentDir, "*.json")) {
            for (Path f : files) {
                Entry e = StoreDirectory.readJson(f, Entry.class);
                if (e != null) entries.add(e);
            }
        }
        return entries;
    }

    private Path journalFile() {
        return dir.resolve("decisions", "journal.json");
    }

    private Path recordFile(String agentId, String decisionId) {
        return dir.resolve("decisions", hex(agentId), sha256(decisionId) + ".json");
    }

    private Path keyFile(String agentId, String key) {
        return dir.resolve("decisions", hex(agentId), "keys", sha256(key));
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
