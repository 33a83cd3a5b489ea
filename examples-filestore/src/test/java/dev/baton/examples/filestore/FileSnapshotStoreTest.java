package dev.baton.examples.filestore;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.SnapshotStoreContract;
import dev.baton.tck.StoreFaults;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The storage contract on the file store, wired as the README's certification section says,
 * plus the optional {@link StoreFaults} hook. A file store has no network link: "cutting the
 * connection" is its directory disappearing, and "a silent backend" is a process that hangs while
 * it holds the store's lock (here the test itself takes the lock and keeps it), so that every call
 * must give up after the store's lock timeout.
 */
public class FileSnapshotStoreTest extends SnapshotStoreContract {

    @Override
    protected SnapshotStore openStore() {
        return SnapshotStores.open("filestore:target/tck-runs");
    }

    @Override
    protected Optional<StoreFaults> faults() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "faults-");
        SnapshotStore faulty = SnapshotStores.open("filestore:" + dir, Map.of("lockTimeout", "PT1S"));
        return Optional.of(new StoreFaults() {
            private FileChannel holder;

            @Override
            public SnapshotStore store() {
                return faulty;
            }

            @Override
            public void cut() throws Exception {
                Files.move(dir, dir.resolveSibling(dir.getFileName() + "-gone"));
            }

            @Override
            public void silence() throws Exception {
                holder = FileChannel.open(dir.resolve("store.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                holder.lock();   // and never released until close(): the store's calls must time out
            }

            @Override
            public Duration callTimeout() {
                return Duration.ofSeconds(1);
            }

            @Override
            public void close() throws Exception {
                try {
                    faulty.close();
                } finally {
                    if (holder != null) holder.close();
                }
            }
        });
    }
}
