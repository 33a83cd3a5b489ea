package dev.baton.bench;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOutcome;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the benchmarks of one (backend, N, size) share inside one JVM: the seeded store, an
 * {@link Agent} per seeded agent id, the writer agent of the write benchmarks, the raw queries,
 * and the listing targets. Set by {@link BackendRun} before JMH starts (JMH runs in the same JVM).
 */
public final class Fixture {
    /** The agent id of the write benchmarks; no seeded run has it, so listings never see its runs. */
    public static final String WRITER = "bench-writer";
    /** How many different targets a listing benchmark cycles through. */
    public static final int TARGETS = 64;
    public static final int PAGE = 20;
    /** The date window of the thread + date benchmark: days 10 to 17 of the 30 seeded days. */
    public static final Instant FROM = DataSet.START.plus(Duration.ofDays(10));
    public static final Instant TO = DataSet.START.plus(Duration.ofDays(17)).minusMillis(1);

    static volatile @Nullable Fixture current;

    public final Backend backend;
    public final DataSet data;
    public final SnapshotStore store;
    public final @Nullable RawQueries raw;
    public final Agent[] agents = new Agent[DataSet.AGENTS];
    public final Agent writer;
    public final Target[] thread = new Target[TARGETS];
    public final Target[] resource = new Target[TARGETS];
    public final Target[] unfiltered = new Target[TARGETS];
    public final Target[] threadDates = new Target[TARGETS];
    /** "Waiting for me": the agent's runs whose waiting call {@link DataSet#asking()} may decide, page of 20 and the total. */
    public final Target[] waitingFor = new Target[TARGETS];

    /** One listing: which agent asks, Baton's options, the store's query parts and the raw query. */
    public record Target(Agent agent, AgentListSuspendedRunsOptions options, RawQueries.Query raw) {
        RunQuery storeQuery() {
            RunQuery.Builder b = RunQuery.forAgent(raw.agentId(), Instant.now())
                    .threadId(raw.threadId()).resourceId(raw.resourceId())
                    .createdFrom(options.fromDate()).createdTo(options.toDate()).deciders(raw.deciders());
            return b.page(0, PAGE).withPayload(false).build();   // as core lists: summaries, not payloads
        }
    }

    Fixture(Backend backend, DataSet data) {
        this.backend = backend;
        this.data = data;
        this.store = backend.openStore(data);
        this.raw = backend.raw(data);
        for (int a = 0; a < agents.length; a++) agents[a] = DataSet.agent(DataSet.agentId(a), store);
        this.writer = DataSet.agent(WRITER, store);
        for (int k = 0; k < TARGETS; k++) {
            int t = (k * 389) % DataSet.THREADS;
            int r = (k * 3889) % DataSet.RESOURCES;
            int a = (k * 37) % DataSet.AGENTS;
            thread[k] = target(t % DataSet.AGENTS, DataSet.threadId(t), null, null, null);
            resource[k] = target(r % DataSet.AGENTS, null, DataSet.resourceId(r), null, null);
            unfiltered[k] = target(a, null, null, null, null);
            threadDates[k] = target(t % DataSet.AGENTS, DataSet.threadId(t), null, FROM, TO);
            waitingFor[k] = new Target(agents[a], AgentListSuspendedRunsOptions.builder().waitingFor(DataSet.asking()).perPage(PAGE).page(0).build(),
                    new RawQueries.Query(DataSet.agentId(a), null, null, null, null, PAGE, DataSet.askingDeciders()));
        }
    }

    private Target target(int agent, @Nullable String threadId, @Nullable String resourceId,
                          @Nullable Instant from, @Nullable Instant to) {
        AgentListSuspendedRunsOptions o = AgentListSuspendedRunsOptions.builder().threadId(threadId).resourceId(resourceId)
                .fromDate(from).toDate(to).perPage(PAGE).page(0).build();
        RawQueries.Query q = new RawQueries.Query(DataSet.agentId(agent), threadId, resourceId,
                from == null ? null : from.toEpochMilli(), to == null ? null : to.toEpochMilli(), PAGE);
        return new Target(agents[agent], o, q);
    }

    /** Work of a stand-alone tool ({@link CycleCpu}, {@link CycleMix}) on a fixture. */
    @FunctionalInterface
    interface Work {
        void run(Fixture f) throws Exception;
    }

    /**
     * For the stand-alone tools' {@code main}: opens backend {@code name}, seeds the data set if an earlier run
     * has not, runs {@code work} on a fixture with the writer's and the raw baseline's runs purged before and after,
     * and exits the JVM (status 1 if anything failed, its stack trace printed).
     */
    static void runStandalone(String name, int n, int size, Work work) {
        int exit = 0;
        try (Backend backend = Backend.create(name, java.nio.file.Path.of("benchmarks", "target", "bench-data"))) {
            DataSet data = new DataSet(n, size);
            if (!backend.isSeeded(data)) backend.seed(data);
            Fixture f = new Fixture(backend, data);
            try {
                backend.purgeRaw(data);
                f.purgeWriter();
                work.run(f);
            } finally {
                f.purgeWriter();
                backend.purgeRaw(data);
                f.close();
            }
        } catch (Throwable e) {
            e.printStackTrace();
            exit = 1;
        }
        System.exit(exit);
    }

    static Fixture require(String backend, int n, int size) {
        Fixture f = current;
        if (f == null || !f.backend.name().equals(backend) || f.data.n != n || f.data.size != size) {
            throw new IllegalStateException("no fixture for " + backend + " n=" + n + " size=" + size
                    + ": run the benchmarks through dev.baton.bench.BenchMain, not JMH's own main");
        }
        return f;
    }

    private @Nullable CycleTemplate template;

    /** The rows of one real cycle on this store, captured once ({@link CycleTemplate}), for the raw baselines. */
    synchronized CycleTemplate template() {
        if (template == null) {
            template = CycleTemplate.capture(store, data.size);
            backend.purgeRaw(data);
        }
        return template;
    }

    /** Removes the runs the write benchmarks created. */
    void purgeWriter() {
        backend.purge(store, data, WRITER);
    }

    /**
     * Before measuring: Baton's listing and the raw query agree on every target (same runs, same
     * order, same total), a seeded run reads back as a waiting approval, and approving it through
     * Baton runs it to completion (then it is put back, so the data set stays whole).
     *
     * @return a one-line summary for the log and the report
     */
    String sanityCheck() {
        purgeWriter();
        int compared = 0;
        long listed = 0;
        long waiting = 0;
        long labelled = 0;
        for (Target[] kind : List.of(thread, resource, unfiltered, threadDates, waitingFor)) {
            for (Target t : kind) {
                AgentListSuspendedRunsResult baton = t.agent().listSuspendedRuns(t.options());
                listed += baton.total();
                if (kind == waitingFor) {
                    waiting += baton.total();
                    for (AgentRun run : baton.runs()) {
                        if (store.find(run.runId()).orElseThrow().deciders().isEmpty()) {
                            throw new IllegalStateException(backend.name() + ": run " + run.runId() + " has no labels but is waiting for "
                                    + DataSet.ASKING_NAME);
                        }
                        labelled++;
                    }
                }
                if (raw != null && (kind != waitingFor || raw.deciders())) {
                    RawQueries.Page r = raw.page(t.raw());
                    List<String> batonIds = baton.runs().stream().map(AgentRun::runId).toList();
                    List<String> rawIds = r.rows().stream().map(RawQueries.Row::runId).toList();
                    if (baton.total() != r.total() || !batonIds.equals(rawIds)) {
                        throw new IllegalStateException(backend.name() + ": Baton and the raw query disagree on " + t.raw()
                                + ": Baton total " + baton.total() + " " + batonIds + ", raw total " + r.total() + " " + rawIds);
                    }
                    compared++;
                }
                for (AgentRun run : baton.runs()) {
                    if (run.toolCalls().size() != 1 || !run.toolCalls().get(0).requiresApproval()) {
                        throw new IllegalStateException(backend.name() + ": seeded run " + run.runId()
                                + " does not read back as one waiting approval: " + run.toolCalls());
                    }
                }
            }
        }
        if (listed == 0) throw new IllegalStateException(backend.name() + ": the seeded data set lists nothing");
        long agentTotals = 0;
        for (Target t : unfiltered) agentTotals += t.agent().listSuspendedRuns(t.options()).total();
        if (waiting == 0 || waiting >= agentTotals) {
            throw new IllegalStateException(backend.name() + ": the waiting-for-me listing found " + waiting + " of " + agentTotals
                    + " runs: the labels are not seeded, or the filter filters nothing");
        }
        // approve one seeded run to completion through Baton, then put it back
        Target t = unfiltered[0];
        for (Target c : thread) {
            if (c.agent().listSuspendedRuns(c.options()).total() > 0) {
                t = c;
                break;
            }
        }
        AgentListSuspendedRunsResult page = t.agent().listSuspendedRuns(t.options());
        AgentRun run = page.runs().get(0);
        RunSnapshot original = store.find(run.runId()).orElseThrow();
        AgentResult done = t.agent().approveToolCall(run.runId(), run.toolCalls().get(0).toolCallId()).result();
        if (done.outcome() != RunOutcome.COMPLETED || !done.text().contains("booked")) {
            throw new IllegalStateException(backend.name() + ": approving seeded run " + run.runId() + " gave " + done.outcome()
                    + " '" + done.text() + "'", done.error());
        }
        if (store.find(run.runId()).isPresent()) {
            throw new IllegalStateException(backend.name() + ": completed run " + run.runId() + " is still stored");
        }
        if (!store.insert(original)) throw new IllegalStateException("could not put back seeded run " + run.runId());
        long after = t.agent().listSuspendedRuns(t.options()).total();
        if (after != page.total()) throw new IllegalStateException("putting back " + run.runId() + " changed the total");
        // the write path works on this backend
        AgentResult suspended = writer.generate(DataSet.PROMPT, dev.baton.agent.RunOptions.builder().threadId("w").build());
        if (suspended.outcome() != RunOutcome.SUSPENDED) throw new IllegalStateException("writer run did not suspend");
        purgeWriter();
        return "sanity: " + (raw == null ? "no raw query (memory)" : compared + " listings identical to the raw query") + ", " + listed
                + " runs listed in total, waiting for " + DataSet.ASKING_NAME + " " + waiting + " of " + agentTotals + " (" + labelled
                + " on the pages, every one labelled), a seeded run approved to completion and restored";
    }

    void close() {
        if (raw != null) raw.close();
        store.close();
        Objects.requireNonNull(backend);
    }
}
