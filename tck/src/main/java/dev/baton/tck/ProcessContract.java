package dev.baton.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.store.RunQuery;
import dev.baton.store.RunStatus;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.store.StoreCapability;
import dev.baton.tck.support.NamesTheRule;
import dev.baton.tck.support.Snapshots;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The cross-process half of the TCK: real separate JVMs (a {@code ProcessWorker} each) share the
 * store under test. Two of them race to approve the same run, 50 times; processes are killed
 * with {@code kill -9} while a run waits, while its tool runs, and after its result was stored; one
 * is stopped with {@code SIGTERM} while its tool runs and hands its run back as it leaves (rule R12).
 * The tool's side effect is a line in a file outside the JVMs, so executions are counted even
 * for killed processes.
 *
 * <p>Implement {@link #storeUrl()} (and {@link #storeProperties()}) so that another JVM opens
 * the same database: for H2 that means {@code AUTO_SERVER=TRUE}. The test JVM opens the store
 * too, briefly, to read its capabilities.
 *
 * <p>What it proves: the race proves {@link StoreCapability#SHARED} (compare-and-set atomic
 * across processes), and runs only for a store that declares it; the five {@code kill -9} tests
 * (while a run waits, while its tool runs, after its result was stored, and in the second step of
 * a two-step run) and the {@code SIGTERM} test prove {@link StoreCapability#DURABLE} (a run outlives the
 * process that stored it, and its lease lapses, or it is handed back, so another process continues it), and run only for a store that declares
 * that. A store that declares neither has nothing to prove here: its tests are skipped, and the
 * certification report says so without counting it against the store.
 *
 * <p>The scenarios are independent of one another (each has an agent id and a side-effect file of its
 * own, and its worker JVMs open the store and build the agent for it alone) and mostly wait, on JVMs
 * starting and on leases lapsing. The worker JVMs start with no store and come from a pool that every
 * scenario and test class of the test JVM shares: spares start in the background while scenarios wait,
 * and a JVM whose scenario ended cleanly closes its agent and store and serves a later scenario. A JVM
 * that was killed, stopped with {@code SIGTERM}, or sent into a tool that hangs never serves another, so
 * every kill is of a JVM that holds the scenario's run and nothing else. Where JUnit's parallel
 * execution is enabled ({@code junit.jupiter.execution.parallel.enabled}, as in Baton's own store
 * modules), the scenarios of a test that opts in with {@link #scenariosAtOnce()} (on a store that
 * several processes open at once, {@link StoreCapability#SHARED}) run three at a time; those of any
 * other test still run one at a time. The test class itself runs beside the others as their
 * configuration says (by default in the same thread, one class after another).
 */
@ExtendWith(NamesTheRule.class)
public abstract class ProcessContract {

    /**
     * The URL a separate JVM opens the store under test with.
     *
     * @return a URL for {@link SnapshotStores#open(String, Map)} that every JVM of the test opens the same database with
     */
    protected abstract String storeUrl();

    /**
     * Properties for {@link SnapshotStores#open(String, Map)}; none by default.
     *
     * @return the properties every JVM of the test opens the store with
     */
    protected Map<String, String> storeProperties() {
        return Map.of();
    }

    /**
     * Lease of the workers; short, so that recovery after a kill is quick.
     *
     * @return the lease duration of the worker JVMs' agents, in milliseconds (1500 by default)
     */
    protected long leaseMillis() {
        return 1500;
    }

    /**
     * Whether this test's scenarios may run at the same time (three at a time), where JUnit's parallel
     * execution is enabled: no by default. Say yes only for a store that several processes open at
     * once ({@link StoreCapability#SHARED}) and whose every write is safe from a {@code kill -9} as
     * soon as the write returns, whatever the load: several scenarios at once keep the machine busy,
     * and the kills then land sooner after the writes than they do one scenario at a time.
     *
     * @return true to run the scenarios at the same time; false (the default) for one at a time
     */
    protected boolean scenariosAtOnce() {
        return false;
    }

    @TempDir
    Path dir;
    private Path sideEffects;
    private String agentId;
    private Set<StoreCapability> capabilities = Set.of();
    private final List<Worker> workers = new ArrayList<>();
    /** Turns per test class: one scenario at a time, or {@link #AT_ONCE} for a test that opts in (see {@link #prepare()}). */
    private static final Map<Class<?>, Semaphore> TURNS = new ConcurrentHashMap<>();
    /** How many scenarios of a test that opts in run at the same time: at most six worker JVMs in use (and the pool's spares). */
    private static final int AT_ONCE = 3;
    private Semaphore turn;

    /**
     * Not a test, and JUnit 5 never calls it: a guard for runners that cannot run JUnit 5. Maven
     * Surefire 2.x (Maven 3.8's default) runs the public {@code test*} methods of a public class as
     * plain tests instead of the contract's tests; this one then fails, saying why.
     */
    public void testRunnerRunsTheJUnitPlatform() {
        throw new AssertionError(Certification.WRONG_RUNNER);
    }

    @BeforeEach
    void prepare() throws IOException, InterruptedException {
        sideEffects = dir.resolve("side-effects.txt");
        Files.writeString(sideEffects, "");
        agentId = Snapshots.uniqueId("tck-proc");
        // scenarios run concurrently where JUnit's parallel execution is on: each takes a turn for its whole run,
        // one at a time, or AT_ONCE at a time for a test that opts in (more JVMs starting at once starve each other)
        Semaphore mine = TURNS.computeIfAbsent(getClass(), c -> new Semaphore(scenariosAtOnce() ? AT_ONCE : 1));
        mine.acquire();
        turn = mine;
        // opened and closed before any worker starts, for stores that one process at a time may open
        try (SnapshotStore store = SnapshotStores.open(storeUrl(), storeProperties())) {
            capabilities = store.capabilities();
            Certification.record(getClass(), store);
        }
    }

    private void requires(StoreCapability capability) {
        assumeTrue(capabilities.contains(capability), "the store does not declare " + capability);
    }

    @AfterEach
    void stopWorkers() {
        // workers still alive at the end close their agent and store and go back to the pool (or stop cleanly), so that
        // only the kills a test makes are kills
        try {
            for (Worker w : workers) {
                if (!w.jvm.process.isAlive()) continue;
                if (w.tainted) w.jvm.exit();
                else WorkerPool.giveBack(w.jvm);
            }
        } finally {
            if (turn != null) turn.release();
        }
    }

    /**
     * A worker JVM in this scenario: one from the {@link WorkerPool}, with this scenario's store and agent open in it.
     */
    private final class Worker {
        final WorkerPool.Jvm jvm;
        final String name;
        /** Whether a command may have left a tool or a model call hanging in it: then it never serves another scenario. */
        boolean tainted;

        Worker(String name) throws IOException {
            this(name, leaseMillis());
        }

        Worker(String name, long leaseMillis) throws IOException {
            this.name = name;
            jvm = WorkerPool.take();
            workers.add(this);
            jvm.forgetStderr();
            StringBuilder scenario = new StringBuilder("scenario ").append(encode(storeUrl())).append(' ')
                    .append(encode(agentId)).append(' ').append(encode(sideEffects.toString())).append(' ').append(leaseMillis);
            storeProperties().forEach((k, v) -> scenario.append(' ').append(encode(k + "=" + v)));
            send(scenario.toString());
            String first;
            try {
                first = answer(60);
            } catch (AssertionError e) {
                throw new AssertionError("worker " + name + " did not open the store: " + e.getMessage() + jvm.stderr(), e);
            }
            assertThat(first).as(() -> "worker " + name + " opens the store and starts its agent" + jvm.stderr()).isEqualTo("ready");
        }

        private static String encode(String field) {
            return URLEncoder.encode(field, StandardCharsets.UTF_8);
        }

        void send(String command) throws IOException {
            if (command.startsWith("approve-hang") || command.startsWith("approve-slow")) tainted = true;
            jvm.send(command);
        }

        String answer(int seconds) {
            try {
                String a = jvm.answers.poll(seconds, TimeUnit.SECONDS);
                if (a == null) throw new AssertionError("worker " + name + " gave no answer in " + seconds + " s");
                return a;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }

        String[] ask(String command) throws IOException {
            send(command);
            String a = answer(60);
            if (a.startsWith("error")) throw new AssertionError("worker " + name + " failed on '" + command + "': " + a + jvm.stderr());
            return a.split(" ");
        }

        /** {@code kill -9}: the JVM gets no chance to clean up. */
        void kill() throws InterruptedException {
            tainted = true;
            jvm.process.destroyForcibly();
            assertThat(jvm.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }

        /** {@code SIGTERM}: the JVM runs its shutdown hooks, so its agent closes gracefully. */
        void terminate() throws InterruptedException {
            tainted = true;
            jvm.process.destroy();
            assertThat(jvm.process.waitFor(30, TimeUnit.SECONDS)).as("the worker ends on SIGTERM").isTrue();
        }
    }

    private long executions(String runId) throws IOException {
        return Files.readAllLines(sideEffects).stream().filter(runId::equals).count();
    }

    /** Waits (polling, bounded) until the run is listed as suspended again after its lease lapsed. */
    private void awaitListedAgain(String runId) throws Exception {
        String last;
        try (SnapshotStore store = SnapshotStores.open(storeUrl(), storeProperties())) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                boolean listed = store.list(RunQuery.forAgent(agentId, Instant.now()).status(RunStatus.SUSPENDED).build())
                        .items().stream().anyMatch(s -> s.runId().equals(runId));
                if (listed) return;
                Thread.sleep(100);
            }
            last = store.find(runId).map(s -> s.status() + " version " + s.version() + " lease " + s.leaseOwner() + " until "
                    + s.leaseExpiresAt()).orElse("not stored");
        }
        throw new AssertionError("run " + runId + " was not listed again after its lease expired; it is " + last
                + " (now " + Instant.now() + ")");
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @ProvesCapability(StoreCapability.SHARED)
    void twoProcessesRacingToApproveTheSameRunExecuteTheToolExactlyOnceInEachOfFiftyRounds() throws Exception {
        requires(StoreCapability.SHARED);
        Worker a = new Worker("a");
        Worker b = new Worker("b");
        for (int round = 0; round < 50; round++) {
            String[] s = (round % 2 == 0 ? a : b).ask("start race-" + round);
            String runId = s[1];
            String callId = s[2];
            long at = System.currentTimeMillis() + 150;
            a.send("approve-at " + at + " " + runId + " " + callId);
            b.send("approve-at " + at + " " + runId + " " + callId);
            List<String> results = List.of(a.answer(60), b.answer(60));
            assertThat(results).as("round %d", round).contains("won COMPLETED");
            assertThat(results.stream().filter(r -> r.startsWith("won")).count()).as("winners in round %d", round).isEqualTo(1);
            assertThat(results.stream().filter(r -> r.startsWith("lost")).count()).as("losers in round %d: %s", round, results)
                    .isEqualTo(1);
            assertThat(executions(runId)).as("tool executions in round %d", round).isEqualTo(1);
        }
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @ProvesCapability(StoreCapability.DURABLE)
    void aProcessKilledWhileItsRunWaitsLosesNothing() throws Exception {
        requires(StoreCapability.DURABLE);
        Worker a = new Worker("a");
        String[] s = a.ask("start killed-waiting");
        a.kill();
        Worker b = new Worker("b");
        String[] listed = b.ask("list");
        assertThat(listed).contains(s[1]);
        assertThat(b.ask("approve " + s[1] + " " + s[2])).containsExactly("won", "COMPLETED");
        assertThat(executions(s[1])).isEqualTo(1);
        assertThat(b.ask("list")[1]).isEqualTo("0");
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @ProvesCapability(StoreCapability.DURABLE)
    void aProcessKilledWhileTheToolRunsIsRecoveredAndTheToolRunsOnce() throws Exception {
        requires(StoreCapability.DURABLE);
        Worker a = new Worker("a");
        String[] s = a.ask("start killed-in-tool");
        a.send("approve-hang-in-tool " + s[1] + " " + s[2]);
        assertThat(a.answer(60)).isEqualTo("tool-started " + s[1]);
        a.kill();
        awaitListedAgain(s[1]);
        Worker b = new Worker("b");
        // the approval was recorded with the claim: nothing waits for a human, the run is continued
        assertThat(b.ask("continue " + s[1])).containsExactly("won", "COMPLETED");
        assertThat(executions(s[1])).isEqualTo(1);
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @ProvesCapability(StoreCapability.DURABLE)
    void aProcessKilledAfterTheToolResultWasStoredNeverRunsTheToolAgain() throws Exception {
        requires(StoreCapability.DURABLE);
        Worker a = new Worker("a");
        String[] s = a.ask("start killed-after-tool");
        a.send("approve-hang-after-tool " + s[1] + " " + s[2]);
        assertThat(a.answer(60)).isEqualTo("model-waiting");
        a.kill();
        assertThat(executions(s[1])).isEqualTo(1);
        awaitListedAgain(s[1]);
        Worker b = new Worker("b");
        assertThat(b.ask("continue " + s[1])).containsExactly("won", "COMPLETED");
        assertThat(executions(s[1])).as("the stored result is used; the tool is not run again").isEqualTo(1);
        assertThat(b.ask("list")[1]).isEqualTo("0");
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @ProvesCapability(StoreCapability.DURABLE)
    void aProcessKilledInStepTwoWhileAToolWithoutApprovalRunsIsContinuedByAnotherProcess() throws Exception {
        requires(StoreCapability.DURABLE);
        Worker a = new Worker("a");
        a.ask("two-steps");
        String[] s = a.ask("start killed-in-step-two-tool");
        a.send("approve-hang-in-second-tool " + s[1] + " " + s[2]);
        assertThat(a.answer(60)).isEqualTo("second-tool-started " + s[1]);
        a.kill();
        awaitListedAgain(s[1]);
        Worker b = new Worker("b");
        b.ask("two-steps");
        assertThat(b.ask("continue " + s[1])).containsExactly("won", "COMPLETED");
        assertThat(executions(s[1])).as("the approved tool's result was stored in step one").isEqualTo(1);
        assertThat(executions(s[1] + " weather")).as("the interrupted tool ran to its end once").isEqualTo(1);
        assertThat(b.ask("list")[1]).isEqualTo("0");
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @ProvesCapability(StoreCapability.DURABLE)
    void aProcessKilledInTheModelCallAfterStepTwoIsContinuedAndNoToolRunsAgain() throws Exception {
        requires(StoreCapability.DURABLE);
        Worker a = new Worker("a");
        a.ask("two-steps");
        String[] s = a.ask("start killed-after-step-two");
        a.send("approve-hang-after-second-tool " + s[1] + " " + s[2]);
        assertThat(a.answer(60)).isEqualTo("model-waiting");
        a.kill();
        awaitListedAgain(s[1]);
        Worker b = new Worker("b");
        b.ask("two-steps");
        assertThat(b.ask("continue " + s[1])).containsExactly("won", "COMPLETED");
        assertThat(executions(s[1])).isEqualTo(1);
        assertThat(executions(s[1] + " weather")).isEqualTo(1);
        assertThat(b.ask("list")[1]).isEqualTo("0");
    }

    @Test
    @Execution(ExecutionMode.CONCURRENT)
    @ProvesCapability(StoreCapability.DURABLE)
    void aProcessStoppedWithSigtermDuringAToolHandsTheRunBackAndAnotherContinuesItWellWithinTheLease() throws Exception {
        requires(StoreCapability.DURABLE);
        long lease = 60_000;   // a run that waited for its lease would not be listed again within this test
        Worker a = new Worker("a", lease);
        String[] s = a.ask("start sigterm-in-tool");
        a.send("approve-slow-tool " + s[1] + " " + s[2]);
        assertThat(a.answer(60)).isEqualTo("tool-started " + s[1]);
        a.terminate();
        long exited = System.nanoTime();
        awaitListedAgain(s[1]);
        long listedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - exited);
        // well within the lease; a third of it leaves room for a loaded machine (5 s was missed by 0.2 s at a load of 20)
        assertThat(listedAfterMillis).as("listed again at once, not after the %d ms lease", lease).isLessThan(lease / 3);
        assertThat(executions(s[1])).as("rule R12: the tool finished within the grace period").isEqualTo(1);
        try (SnapshotStore store = SnapshotStores.open(storeUrl(), storeProperties())) {
            String summary = store.find(s[1]).orElseThrow().summary();
            assertThat(summary).as("rule R12: why the run was handed back, as its listing says it (a tool that finished"
                    + " within the grace period is no tool under way)").contains("its instance shut down; continueRun goes on")
                    .doesNotContain("past the grace period").doesNotContain("runs again");
        }
        Worker b = new Worker("b", lease);
        assertThat(b.ask("continue " + s[1])).containsExactly("won", "COMPLETED");
        assertThat(executions(s[1])).as("its result was handed back with the run: the tool ran once").isEqualTo(1);
        assertThat(b.ask("list")[1]).isEqualTo("0");
    }
}
