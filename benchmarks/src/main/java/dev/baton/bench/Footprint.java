package dev.baton.bench;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.memory.MemorySnapshotStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.bson.RawBsonDocument;
import org.bson.Document;
import org.bson.codecs.DocumentCodec;

/**
 * Bytes stored per run on every store: {@code k} runs of {@link DataSet} (what core writes for a
 * run waiting for an approval, padded to {@code --size} characters) inserted through the store,
 * then the store's own accounting: PostgreSQL {@code pg_total_relation_size}, MariaDB
 * {@code information_schema} (InnoDB's estimate after {@code ANALYZE}), H2 and SQLite the size of a
 * database file of their own, Redis the growth of {@code INFO used_memory} (and {@code MEMORY
 * USAGE} of sampled keys), the in-memory store the growth of the heap after a GC. MongoDB runs
 * in-JVM here (mongo-java-server): its figure is the BSON size of one stored document, an
 * estimate only; a real server adds its indexes and compresses (WiredTiger).
 *
 * <pre>
 * java -jar benchmarks/target/baton-benchmarks.jar footprint [--quick] [--k 20000] [--size 2048] [--backends ...]
 * </pre>
 */
public final class Footprint {
    private Footprint() {
    }

    public static void main(String[] argv) throws Exception {
        List<String> args = new ArrayList<>(List.of(argv));
        boolean quick = args.remove("--quick");
        Map<String, String> o = new LinkedHashMap<>();
        for (int k = 0; k + 1 < args.size(); k += 2) o.put(args.get(k).replaceFirst("^--", ""), args.get(k + 1));
        int k = Integer.parseInt(o.getOrDefault("k", quick ? "2000" : "20000"));
        int size = Integer.parseInt(o.getOrDefault("size", "2048"));
        List<String> backends = List.of(o.getOrDefault("backends", String.join(",", Backend.ALL)).split(","));
        Path dir = Files.createTempDirectory("baton-footprint");
        DataSet data = new DataSet(k, size);
        List<RunSnapshot> runs = new ArrayList<>(k);
        for (int i = 0; i < k; i++) runs.add(data.run(i));
        long payload = 0;
        for (RunSnapshot r : runs) payload += r.payload().length() + (r.summary() == null ? 0 : r.summary().length());
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "| store | bytes per run | how it was measured |%n|---|---:|---|%n"));
        System.err.printf(Locale.ROOT, "[footprint] %,d runs, payload + summary %.0f characters per run%n", k, (double) payload / k);
        for (String b : backends) {
            String how;
            double bytes;
            switch (b) {
                case "postgres", "mariadb" -> {
                    String url = b.equals("postgres") ? Backend.env("BATON_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres")
                            : Backend.env("BATON_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test?user=root&sslMode=disable");
                    String t = "baton_footprint";
                    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                        for (String suffix : new String[] {"_deciders", "", "_schema_history", "_threads", "_messages"}) s.execute("DROP TABLE IF EXISTS " + t + suffix);
                        fill(SnapshotStores.open(url, Map.of("table", t)), runs);
                        if (b.equals("postgres")) {
                            s.execute("VACUUM ANALYZE " + t);
                            try (ResultSet rs = s.executeQuery("SELECT pg_total_relation_size('" + t + "')")) {
                                rs.next();
                                bytes = rs.getLong(1) / (double) k;
                            }
                            how = "pg_total_relation_size (heap, TOAST, 5 indexes) / runs";
                        } else {
                            s.execute("ANALYZE TABLE " + t);
                            try (ResultSet rs = s.executeQuery("SELECT data_length + index_length FROM information_schema.tables"
                                    + " WHERE table_schema = DATABASE() AND table_name = '" + t + "'")) {
                                rs.next();
                                bytes = rs.getLong(1) / (double) k;
                            }
                            how = "information_schema data_length + index_length (InnoDB estimate) / runs";
                        }
                        for (String suffix : new String[] {"_deciders", "", "_schema_history", "_threads", "_messages"}) s.execute("DROP TABLE IF EXISTS " + t + suffix);
                    }
                }
                case "h2", "sqlite" -> {
                    Path file = dir.resolve(b + (b.equals("h2") ? "" : ".db"));
                    String url = b.equals("h2") ? "jdbc:h2:file:" + file : "jdbc:sqlite:" + file;
                    fill(SnapshotStores.open(url), runs);
                    if (b.equals("sqlite")) {
                        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                            s.execute("VACUUM");
                        }
                    }
                    Path real = b.equals("h2") ? dir.resolve("h2.mv.db") : file;
                    bytes = Files.size(real) / (double) k;
                    how = "size of a database file of its own / runs";
                }
                case "redis" -> {
                    String url = Backend.env("BATON_TEST_REDIS_URL", "redis://127.0.0.1:6379");
                    RedisClient client = RedisClient.create(url);
                    try (StatefulRedisConnection<String, String> c = client.connect()) {
                        RedisCommands<String, String> sync = c.sync();
                        String prefix = "baton_footprint";
                        RedisBackend.deleteKeys(sync, prefix + ":*");
                        long before = usedMemory(sync);
                        fill(SnapshotStores.open(url, Map.of("keyPrefix", prefix)), runs);
                        long after = usedMemory(sync);
                        long sampled = 0;
                        int keys = 0;
                        KeyScanCursor<String> cur = sync.scan(ScanArgs.Builder.matches(prefix + ":*").limit(1000));
                        for (String key : cur.getKeys()) {
                            Long u = sync.memoryUsage(key);
                            if (u != null) sampled += u;
                            keys++;
                        }
                        RedisBackend.deleteKeys(sync, prefix + ":*");
                        bytes = (after - before) / (double) k;
                        how = String.format(Locale.ROOT, "INFO used_memory growth / runs (other clients share the server; MEMORY USAGE of %d"
                                + " sampled keys averages %.0f bytes a key)", keys, keys == 0 ? 0.0 : sampled / (double) keys);
                    } finally {
                        client.shutdown();
                    }
                }
                case "mongo" -> {
                    MongoServer server = new MongoServer(new MemoryBackend());
                    InetSocketAddress a = server.bind();
                    String url = "mongodb://127.0.0.1:" + a.getPort() + "/footprint";
                    fill(SnapshotStores.open(url, Map.of("collection", "runs")), runs.subList(0, Math.min(runs.size(), 1000)));
                    try (MongoClient mc = MongoClients.create(url)) {
                        long total = 0;
                        int docs = 0;
                        for (Document d : mc.getDatabase("footprint").getCollection("runs").find().limit(1000)) {
                            total += new RawBsonDocument(d, new DocumentCodec()).getByteBuffer().remaining();
                            docs++;
                        }
                        bytes = total / (double) Math.max(1, docs);
                    }
                    server.shutdownNow();
                    how = "ESTIMATE: BSON size of a stored document (in-JVM server; a real MongoDB adds its indexes, WiredTiger compresses)";
                }
                case "memory" -> {
                    long before = heap();
                    SnapshotStore store = MemorySnapshotStore.create();
                    for (RunSnapshot r : runs) store.insert(r);
                    long after = heap();
                    bytes = (after - before) / (double) k;
                    store.close();
                    how = "heap growth after a GC / runs (the runs' strings included)";
                }
                default -> throw new IllegalArgumentException("unknown backend " + b);
            }
            md.append(String.format(Locale.ROOT, "| %s | %,.0f | %s |%n", b, bytes, how));
            System.err.printf(Locale.ROOT, "[footprint] %s: %.0f bytes per run%n", b, bytes);
        }
        System.out.println(md);
    }

    private static void fill(SnapshotStore store, List<RunSnapshot> runs) {
        try (store) {
            for (RunSnapshot r : runs) {
                if (!store.insert(r)) throw new IllegalStateException("run " + r.runId() + " was there already");
            }
        }
    }

    private static long usedMemory(RedisCommands<String, String> sync) {
        for (String line : sync.info("memory").split("\r?\n")) {
            if (line.startsWith("used_memory:")) return Long.parseLong(line.substring("used_memory:".length()).trim());
        }
        throw new IllegalStateException("INFO memory has no used_memory");
    }

    private static long heap() {
        for (int i = 0; i < 3; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
