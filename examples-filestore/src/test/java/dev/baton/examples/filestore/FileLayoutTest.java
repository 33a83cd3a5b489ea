package dev.baton.examples.filestore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.InvalidOptionException;
import dev.baton.StorageException;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the file store promises beyond what the TCK can observe: the calls that need no payload never
 * read the payload file, a write leaves one payload file per run, and the provider's one property.
 */
class FileLayoutTest {

    private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

    @TempDir
    Path dir;
    private SnapshotStore store;

    @BeforeEach
    void open() {
        store = SnapshotStores.open("filestore:" + dir);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private RunSnapshot claimedRun() {
        RunSnapshot s = RunSnapshot.builder().runId("run-1").agentId("agent-1").status(RunStatus.SUSPENDED)
                .threadId("t").resourceId("u").createdAt(T0).suspendedAt(T0)
                .payload("{\"big\":\"payload\"}").expiresAt(T0.plusSeconds(60)).summary("{\"calls\":[]}").build();
        assertThat(store.insert(s)).isTrue();
        RunSnapshot claimed = s.claimed("me", T0.plusSeconds(30), s.payload());
        assertThat(store.compareAndSet(1, claimed)).isTrue();
        return claimed;
    }

    private List<Path> payloadFiles() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".payload")).toList();
        }
    }

    @Test
    void aRenewalAPayloadFreeListingAndTheDueRunsNeverReadThePayloadFile() throws IOException {
        claimedRun();
        Files.delete(payloadFiles().get(0));   // from now on, reading the payload fails

        assertThat(store.renewLease("run-1", 2, "me", T0.plusSeconds(90))).isTrue();
        RunSnapshot listed = store.list(RunQuery.forAgent("agent-1", T0).status(null).withPayload(false).build()).items().get(0);
        assertThat(listed.version()).isEqualTo(3);
        assertThat(listed.leaseExpiresAt()).isEqualTo(T0.plusSeconds(90));
        assertThat(listed.summary()).isEqualTo("{\"calls\":[]}");
        assertThat(store.listDue("agent-1", T0.plusSeconds(100), 10)).extracting(RunSnapshot::runId).containsExactly("run-1");

        assertThatThrownBy(() -> store.find("run-1")).isInstanceOf(StorageException.class)
                .hasMessageContaining("run-1").hasMessageContaining("payload file");
    }

    @Test
    void aRunHasOnePayloadFileWhateverItsWritesAndNoneOnceDeleted() throws IOException {
        RunSnapshot claimed = claimedRun();
        assertThat(store.renewLease("run-1", 2, "me", T0.plusSeconds(90))).isTrue();
        assertThat(payloadFiles()).singleElement().satisfies(f -> assertThat(f.getFileName().toString()).endsWith(".v2.payload"));
        assertThat(store.compareAndSet(3, claimed.renewed(T0.plusSeconds(90)).suspended(T0.plusSeconds(5), "{}"))).isTrue();
        assertThat(payloadFiles()).singleElement().satisfies(f -> assertThat(f.getFileName().toString()).endsWith(".v4.payload"));
        assertThat(store.delete("run-1", 4)).isTrue();
        assertThat(payloadFiles()).isEmpty();
    }

    @Test
    void theProviderTakesALockTimeoutAndRefusesAnyOtherProperty() {
        SnapshotStores.open("filestore:" + dir, Map.of("lockTimeout", "PT2S")).close();
        assertThatThrownBy(() -> SnapshotStores.open("filestore:" + dir, Map.of("lockTimeout", "2 seconds")))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("PT2S");
        assertThatThrownBy(() -> SnapshotStores.open("filestore:" + dir, Map.of("timeout", "PT2S")))
                .isInstanceOf(InvalidOptionException.class).hasMessageContaining("lockTimeout");
    }
}
