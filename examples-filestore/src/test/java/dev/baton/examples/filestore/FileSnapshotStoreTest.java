package dev.baton.examples.filestore;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.SnapshotStoreContract;
import dev.baton.tck.StoreFaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The storage contract on the file store, wired as the README's certification section says,
 * plus the optional {@link StoreFaults} hook: "cutting the connection" of a file store is its
 * directory disappearing (it has no network link to silence, so that test is skipped).
 */
public class FileSnapshotStoreTest extends SnapshotStoreContract {

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("filestore:target/tck-runs");
    }

    @Override
    protected Optional<StoreFaults> faults() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "faults-");
        SnapshotStore faulty = SnapshotStores.open("filestore:" + dir);
        return Optional.of(new StoreFaults() {
            @Override
            public SnapshotStore store() {
                return faulty;
            }

            @Override
            public void cut() throws Exception {
                Files.move(dir, dir.resolveSibling(dir.getFileName() + "-gone"));
            }

            @Override
            public Duration callTimeout() {
                return Duration.ofSeconds(1);
            }

            @Override
            public void close() {
                faulty.close();
            }
        });
    }
}
