package dev.baton.bench;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.store.DecisionPage;
import dev.baton.store.DecisionRecord;
import java.util.List;
import java.util.Random;

/**
 * What the audit-trail benchmarks ({@link DecisionBenchmark}, {@link RedisDecisionBenchmark},
 * {@link MongoDecisionBenchmark}) share: the data's shape, the 64 targets of each filter (drawn from
 * the same seed on every store), Baton's side of each measurement, and the check, before measuring,
 * that Baton's first page equals the raw query's on every target.
 */
final class DecisionTargets {
    static final String AGENT = "bench-agent";
    static final int PAGE = 50;
    static final int TARGETS = 64;
    static final int RUNS_PER_THREAD = 5;
    static final int DECISIONS_PER_RUN = 4;

    /** A filter of the trail: Baton's option, and the stores' names of its field. */
    enum Filter {
        RUN, THREAD, RESOURCE, ACTOR;

        AgentListDecisionsOptions options(String value) {
            AgentListDecisionsOptions.Builder b = AgentListDecisionsOptions.builder().limit(PAGE);
            return switch (this) {
                case RUN -> b.runId(value).build();
                case THREAD -> b.threadId(value).build();
                case RESOURCE -> b.resourceId(value).build();
                case ACTOR -> b.actor(value).build();
            };
        }
    }

    /**
     * One seeded record: the {@code k}-th of {@link #total(int) total(n)}; the first n are the agent's,
     * the rest another agent's, so scoping is real.
     */
    record Seeded(int k, String agentId, String decisionId, String runId, String threadId, String resourceId,
                  String toolCallId, String actor, long decidedAt) {
    }

    /** Where a store's seeding writes each record. */
    interface Sink {
        void accept(Seeded record) throws Exception;
    }

    /** {@return how many records are seeded for n of the agent: n, and a tenth as many of another agent} */
    static int total(int n) {
        return n + n / 10;
    }

    /**
     * The records every store's benchmark seeds, in order, from one seed: 4 a run, 5 runs a thread,
     * 997 resources, 200 actors, one a second with a random millisecond. Each store writes them in its
     * own layout; the same records make the same targets on every store.
     *
     * @param n    how many records of the agent
     * @param sink where each record goes
     * @throws Exception if the sink fails
     */
    static void seed(int n, Sink sink) throws Exception {
        long t0 = 1_780_000_000_000L;
        Random r = new Random(24);
        int total = total(n);
        for (int k = 0; k < total; k++) {
            boolean other = k >= n;
            int run = (other ? k - n : k) / DECISIONS_PER_RUN;
            String actor = "actor-" + r.nextInt(200);
            long decidedAt = t0 + k * 1000L + r.nextInt(1000);
            sink.accept(new Seeded(k, other ? "other-agent" : AGENT, String.format("%012d-%s", k, other ? "o" : "a"), "run-" + run,
                    "thread-" + run / RUNS_PER_THREAD, "resource-" + run % 997, "call-" + k % DECISIONS_PER_RUN, actor, decidedAt));
        }
    }

    /** The raw query of one store: the ids of the first page for a filter's value. */
    interface Raw {
        List<String> page(Filter filter, String value) throws Exception;
    }

    private final String[][] values = new String[Filter.values().length][TARGETS];
    private int i;

    /** The targets among {@code n} seeded records: 4 a run, 5 runs a thread, 997 resources, 200 actors. */
    DecisionTargets(int n) {
        Random r = new Random(7);
        int runCount = n / DECISIONS_PER_RUN;
        for (int k = 0; k < TARGETS; k++) {
            int run = r.nextInt(runCount);
            values[Filter.RUN.ordinal()][k] = "run-" + run;
            values[Filter.THREAD.ordinal()][k] = "thread-" + run / RUNS_PER_THREAD;
            values[Filter.RESOURCE.ordinal()][k] = "resource-" + run % 997;
            values[Filter.ACTOR.ordinal()][k] = "actor-" + r.nextInt(200);
        }
    }

    /** The next target of a filter (round robin over the 64). */
    String next(Filter filter) {
        return values[filter.ordinal()][(i++) & (TARGETS - 1)];
    }

    /** Baton's side: the first page of the next target. */
    DecisionPage baton(Agent agent, Filter filter) {
        return agent.listDecisions(filter.options(next(filter)));
    }

    /** Baton's first page equals the raw one, and is not empty, on every target of every filter. */
    void check(Agent agent, Raw raw) throws Exception {
        for (Filter f : Filter.values()) {
            for (String value : values[f.ordinal()]) {
                List<String> ids = agent.listDecisions(f.options(value)).items().stream().map(DecisionRecord::decisionId).toList();
                List<String> expected = raw.page(f, value);
                if (ids.isEmpty() || !ids.equals(expected)) {
                    throw new IllegalStateException("Baton and the raw query disagree on " + f + " " + value + ": " + ids + " vs " + expected);
                }
            }
        }
        i = 0;
    }
}
