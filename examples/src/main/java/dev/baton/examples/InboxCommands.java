package dev.baton.examples;

import com.fasterxml.jackson.databind.JsonNode;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import dev.baton.http.Authenticator;
import dev.baton.http.BatonHttpApi;
import dev.baton.http.BatonHttpServer;
import dev.baton.http.Principal;
import dev.baton.store.SnapshotStore;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
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
 * The commands of {@link InboxApp}, as picocli classes. To add an option every command takes,
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
        for (Object sub : List.of(new Demo(), new DemoRestart(), new Start(), new ListRuns(), new Approve(), new Decline(),
                new Resume(), new ContinueRun(), new Cancel(), new Discard(), new Serve(), new Help())) {
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

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
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
            Inbox inbox = new Inbox(root.out);
            try (SnapshotStore store = InboxApp.openStore(root.storeUrl());
                 TravelAgents agents = new TravelAgents(store, Clock.systemUTC(), model.model())) {
                return run(agents, agents.byId(agentId), inbox);
            }
        }

        /** The model options of commands that call the model; null for the others. */
        @Nullable ModelOptions modelOptions() {
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

    @Command(name = "approve", description = "approve a waiting tool call and run on")
    static final class Approve extends OnAgents {
        @picocli.CommandLine.Mixin ModelOptions models = new ModelOptions();

        @Override
        @Nullable ModelOptions modelOptions() {
            return models;
        }

        @Parameters(paramLabel = "RUN CALL") List<String> args = new ArrayList<>();

        @Override
        void check() {
            exactly(args, 2, "approve", "RUN and CALL");
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            return exitCode(inbox.approve(agent, args.get(0), args.get(1)));
        }
    }

    @Command(name = "decline", description = "decline it: the tool does not run, the model is told why")
    static final class Decline extends OnAgents {
        @picocli.CommandLine.Mixin ModelOptions models = new ModelOptions();

        @Override
        @Nullable ModelOptions modelOptions() {
            return models;
        }

        @Option(names = "--reason", paramLabel = "TEXT") @Nullable String reason;
        @Parameters(paramLabel = "RUN CALL") List<String> args = new ArrayList<>();

        @Override
        void check() {
            exactly(args, 2, "decline", "RUN and CALL");
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            return exitCode(inbox.decline(agent, args.get(0), args.get(1), reason));
        }
    }

    @Command(name = "resume", description = "send data to a call that waits for it, e.g. '{\"passportNumber\":\"X123\"}'")
    static final class Resume extends OnAgents {
        @picocli.CommandLine.Mixin ModelOptions models = new ModelOptions();

        @Override
        @Nullable ModelOptions modelOptions() {
            return models;
        }

        @Option(names = "--call", paramLabel = "CALL") @Nullable String call;
        @Parameters(paramLabel = "RUN JSON") List<String> args = new ArrayList<>();
        private @Nullable JsonNode data;

        @Override
        void check() {
            exactly(args, 2, "resume", "RUN and JSON");
            data = InboxApp.json(args.get(1));
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            return exitCode(inbox.resume(agent, args.get(0), call, java.util.Objects.requireNonNull(data)));
        }
    }

    @Command(name = "continue", description = "continue a run that stopped part-way and waits for nobody (listed as interrupted)")
    static final class ContinueRun extends OnAgents {
        @picocli.CommandLine.Mixin ModelOptions models = new ModelOptions();
        @Parameters(paramLabel = "RUN") List<String> args = new ArrayList<>();

        @Override
        @Nullable ModelOptions modelOptions() {
            return models;
        }

        @Override
        void check() {
            exactly(args, 1, "continue", "RUN");
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            return exitCode(inbox.continueRun(agent, args.get(0)));
        }
    }

    @Command(name = "cancel", description = "cancel a waiting run: nothing more runs, its snapshot goes")
    static final class Cancel extends OnAgents {
        @Option(names = "--reason", paramLabel = "TEXT") @Nullable String reason;
        @Parameters(paramLabel = "RUN") List<String> args = new ArrayList<>();

        @Override
        void check() {
            exactly(args, 1, "cancel", "RUN");
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            AgentResult r = agent.cancelRun(args.get(0), reason);
            root.out.println("Cancelled run " + r.runId() + (reason == null ? "" : ": " + reason));
            return 0;
        }
    }

    @Command(name = "discard", description = "remove a stored run that nobody will resume (nothing runs)")
    static final class Discard extends OnAgents {
        @Parameters(paramLabel = "RUN") List<String> args = new ArrayList<>();

        @Override
        void check() {
            exactly(args, 1, "discard", "RUN");
        }

        @Override
        int run(TravelAgents agents, Agent agent, Inbox inbox) {
            agent.discardRun(args.get(0));
            root.out.println("Discarded run " + args.get(0));
            return 0;
        }
    }

    /** The web inbox and the HTTP API over the three agents, until the process is stopped. */
    @Command(name = "serve", description = {"serve the inbox page and the HTTP API over the agents (baton-http)",
            "until Ctrl+C; prints the page's address with a fresh access token"})
    static final class Serve implements Callable<Integer> {
        @ParentCommand Root root;
        @Option(names = "--port", paramLabel = "N", converter = IntegerOption.class) int port = 8080;
        @Option(names = "--host", paramLabel = "ADDR") String host = "127.0.0.1";
        @Option(names = "--token", paramLabel = "TOKEN") @Nullable String token;
        /** Host names the server answers to besides loopback's (the Host header; DNS rebinding is refused). */
        @Option(names = "--allowed-host", paramLabel = "NAME") List<String> allowedHosts = new ArrayList<>();
        /** JWTs of an identity provider instead of the printed token: all three or none. */
        @Option(names = "--jwks", paramLabel = "URL") @Nullable String jwks;
        @Option(names = "--issuer", paramLabel = "ISS") @Nullable String issuer;
        @Option(names = "--audience", paramLabel = "AUD") @Nullable String audience;
        @Parameters(paramLabel = "", hidden = true) List<String> args = new ArrayList<>();

        @Override
        public Integer call() throws InterruptedException {
            OnAgents.exactly(args, 0, "serve", "no arguments, only options");
            if (port < 0 || port > 65535) throw new UsageException("--port must be 0..65535, was " + port);
            String secret = token != null ? token : newToken();
            Authenticator auth;
            try {
                auth = jwks != null || issuer != null || audience != null ? ServeJwt.authenticator(jwks, issuer, audience, token)
                        : Authenticator.bearerTokens().token(secret, Principal.unrestricted("inbox")).build();
            } catch (IllegalArgumentException e) {
                String option = jwks != null ? "--jwks/--issuer/--audience" : "--token";
                throw new UsageException(option + ": " + e.getMessage().substring(e.getMessage().indexOf(':') + 2));
            }
            // the JDK server reads request headers before any handler: bound that too (JVM-wide, seconds)
            if (System.getProperty("sun.net.httpserver.maxReqTime") == null) System.setProperty("sun.net.httpserver.maxReqTime", "30");

            SnapshotStore store = InboxApp.openStore(root.storeUrl());
            TravelAgents agents = new TravelAgents(store, Clock.systemUTC());
            BatonHttpServer server;
            try {
                List<String> hosts = new ArrayList<>(List.of("localhost", "127.0.0.1", "[::1]"));
                hosts.addAll(allowedHosts);
                BatonHttpApi api = BatonHttpApi.builder().agents(agents.all()).authenticator(auth).allowedHosts(hosts).build();
                server = BatonHttpServer.builder(api).host(host).port(port).start();
            } catch (RuntimeException e) {
                agents.close();
                store.close();
                throw e instanceof java.io.UncheckedIOException io ? new UsageException("--port: " + io.getMessage()) : e;
            }
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {   // SIGTERM or Ctrl+C: leave gracefully
                Thread closing = new Thread(agents::close, "inbox-agents-close");   // tools finish, runs handed back
                closing.start();
                server.close(java.time.Duration.ofSeconds(10));   // stops listening; requests under way end
                try {
                    closing.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                store.close();
                stopped.countDown();
            }, "inbox-stop"));
            PrintStream out = root.out;
            out.println("Baton inbox over " + TravelAgents.ids() + " (store: " + store.describe() + ")");
            String shown = jwks != null ? "<a JWT of " + issuer + " for " + audience + ">" : secret;
            out.println("  open   " + server.uri() + "#token=" + shown);
            out.println("  API    " + server.uri() + "agents  with  Authorization: Bearer " + shown);
            out.println("  OpenAPI " + server.uri() + "openapi.json");
            out.println("No runs yet? In another shell: java -jar examples/target/baton-examples.jar start. Ctrl+C stops the server.");
            out.flush();
            stopped.await();
            return 0;
        }

        private static String newToken() {
            byte[] bytes = new byte[24];
            new SecureRandom().nextBytes(bytes);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
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
