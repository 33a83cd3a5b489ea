package dev.baton.http;

import static org.assertj.core.api.Assertions.assertThat;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.baton.agent.Agent;
import dev.baton.agent.RunOptions;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Load on loopback, bounded in count and time: 50 clients approve 50 distinct runs at once, and 16
 * clients race to approve one run (exactly one gets the stream, the others 409). Writes p50 / p99
 * latency and throughput per store to {@code target/http-load.md}. In the race the approved tool
 * waits until all 16 have their answer, as a real tool or model call would hold the run.
 *
 * <p>In the build (small, a few seconds): memory and SQLite, 2 rounds of 50 and 3 races. The full
 * measurement, by hand, for docs/BENCHMARKS.md:
 * <pre>
 * export BATON_TEST_POSTGRES_URL=... BATON_TEST_MARIADB_URL=... BATON_TEST_REDIS_URL=...
 * ./mvnw -B -pl http -am verify -Dtest=HttpLoadTest -Dsurefire.failIfNoSpecifiedTests=false -Dbaton.http.load=full
 * </pre>
 * (every store; MongoDB on the in-JVM mongo-java-server, not representative; 10 rounds, 20 races).
 */
class HttpLoadTest {
    static final int CLIENTS = 50;
    static final int RACERS = 16;
    static final boolean FULL = "full".equals(System.getProperty("baton.http.load"));
    static final int ROUNDS = FULL ? 10 : 2;
    static final int RACES = FULL ? 20 : 3;
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    static final List<String> REPORT = new ArrayList<>();
    static MongoServer mongo;

    record Result(int status, long nanos, String body) {
    }

    @AfterAll
    static void writeReport() throws IOException {
        if (mongo != null) mongo.shutdownNow();
        if (REPORT.isEmpty()) return;
        List<String> lines = new ArrayList<>();
        lines.add("| store | scenario | requests | p50 | p99 | throughput |");
        lines.add("|---|---|---:|---:|---:|---:|");
        lines.addAll(REPORT);
        lines.add("");
        lines.add("Machine: " + Runtime.getRuntime().availableProcessors() + " cores, Java " + System.getProperty("java.version")
                + (FULL ? ", full run" : ", the build's small run") + ".");
        Path out = Path.of("target", "http-load.md");
        Files.createDirectories(out.getParent());
        Files.write(out, lines, StandardCharsets.UTF_8);
        lines.forEach(System.out::println);
    }

    static List<String[]> stores() {
        List<String[]> s = new ArrayList<>();
        s.add(new String[] {"memory", "memory:"});
        s.add(new String[] {"SQLite", "jdbc:sqlite:" + Path.of("target", "http-load-" + UUID.randomUUID() + ".db").toAbsolutePath()});
        if (!FULL) return s;
        s.add(new String[] {"PostgreSQL", env("BATON_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres")});
        s.add(new String[] {"MariaDB", env("BATON_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test?user=root&sslMode=disable")});
        s.add(new String[] {"Redis", env("BATON_TEST_REDIS_URL", "redis://127.0.0.1:6379")});
        String mongoUrl = System.getenv("BATON_TEST_MONGO_URL");
        if (mongoUrl == null) {
            mongo = new MongoServer(new MemoryBackend());
            mongo.bind("127.0.0.1", 0);
            InetSocketAddress a = mongo.getLocalAddress();
            s.add(new String[] {"MongoDB (in-JVM mongo-java-server, not representative)", "mongodb://127.0.0.1:" + a.getPort() + "/baton_http_load"});
        } else {
            s.add(new String[] {"MongoDB", mongoUrl});
        }
        return s;
    }

    static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    @Test
    void fiftyClientsApproveDistinctRunsAndSixteenRaceForOne() throws Exception {
        for (String[] store : stores()) {
            measure(store[0], store[1]);
        }
    }

    private void measure(String name, String url) throws Exception {
        String agentId = "http-load-" + UUID.randomUUID().toString().substring(0, 8);
        try (SnapshotStore store = SnapshotStores.open(url)) {
            Agent agent = TestAgents.concierge(agentId, store, Clock.systemUTC());
            // the race's run holds its tool until every racer has its answer: a real tool or model call takes
            // that long anyway, and without it a fast store completes the run before the last racer arrives (404)
            AtomicReference<CountDownLatch> gate = new AtomicReference<>(new CountDownLatch(0));
            Agent racing = Agent.builder(agentId + "-race")
                    .model(dev.baton.model.DeterministicModel.builder().whenUserSays("launch", "launch", java.util.Map.of()).build())
                    .tools(dev.baton.tool.Tool.builder("launch").requireApproval(true)
                            .execute((input, ctx) -> gate.get().await(30, TimeUnit.SECONDS)).build())
                    .store(store)
                    .build();
            BatonHttpApi api = BatonHttpApi.builder().agents(agent, racing)
                    .authenticator(Authenticator.bearerTokens().token(TestServer.ADMIN, Principal.unrestricted("load")).build())
                    // every client is the one principal "load": let all of them stream at once (the bound is StreamLimitTest's)
                    .maxStreamsPerPrincipal(CLIENTS + RACERS)
                    .build();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            try (BatonHttpServer server = BatonHttpServer.builder(api).port(0).threads(CLIENTS + RACERS).start()) {
                URI base = server.uri().resolve("agents/" + agentId + "/runs/");

                // 50 clients, 50 distinct runs, all at once
                List<Long> latencies = new ArrayList<>();
                long wall = 0;
                for (int round = FULL ? -1 : 0; round < ROUNDS; round++) {   // the full run warms up with one round first
                    List<String> runs = new ArrayList<>();
                    for (int i = 0; i < CLIENTS; i++) runs.add(suspend(agent, "load-" + i));
                    long start = System.nanoTime();
                    List<Result> results = all(clients, runs.stream().map(run -> approve(http, base, run, null)).toList());
                    if (round >= 0) wall += System.nanoTime() - start;
                    for (Result r : results) {
                        assertThat(r.status()).as(name + ": " + r.body()).isEqualTo(200);
                        assertThat(r.body()).as(name).contains("event: outcome", "\"outcome\":\"COMPLETED\"");
                        if (round >= 0) latencies.add(r.nanos());
                    }
                    assertThat(agent.listSuspendedRuns().total()).as(name + ": every run completed").isZero();
                }
                REPORT.add(row(name, CLIENTS + " clients, distinct runs", latencies, wall));

                // 16 clients, one run
                List<Long> losers = new ArrayList<>();
                long raceWall = 0;
                URI raceBase = server.uri().resolve("agents/" + racing.id() + "/runs/");
                for (int race = 0; race < RACES; race++) {
                    String run = racing.generate("launch", RunOptions.DEFAULT).runId();
                    CountDownLatch answered = new CountDownLatch(RACERS);
                    gate.set(new CountDownLatch(1));
                    List<java.util.concurrent.Callable<Result>> same = new ArrayList<>();
                    for (int i = 0; i < RACERS; i++) same.add(approve(http, raceBase, run, answered));
                    long start = System.nanoTime();
                    List<Future<Result>> futures = start(clients, same);
                    // every racer has its status line: the winner's stream is open, its tool waits; then let it finish
                    assertThat(answered.await(REQUEST_TIMEOUT.toSeconds(), TimeUnit.SECONDS)).as(name + ": all answered").isTrue();
                    gate.get().countDown();
                    List<Result> results = collect(futures);
                    raceWall += System.nanoTime() - start;
                    List<Result> won = results.stream().filter(r -> r.status() == 200).toList();
                    assertThat(won).as(name + ": exactly one gets the stream").hasSize(1);
                    assertThat(won.get(0).body()).contains("\"outcome\":\"COMPLETED\"");
                    List<Result> lost = results.stream().filter(r -> r.status() != 200).toList();
                    assertThat(lost).hasSize(RACERS - 1).allSatisfy(r -> assertThat(r.status()).as(r.body()).isEqualTo(409));
                    lost.forEach(r -> losers.add(r.nanos()));
                }
                REPORT.add(row(name, RACERS + " clients race for one run: the 15 answers 409", losers, raceWall));
            } finally {
                clients.shutdownNow();
            }
        }
    }

    static String suspend(Agent agent, String thread) {
        return agent.generate("Book a flight to Oslo", RunOptions.builder().threadId(thread).resourceId("load").build()).runId();
    }

    /** Approves {@code run}; counts {@code answered} down once the status line is in. */
    static java.util.concurrent.Callable<Result> approve(HttpClient http, URI base, String run, @Nullable CountDownLatch answered) {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(run + "/approve"))
                .timeout(REQUEST_TIMEOUT)
                .header("Authorization", "Bearer " + TestServer.ADMIN)
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"toolCallId\":\"call_1_0\"}")).build();
        return () -> {
            long start = System.nanoTime();
            HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            if (answered != null) answered.countDown();
            String body;
            try (InputStream in = r.body()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            return new Result(r.statusCode(), System.nanoTime() - start, body);
        };
    }

    /** Starts every call at once (a latch), waits for all, bounded. */
    static List<Result> all(ExecutorService pool, List<java.util.concurrent.Callable<Result>> calls) throws Exception {
        return collect(start(pool, calls));
    }

    static List<Future<Result>> start(ExecutorService pool, List<java.util.concurrent.Callable<Result>> calls) throws Exception {
        CountDownLatch ready = new CountDownLatch(calls.size());
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Result>> futures = new ArrayList<>();
        for (java.util.concurrent.Callable<Result> c : calls) {
            futures.add(pool.submit(() -> {
                ready.countDown();
                go.await();
                return c.call();
            }));
        }
        assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
        go.countDown();
        return futures;
    }

    static List<Result> collect(List<Future<Result>> futures) throws Exception {
        List<Result> out = new ArrayList<>();
        for (Future<Result> f : futures) out.add(f.get(REQUEST_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS));
        return out;
    }

    static String row(String store, String scenario, List<Long> nanos, long wallNanos) {
        long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
        // throughput: every request of the scenario (a race: all 16) over the time the batches took
        int requests = scenario.contains("race") ? sorted.length / (RACERS - 1) * RACERS : sorted.length;
        String throughput = wallNanos <= 0 ? "(see below)"
                : String.format(Locale.ROOT, "%.0f req/s", requests / (wallNanos / 1e9));
        return String.format(Locale.ROOT, "| %s | %s | %d | %.1f ms | %.1f ms | %s |", store, scenario, sorted.length,
                percentile(sorted, 50) / 1e6, percentile(sorted, 99) / 1e6, throughput);
    }

    static long percentile(long[] sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
