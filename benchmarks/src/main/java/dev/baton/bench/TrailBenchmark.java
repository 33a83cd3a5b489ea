package dev.baton.bench;

import dev.baton.agent.Agent;
import dev.baton.store.DecisionPage;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The eight measurements every audit-trail benchmark makes ({@link DecisionBenchmark},
 * {@link RedisDecisionBenchmark}, {@link MongoDecisionBenchmark}): Baton's first page and the store's
 * raw query, by run, thread, resource and actor, on the targets of {@link DecisionTargets}. A store's
 * benchmark seeds its data, opens {@link #agent}, and says how its raw query reads one filter; JMH runs
 * the inherited {@code @Benchmark} methods on each concrete subclass.
 */
public abstract class TrailBenchmark {
    Agent agent;
    DecisionTargets targets;

    /**
     * {@return the store's name of a filter's field in its raw query: a column, a document field or an index family}
     *
     * @param filter the filter
     */
    abstract String rawName(DecisionTargets.Filter filter);

    /**
     * The store's raw query: the ids of the first page of records whose {@code name} is {@code value}.
     *
     * @param name  {@link #rawName} of the filter
     * @param value the filter's value
     * @return the ids of the first {@link DecisionTargets#PAGE} records, newest first
     * @throws Exception if the store fails
     */
    abstract List<String> rawQuery(String name, String value) throws Exception;

    /**
     * After seeding and opening {@link #agent}: the targets among {@code n} records, and the check that
     * Baton's pages equal the raw ones on every target before anything is measured.
     *
     * @param n how many records the agent has
     * @throws Exception if they disagree, or the store fails
     */
    void checkTargets(int n) throws Exception {
        targets = new DecisionTargets(n);
        targets.check(agent, (f, v) -> rawQuery(rawName(f), v));
    }

    private List<String> raw(DecisionTargets.Filter filter) throws Exception {
        return rawQuery(rawName(filter), targets.next(filter));
    }

    @Benchmark
    public DecisionPage byRunBaton() {
        return targets.baton(agent, DecisionTargets.Filter.RUN);
    }

    @Benchmark
    public List<String> byRunRaw() throws Exception {
        return raw(DecisionTargets.Filter.RUN);
    }

    @Benchmark
    public DecisionPage byThreadBaton() {
        return targets.baton(agent, DecisionTargets.Filter.THREAD);
    }

    @Benchmark
    public List<String> byThreadRaw() throws Exception {
        return raw(DecisionTargets.Filter.THREAD);
    }

    @Benchmark
    public DecisionPage byResourceBaton() {
        return targets.baton(agent, DecisionTargets.Filter.RESOURCE);
    }

    @Benchmark
    public List<String> byResourceRaw() throws Exception {
        return raw(DecisionTargets.Filter.RESOURCE);
    }

    @Benchmark
    public DecisionPage byActorBaton() {
        return targets.baton(agent, DecisionTargets.Filter.ACTOR);
    }

    @Benchmark
    public List<String> byActorRaw() throws Exception {
        return raw(DecisionTargets.Filter.ACTOR);
    }

    /**
     * Runs one trail benchmark alone: {@code args} are {@code [n] [iterations]}, one fork, 2-second iterations.
     *
     * @param benchmark the concrete class
     * @param args      the command line
     * @param defaultN  n when none is given
     * @param heap      the fork's {@code -Xmx}
     * @param db        the {@code db} parameter, or null for a benchmark without one
     * @throws Exception if JMH fails
     */
    static void main(Class<? extends TrailBenchmark> benchmark, String[] args, String defaultN, String heap, String db)
            throws Exception {
        String n = args.length > 0 ? args[0] : defaultN;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        ChainedOptionsBuilder o = new OptionsBuilder().include(benchmark.getName() + "\\.").param("n", n).forks(1)
                .warmupIterations(1).warmupTime(TimeValue.seconds(2)).measurementIterations(iterations)
                .measurementTime(TimeValue.seconds(2)).jvmArgs("-Xmx" + heap);
        if (db != null) o = o.param("db", db);
        new Runner(o.build()).run();
    }
}
