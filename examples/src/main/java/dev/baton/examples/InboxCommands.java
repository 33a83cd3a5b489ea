package dev.baton.examples;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentListDecisionsOptions;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import dev.baton.store.SnapshotStore;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.TypeConversionException;

/**
 * The commands of {@link InboxApp}, as picocli classes: here the root, the shared pieces and
 * {@code demo}, {@code start}, {@code list}, {@code help}; the commands on one run are in
 * {@link InboxRunCommands}, {@code serve} in {@link InboxServeCommand}. To add an option every command takes,
 * add an inherited {@code @Option} to {@link Root}; to add one to a command, add it to that
 * command's class. The usage text follows the annotations.
 */
final class InboxCommands {
    private InboxCommands() {
    }

    /** The parser, with every command; {@code out} is where the commands print, {@code env} where API keys come from. */
    static CommandLine commandLine(PrintStream out, java.util.function.UnaryOperator<String> env) {
        Root root = new Root(out, env);
        CommandLine line = new CommandLine(root);
        for (Object sub : List.of(new Demo(), new DemoRestart(), new Start(), new ListRuns(), new Decisions(), new InboxRunCommands.Approve(),
                new InboxRunCommands.Decline(), new InboxRunCommands.Resume(), new InboxRunCommands.ContinueRun(),
                new InboxRunCommands.Cancel(), new InboxRunCommands.Discard(), new InboxServeCommand.Serve(), new Help())) {
            line.addSubcommand(sub);
        }
        line.setPosixClusteredShortOptionsAllowed(false);
        return line;
    }

    /** The options every command takes, before or after the command's name. */
    @Command(name = "java -jar baton-examples.jar")
    static final class Root implements Callable<Integer> {
        final PrintStream out;
        final java.util.function.UnaryOperator<String> env;

        @Option(names = "--store", paramLabel = "URL", scope = ScopeType.INHERIT, description = {
                "default " + InboxApp.DEFAULT_STORE + " (demo: " + InboxApp.DEMO_STORE + ")",
                "e.g. jdbc:sqlite:./data/baton.db, jdbc:postgresql://localhost/app, redis://localhost:6379, mongodb://localhost/app"})
        @Nullable String store;

        @Option(names = "--agent", paramLabel = "ID", scope = ScopeType.INHERIT, description =
                TravelAgents.CONCIERGE + " | " + TravelAgents.TRAVEL_DESK + " | " + TravelAgents.VISA_DESK
                        + " (default " + TravelAgents.CONCIERGE + ")")
        @Nullable String agent;

        // inherited: "serve --help" (any command's --help) prints the usage, not "--help needs a value"
        @Option(names = {"-h", "--help"}, usageHelp = true, scope = ScopeType.INHERIT, description = "this help")
        boolean help;

        Root(PrintStream out, java.util.function.UnaryOperator<String> env) {
            this.out = out;
            this.env = env;
        }

        @Override
        public Integer call() {
            throw UsageException.withUsage("no command given");
        }

        String storeUrl() {
            return store != null ? store : InboxApp.defaultStore();
        }

        String agentId() {
            String id = agent == null ? TravelAgents.CONCIERGE : agent;
            if (!TravelAgents.ids().contains(id)) {
                throw new UsageException("--agent: unknown agent '" + id + "'; known: " + TravelAgents.ids());
            }
            return id;
        }
    }

    /** {@code --model} and {@code --base-url}: the commands whose runs call the model take them. */
    static final class ModelOptions {
        // hidden from each command's synopsis: the usage explains them once (ModelChoice.USAGE)
        @Option(names = "--model", paramLabel = "SPEC", hidden = true) @Nullable String model;
        @Option(names = "--base-url", paramLabel = "URL", hidden = true) @Nullable String baseUrl;
    }

    /** A command that works on the agents over the store: opens both, runs, closes both. */
    abstract static class OnAgents implements Callable<Integer> {
        @ParentCommand Root root;

        @Override
        public final Integer call() throws Exception {
            check();
            String agentId = root.agentId();
            ModelOptions m = modelOptions();
            ModelChoice model = ModelChoice.parse(m == null ? null : m.model, m == null ? null : m.baseUrl, root.env);
            String actor = actor();
            Inbox inbox = actor == null ? new Inbox(root.out) : new Inbox(root.out, actor);
            try (SnapshotStore store = InboxApp.openStore(root.storeUrl());
                 TravelAgents agents = new TravelAgents(store, Clock.systemUTC(), model.model())) {
                return run(agents, agents.byId(agentId), inbox);
            }
        }

        /** The model options of commands that call the model; null for the others. */
        @Nullable ModelOptions modelOptions() {
            return null;
        }

        /** Who decides ({@code --actor}); null for {@link Inbox#defaultActor()}. */
        @Nullable String actor() {
            return null;
        }

        /** Checks the arguments before the store is touched. */
        void check() {
        }

        abstract int run(TravelAgents agents, Agent agent, Inbox inbox) throws Exception;

        static int exitCode(AgentResult result) {
            return result.outcome() == RunOutcome.FAILED || result.outcome() == RunOutcome.INTERRUPTED ? 1 : 0;
        }

        static void exactly(List<String> args, int n, String command, String what) {
            if (args.size() != n) {
                throw new UsageException("'" + command + "' takes " + what + " (got " + args.size()
                        + " argument" + (args.size() == 1 ? "" : "s") + ")");
            }
        }
    }

    /** An integer option; its range is checked by whoever uses it (core, for paging). */
    static final class IntegerOption implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                return Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("must be an integer, was '" + value + "'");
            }
        }
    }

    @Command(name = "demo", description = "play the whole story (two JVMs) on its own store")
    static final class Demo implements Callable<Integer> {
        @ParentCommand Root root;
        @Parameters(paramLabel = "", hidden = true) List<String> args = new ArrayList<>();

        @Override
        public Integer call() throws Exception {
            OnAgents.exactly(args, 0, "demo", "no arguments");
            String url = root.store != null ? root.store : InboxApp.DEMO_STORE;
            if (url.startsWith("memory:")) {
                throw new UsageException("--store: the demo needs a store that outlives the JVM; memory: does not");
            }
            return new dev.baton.examples.Demo(root.out).firstProcess(url);
        }
    }

    /** The demo's second JVM. */
    @Command(name = dev.baton.examples.Demo.RESTART_COMMAND, hidden = true)
    static final class DemoRestart implements Callable<Integer> {
        @ParentCommand Root root;

        @Override
        public Integer call() {
            return new dev.baton.examples.Demo(root.out).secondProcess(root.storeUrl());
        }
    }

    @Command(name = "start", description = "start one run, or without PROMPT a few sample runs")
    static final class Start extends OnAgents {
        @picocli.CommandLine.Mixin ModelOptions models = new ModelOptions();
        @Option(names = "--thread", paramLabel = "T") @Nullable String thread;
        @Option(names = "--resource", paramLabel = "R") @Nullable String resource;
        @Parameters(paramLabel = "[PROMPT...]") List<String> prompt = new ArrayList<>();

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            if (!prompt.isEmpty()) {
                AgentResult r = inbox.start(agent, String.join(" ", prompt), thread, resource);
                return exitCode(r);
            }
            if (thread != null || resource != null) throw new UsageException("start: --thread and --resource need a PROMPT");
            PrintStream out = root.out;
            out.println("Starting sample runs (store: " + agents.concierge().store().describe() + ")");
            for (dev.baton.examples.Demo.Sample s : dev.baton.examples.Demo.CONCIERGE_RUNS) {
                inbox.start(agents.concierge(), s.prompt(), s.threadId(), s.resourceId());
            }
            dev.baton.examples.Demo.Sample s = dev.baton.examples.Demo.SUPERVISOR_RUN;
            inbox.start(agents.travelDesk(), s.prompt(), s.threadId(), s.resourceId());
            out.println();
            out.println("Now, in this shell or another: list, approve RUN CALL, decline RUN CALL --reason ..., "
                    + "resume RUN '{\"passportNumber\":\"X123456\"}', --agent travel-desk list, serve");
            return 0;
        }

        @Override
        @Nullable ModelOptions modelOptions() {
            return models;
        }
    }

    @Command(name = "list", description = {"the suspended runs (dates inclusive, yyyy-MM-dd or ISO instant;",
            "--page is zero-based)"})
    static final class ListRuns extends OnAgents {
        @Option(names = "--thread", paramLabel = "T") @Nullable String thread;
        @Option(names = "--resource", paramLabel = "R") @Nullable String resource;
        @Option(names = "--from", paramLabel = "DATE") @Nullable String from;
        @Option(names = "--to", paramLabel = "DATE") @Nullable String to;
        @Option(names = "--page", paramLabel = "N", converter = IntegerOption.class) @Nullable Integer page;
        @Option(names = "--per-page", paramLabel = "N", converter = IntegerOption.class) @Nullable Integer perPage;
        @Parameters(paramLabel = "", hidden = true) List<String> args = new ArrayList<>();
        private @Nullable AgentListSuspendedRunsOptions options;

        @Override
        void check() {
            exactly(args, 0, "list", "no arguments, only options");
            // paging needs both; one alone means "the first page" or "10 per page"
            Integer p = page;
            Integer n = perPage;
            if (p != null && n == null) n = 10;
            if (n != null && p == null) p = 0;
            options = AgentListSuspendedRunsOptions.builder()
                    .threadId(thread)
                    .resourceId(resource)
                    .fromDate(from == null ? null : InboxApp.fromDate(from))
                    .toDate(to == null ? null : InboxApp.toDate(to))
                    .page(p)
                    .perPage(n)
                    .build();
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            inbox.list(agent, java.util.Objects.requireNonNull(options));
            return 0;
        }
    }

    @Command(name = "decisions", description = {"the audit trail: who decided what, when and why, newest first,",
            "kept after the runs end (dates inclusive; --cursor: the next page)"})
    static final class Decisions extends OnAgents {
        @Option(names = "--run", paramLabel = "RUN") @Nullable String run;
        @Option(names = "--thread", paramLabel = "T") @Nullable String thread;
        @Option(names = "--resource", paramLabel = "R") @Nullable String resource;
        @Option(names = "--actor", paramLabel = "NAME") @Nullable String actor;
        @Option(names = "--from", paramLabel = "DATE") @Nullable String from;
        @Option(names = "--to", paramLabel = "DATE") @Nullable String to;
        @Option(names = "--limit", paramLabel = "N", converter = IntegerOption.class) @Nullable Integer limit;
        @Option(names = "--cursor", paramLabel = "C") @Nullable String cursor;
        @Parameters(paramLabel = "", hidden = true) List<String> args = new ArrayList<>();
        private @Nullable AgentListDecisionsOptions options;

        @Override
        @Nullable String actor() {
            return null;   // here --actor filters; nobody decides
        }

        @Override
        void check() {
            exactly(args, 0, "decisions", "no arguments, only options");
            AgentListDecisionsOptions.Builder b = AgentListDecisionsOptions.builder().runId(run).threadId(thread)
                    .resourceId(resource).actor(actor).cursor(cursor)
                    .from(from == null ? null : InboxApp.fromDate(from))
                    // core's "to" is exclusive, the command's inclusive (as list's): the millisecond after
                    .to(to == null ? null : InboxApp.toDate(to).plusMillis(1));
            if (limit != null) b.limit(limit);
            options = b.build();
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            try {
                inbox.decisions(agent, java.util.Objects.requireNonNull(options));
            } catch (UnsupportedOperationException e) {
                throw new UsageException("--store: " + e.getMessage());
            }
            return 0;
        }
    }

    @Command(name = "help", description = "this help")
    static final class Help implements Callable<Integer> {
        @ParentCommand Root root;
        @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            root.out.println(InboxApp.usage(spec.parent().commandLine()));
            return 0;
        }
    }
}
