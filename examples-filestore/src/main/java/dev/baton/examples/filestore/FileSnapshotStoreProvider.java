package dev.baton.examples.filestore;

import dev.baton.InvalidOptionException;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStoreProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Opens {@link FileSnapshotStore}s for {@code filestore:DIRECTORY} URLs, e.g.
 * {@code SnapshotStores.open("filestore:./data/runs")}. Registered in
 * {@code META-INF/services/dev.baton.store.SnapshotStoreProvider}. One property:
 * {@code lockTimeout}, the longest a call waits for the store's lock (an ISO-8601 duration such as
 * {@code PT2S}; default 10 s); any other property is refused. Stateless and thread-safe; the
 * caller closes each store it opens.
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
        SnapshotStoreProvider.requireKnownProperties("file", properties, Set.of("lockTimeout"));
        String dir = url.substring(SCHEME.length());
        if (dir.isBlank()) throw new InvalidOptionException("url", "filestore: needs a directory, e.g. filestore:./data/runs");
        String timeout = properties.get("lockTimeout");
        if (timeout == null) return FileSnapshotStore.open(Path.of(dir));
        Duration lockTimeout;
        try {
            lockTimeout = Duration.parse(timeout.trim());
        } catch (DateTimeParseException e) {
            throw new InvalidOptionException("lockTimeout", "expected an ISO-8601 duration such as PT2S, was '" + timeout + "'");
        }
        if (lockTimeout.isNegative() || lockTimeout.isZero()) throw new InvalidOptionException("lockTimeout", "must be positive");
        return FileSnapshotStore.open(Path.of(dir), lockTimeout);
    }
}
