package dev.baton.store;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Providers registered only in core's tests. */
public final class FakeProviders {
    private FakeProviders() {
    }

    /** A store that records the URL it was opened with. */
    public record FakeStore(String url, Map<String, String> properties) implements SnapshotStore {
        public boolean insert(RunSnapshot s) { return false; }
        public Optional<RunSnapshot> find(String runId) { return Optional.empty(); }
        public boolean compareAndSet(long v, RunSnapshot s) { return false; }
        public boolean delete(String runId, long v) { return false; }
        public RunPage list(RunQuery q) { return new RunPage(List.of(), 0); }
        public List<RunSnapshot> listDue(String agentId, java.time.Instant now, int limit) { return List.of(); }
        public boolean renewLease(String runId, long v, String owner, java.time.Instant expiry) { return false; }
        public void close() { }
    }

    public static final class Alpha implements SnapshotStoreProvider {
        public String name() { return "alpha"; }
        public List<String> schemes() { return List.of("alpha:", "shared:"); }
        public boolean accepts(String url) { return url.startsWith("alpha:") || url.startsWith("shared:"); }
        public SnapshotStore open(String url, Map<String, String> p) { return new FakeStore("alpha " + url, p); }
    }

    public static final class Beta implements SnapshotStoreProvider {
        public String name() { return "beta"; }
        public List<String> schemes() { return List.of("beta:", "shared:"); }
        public boolean accepts(String url) { return url.startsWith("beta:") || url.startsWith("shared:"); }
        public SnapshotStore open(String url, Map<String, String> p) { return new FakeStore("beta " + url, p); }
    }
}
