package dev.baton.bench;

import dev.baton.store.RunPage;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One database as the benchmarks use it: where a data set lives (its own table, key prefix or
 * collection, never the tests'), how it is seeded fast in the store's own layout, the Baton store
 * on it, and the hand-written queries on the same data.
 */
public abstract class Backend implements AutoCloseable {

    /** Every backend, in the order a run goes through them. */
    public static final List<String> ALL = List.of("postgres", "mariadb", "sqlite", "h2", "redis", "mongo", "memory");

    /** Namespace of everything the benchmarks create: tables, key prefixes, database names. */
    public static final String NAMESPACE = "baton_bench";

    final String name;

    Backend(String name) {
        this.name = name;
    }

    /** Opens the backend {@code name}; server URLs come from {@code BATON_TEST_*_URL} or default to 127.0.0.1. */
    public static Backend create(String name, Path dataDir) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "memory" -> new MemoryStoreBackend();
            case "postgres" -> new SqlBackend("postgres", env("BATON_TEST_POSTGRES_URL",
                    "jdbc:postgresql://127.0.0.1:5432/test?user=postgres"));
            case "mariadb" -> new SqlBackend("mariadb", env("BATON_TEST_MARIADB_URL",
                    "jdbc:mariadb://127.0.0.1:3306/test?user=root&sslMode=disable"));
            case "h2" -> new SqlBackend("h2", "jdbc:h2:file:" + dataDir.resolve("h2").resolve(NAMESPACE).toAbsolutePath());
            case "sqlite" -> new SqlBackend("sqlite", "jdbc:sqlite:" + dataDir.resolve("sqlite").toAbsolutePath()
                    .resolve(NAMESPACE + ".db"));
            case "redis" -> new RedisBackend(env("BATON_TEST_REDIS_URL", "redis://127.0.0.1:6379"));
            case "mongo" -> new MongoBackend(System.getenv("BATON_TEST_MONGO_URL"));
            default -> throw new IllegalArgumentException("unknown backend '" + name + "'; known: " + ALL);
        };
    }

    static String env(String variable, String fallback) {
        String v = System.getenv(variable);
        return v == null || v.isBlank() ? fallback : v;
    }

    public String name() {
        return name;
    }

    /** False for backends whose numbers say little about production (the in-JVM MongoDB server). */
    public boolean representative() {
        return true;
    }

    /** The server and its version, for the report. */
    public abstract String describe();

    /** Opens the Baton store on the data set's namespace, as an application would (by URL). */
    public abstract SnapshotStore openStore(DataSet data);

    /** True if the data set is already there, complete, in the current {@link DataSet#VERSION}. */
    public abstract boolean isSeeded(DataSet data);

    /** Drops whatever the namespace holds, writes the {@code n} runs in the store's layout, then the marker. */
    public abstract void seed(DataSet data);

    /** The hand-written queries on the data set, or null if the backend has no query language (memory). */
    public abstract @Nullable RawQueries raw(DataSet data);

    /**
     * Opens the store whose thread memory holds the memory data set, in its own namespace (a table
     * prefix, key prefix or collection named after {@link MemoryData#tag()}).
     */
    public abstract SnapshotStore openMemoryStore(MemoryData data);

    /** The hand-written thread-memory queries, or null if the backend has no query language (memory). */
    public abstract @Nullable RawMemory rawMemory(MemoryData data);

    /** How many threads seed thread memory at once: more than one only where the server takes parallel writes. */
    public int seedParallelism() {
        return 1;
    }

    /** Removes every run of {@code agentId} (the runs the write benchmarks created). */
    public void purge(SnapshotStore store, DataSet data, String agentId) {
        purgeThroughStore(store, agentId);
    }

    static void purgeThroughStore(SnapshotStore store, String agentId) {
        while (true) {
            RunPage page = store.list(RunQuery.forAgent(agentId, Instant.now()).status(null).page(0, 500).build());
            if (page.items().isEmpty()) return;
            for (RunSnapshot s : page.items()) store.delete(s.runId(), s.version());
        }
    }

    /**
     * A raw cycle ({@link RawCycle}) on a connection of its own, replaying {@code template} in the data
     * set's table or key space; null if the backend has no raw baseline (memory, MongoDB).
     */
    @Nullable RawCycle rawCycle(DataSet data, CycleTemplate template) {
        return null;
    }

    /** Removes whatever the raw baselines left (their runs and decision records, agent {@link CycleTemplate#RAW_AGENT}). */
    void purgeRaw(DataSet data) {
    }

    /** Progress of a seed on stderr, every tenth. */
    static void progress(String what, long done, long total, long startNanos) {
        if (total >= 100_000 && done % (total / 10) == 0) {
            System.err.printf(Locale.ROOT, "[seed] %s %,d/%,d (%.1f s)%n", what, done, total,
                    (System.nanoTime() - startNanos) / 1e9);
        }
    }

    static final String SUSPENDED = RunStatus.SUSPENDED.name();

    @Override
    public void close() {
    }
}
