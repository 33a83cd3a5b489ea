package dev.baton.examples.filestore;

import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStoreProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Opens {@link FileSnapshotStore}s for {@code filestore:DIRECTORY} URLs, e.g.
 * {@code SnapshotStores.open("filestore:./data/runs")}. Registered in
 * {@code META-INF/services/dev.baton.store.SnapshotStoreProvider}; takes no properties.
 */
public final class FileSnapshotStoreProvider implements SnapshotStoreProvider {

    /** The URL prefix this provider accepts. */
    public static final String SCHEME = "filestore:";

    /** For the service loader. */
    public FileSnapshotStoreProvider() {
    }

    @Override
    public String name() {
        return "filestore";
    }

    @Override
    public List<String> schemes() {
        return List.of(SCHEME);
    }

    @Override
    public boolean accepts(String url) {
        return url.startsWith(SCHEME);
    }

    @Override
    public SnapshotStore open(String url, Map<String, String> properties) {
        SnapshotStoreProvider.requireKnownProperties("file", properties, Set.of());
        String dir = url.substring(SCHEME.length());
        if (dir.isBlank()) throw new IllegalArgumentException("url: filestore: needs a directory, e.g. filestore:./data/runs");
        return FileSnapshotStore.open(Path.of(dir));
    }
}
