package dev.baton.examples.filestore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.store.DecisionKind;
import dev.baton.store.DecisionQuery;
import dev.baton.store.DecisionRecord;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a process that died in the middle of a write with decision records leaves (see {@link FileDecisions}), and
 * that the next call settles it: records whose run change was not committed are dropped, those whose change was
 * committed (the row at the journal's version, or gone for a delete) are written.
 */
class FileDecisionJournalTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path root;

    private static RunSnapshot run(String runId) {
        return RunSnapshot.builder().runId(runId).agentId("agent").status(RunStatus.SUSPENDED).threadId("t").createdAt(T0)
                .suspendedAt(T0).payload("{}").summary("{}").build();
    }

    private static DecisionRecord record(String runId, String id) {
        return DecisionRecord.builder().decisionId(id).agentId("agent").runId(runId).threadId("t").kind(DecisionKind.APPROVE)
                .actor("alice").instanceId("i").decidedAt(T0.plusMillis(3)).idempotencyKey("key-" + id).build();
    }

    /** The parts of the store a dying process was using, without the lock: as the files are between its steps. */
    private StoreDirectory directory() throws Exception {
        return new StoreDirectory(root.toRealPath(), Duration.ofSeconds(5));
    }

    @Test
    void aJournalWhoseChangeWasNotCommittedIsDropped() throws Exception {
        try (FileSnapshotStore store = FileSnapshotStore.open(root)) {
            assertThat(store.insert(run("r1"))).isTrue();
            new FileDecisions(directory()).begin("r1", false, 2, List.of(record("r1", "d1")));   // then died
            assertThat(Files.exists(root.resolve("decisions/journal.json"))).isTrue();
            assertThat(store.listDecisions(DecisionQuery.forAgent("agent").build()).items()).isEmpty();
            assertThat(Files.exists(root.resolve("decisions/journal.json"))).isFalse();
            assertThat(store.findDecision("agent", "key-d1")).isEmpty();
            // the decision may be taken again, and the run is where it was
            assertThat(store.compareAndSet(1, run("r1").suspended(T0.plusSeconds(1), "{}"), List.of(record("r1", "d1")))).isTrue();
            assertThat(store.listDecisions(DecisionQuery.forAgent("agent").build()).items()).containsExactly(record("r1", "d1"));
        }
    }

    @Test
    void aJournalWhoseCompareAndSetWasCommittedIsCompleted() throws Exception {
        try (FileSnapshotStore store = FileSnapshotStore.open(root)) {
            assertThat(store.insert(run("r1"))).isTrue();
            RunSnapshot v2 = run("r1").suspended(T0.plusSeconds(1), "{\"v\":2}");
            StoreDirectory dir = directory();
            new FileDecisions(dir).begin("r1", false, 2, List.of(record("r1", "d1")));
            new RunFiles(dir).writeRun(v2);   // the commit point, then died
            assertThat(store.find("r1")).contains(v2);
            assertThat(store.findDecision("agent", "key-d1")).contains(record("r1", "d1"));
            assertThat(Files.exists(root.resolve("decisions/journal.json"))).isFalse();
        }
    }

    @Test
    void aJournalWhoseDeleteWasCommittedIsCompleted() throws Exception {
        try (FileSnapshotStore store = FileSnapshotStore.open(root)) {
            assertThat(store.insert(run("r1"))).isTrue();
            StoreDirectory dir = directory();
            new FileDecisions(dir).begin("r1", true, 1, List.of(record("r1", "d1")));
            Files.delete(new RunFiles(dir).rowFile("agent", "r1"));   // the commit point, then died
            assertThat(store.find("r1")).isEmpty();
            assertThat(store.listDecisions(DecisionQuery.forAgent("agent").runId("r1").build()).items())
                    .containsExactly(record("r1", "d1"));
        }
    }
}
