package dev.baton.examples;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.BatonException;
import dev.baton.StoreProviderException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentResult;
import dev.baton.agent.RunOutcome;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The approval inbox: a command-line program over an agent whose runs wait for people.
 *
 * <pre>
 * java -jar examples/target/baton-examples.jar demo          # the whole story, two JVMs
 * java -jar examples/target/baton-examples.jar start         # start sample runs, then exit
 * java -jar examples/target/baton-examples.jar list --resource alice
 * java -jar examples/target/baton-examples.jar approve RUN CALL
 * OPENAI_API_KEY=... java -jar examples/target/baton-examples.jar start --model openai:gpt-4o-mini "Book a flight to Lisbon"
 * </pre>
 *
 * Every invocation is a new JVM: it rebuilds the agents and finds the runs in the store
 * ({@code --store URL}, default an H2 file database under {@code ./data/}). Exit codes: 0 done,
 * 1 the operation failed (e.g. no such run), 2 bad arguments.
 */
public final class InboxApp {

    /**
     * Where {@code start}, {@code list}, ... keep runs unless {@code --store} or BATON_STORE_URL says
     * otherwise. SQLite, because several processes may open the file at once (WAL and a busy
     * timeout, set by the JDBC store); H2's AUTO_SERVER mode fails when two processes start together.
     */
    public static final String DEFAULT_STORE = "jdbc:sqlite:./data/baton.db";
    /** The demo's own database, so playing it never touches runs you started by hand. */
    public static final String DEMO_STORE = "jdbc:sqlite:./data/demo.db";

    static final String USAGE = String.join(System.lineSeparator(),
            "usage: java -jar baton-examples.jar [--store URL] [--agent ID] COMMAND [ARGS]",
            "  demo                                   play the whole story (two JVMs) on its own store",
            "  start [--thread T] [--resource R] [PROMPT...]",
            "                                         start one run, or without PROMPT a few sample runs",
            "  list [--thread T] [--resource R] [--from DATE] [--to DATE] [--page N] [--per-page N]",
            "                                         the suspended runs (dates inclusive, yyyy-MM-dd or ISO instant;",
            "                                         --page is zero-based)",
            "  approve RUN CALL                       approve a waiting tool call and run on",
            "  decline RUN CALL [--reason TEXT]       decline it: the tool does not run, the model is told why",
            "  resume RUN JSON [--call CALL]          send data to a call that waits for it, e.g. '{\"passportNumber\":\"X123\"}'",
            "  --store URL   default " + DEFAULT_STORE + " (demo: " + DEMO_STORE + ")",
            "                e.g. jdbc:sqlite:./data/baton.db, jdbc:postgresql://localhost/app, redis://localhost:6379, mongodb://localhost/app",
            "  --agent ID    " + String.join(" | ", TravelAgents.ids()) + " (default " + TravelAgents.CONCIERGE + ")",
            "start, approve, decline and resume also take:",
            ModelChoice.USAGE);

    private static final Map<String, Set<String>> COMMANDS = Map.of(
            "demo", Set.of(),
            Demo.RESTART_COMMAND, Set.of(),
            "start", Set.of("thread", "resource", "model", "base-url"),
            "list", Set.of("thread", "resource", "from", "to", "page", "per-page"),
            "approve", Set.of("model", "base-url"),
            "decline", Set.of("reason", "model", "base-url"),
            "resume", Set.of("call", "model", "base-url"),
            "help", Set.of());

    private InboxApp() {
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        System.out.flush();
        System.err.flush();
        System.exit(code);
    }

    /** Runs one command; returns the exit code. Never throws for bad input. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, System::getenv);
    }

    /** {@link #run(String[], PrintStream, PrintStream)} with {@code env} for the API keys of {@code --model}. */
    static int run(String[] args, PrintStream out, PrintStream err, UnaryOperator<String> env) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(USAGE);
            return 0;
        }
        try {
            CommandLine line = CommandLine.parse(args, COMMANDS);
            return execute(line, out, env);
        } catch (UsageException | IllegalArgumentException e) {
            // IllegalArgumentException: core's InvalidOptionException (perPage, page, fromDate > toDate)
            err.println("error: " + e.getMessage());
            err.println(USAGE);
            return 2;
        } catch (StoreProviderException e) {
            err.println("error: --store: " + e.getMessage());
            err.println(USAGE);
            return 2;
        } catch (BatonException e) {
            err.println("error: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("error: interrupted");
            return 1;
        } catch (Exception e) {
            err.println("error: " + e);
            return 1;
        }
    }

    private static int execute(CommandLine line, PrintStream out, UnaryOperator<String> env) throws Exception {
        String command = line.command();
        if (command.equals("help")) {
            out.println(USAGE);
            return 0;
        }
        if (command.equals("demo")) {
            line.exactly(0, "no arguments");
            String url = line.option("store", DEMO_STORE);
            if (url.startsWith("memory:")) {
                throw new UsageException("--store: the demo needs a store that outlives the JVM; memory: does not");
            }
            return new Demo(out).firstProcess(url);
        }
        String url = line.option("store", defaultStore());
        if (command.equals(Demo.RESTART_COMMAND)) {
            return new Demo(out).secondProcess(url);
        }
        // check the arguments before touching the store
        Runnable check = switch (command) {
            case "approve", "decline" -> () -> line.exactly(2, "RUN and CALL");
            case "resume" -> () -> line.exactly(2, "RUN and JSON");
            case "list" -> () -> line.exactly(0, "no arguments, only options");
            default -> () -> { };
        };
        check.run();
        AgentListSuspendedRunsOptions listOptions = command.equals("list") ? listOptions(line) : null;
        JsonNode resumeData = command.equals("resume") ? json(line.positional().get(1)) : null;
        String agentId = line.option("agent", TravelAgents.CONCIERGE);
        if (!TravelAgents.ids().contains(agentId)) {
            throw new UsageException("--agent: unknown agent '" + agentId + "'; known: " + TravelAgents.ids());
        }
        ModelChoice model = ModelChoice.parse(line.option("model"), line.option("base-url"), env);

        Inbox inbox = new Inbox(out);
        try (SnapshotStore store = openStore(url);
             TravelAgents agents = new TravelAgents(store, Clock.systemUTC(), model.model())) {
            Agent agent = agents.byId(agentId);
            switch (command) {
                case "start" -> {
                    return start(line, agents, agent, inbox, out);
                }
                case "list" -> {
                    inbox.list(agent, listOptions);
                    return 0;
                }
                case "approve" -> {
                    return exitCode(inbox.approve(agent, line.positional().get(0), line.positional().get(1)));
                }
                case "decline" -> {
                    return exitCode(inbox.decline(agent, line.positional().get(0), line.positional().get(1), line.option("reason")));
                }
                case "resume" -> {
                    return exitCode(inbox.resume(agent, line.positional().get(0), line.option("call"), resumeData));
                }
                default -> throw new UsageException("unknown command '" + command + "'");
            }
        }
    }

    private static int start(CommandLine line, TravelAgents agents, Agent agent, Inbox inbox, PrintStream out) {
        if (!line.positional().isEmpty()) {
            AgentResult r = inbox.start(agent, String.join(" ", line.positional()), line.option("thread"), line.option("resource"));
            return r.outcome() == RunOutcome.FAILED ? 1 : 0;
        }
        if (line.option("thread") != null || line.option("resource") != null) {
            throw new UsageException("start: --thread and --resource need a PROMPT");
        }
        out.println("Starting sample runs (store: " + agents.concierge().store().describe() + ")");
        for (Demo.Sample s : Demo.CONCIERGE_RUNS) {
            inbox.start(agents.concierge(), s.prompt(), s.threadId(), s.resourceId());
        }
        Demo.Sample s = Demo.SUPERVISOR_RUN;
        inbox.start(agents.travelDesk(), s.prompt(), s.threadId(), s.resourceId());
        out.println();
        out.println("Now, in this shell or another: list, approve RUN CALL, decline RUN CALL --reason ..., "
                + "resume RUN '{\"passportNumber\":\"X123456\"}', --agent travel-desk list");
        return 0;
    }

    private static int exitCode(AgentResult result) {
        return result.outcome() == RunOutcome.FAILED || result.outcome() == RunOutcome.INTERRUPTED ? 1 : 0;
    }

    /** Opens the store; a URL no provider accepts is a usage error (see {@link #run}). */
    static SnapshotStore openStore(String url) {
        createSqliteFolder(url);
        return SnapshotStores.open(url);
    }

    /** SQLite creates its file but not the folder it is in; {@code ./data/} may not exist on a fresh clone. */
    private static void createSqliteFolder(String url) {
        if (!url.startsWith("jdbc:sqlite:")) return;
        String path = url.substring("jdbc:sqlite:".length());
        int query = path.indexOf('?');
        if (query >= 0) path = path.substring(0, query);
        if (path.startsWith("file:")) path = path.substring("file:".length());
        if (path.isEmpty() || path.startsWith(":memory:")) return;
        java.io.File parent = new java.io.File(path).getAbsoluteFile().getParentFile();
        if (parent != null && !parent.isDirectory() && !parent.mkdirs()) {
            throw new UsageException("--store: cannot create the folder " + parent + " for " + url);
        }
    }

    private static String defaultStore() {
        String configured = SnapshotStores.defaultUrl();
        return configured.equals("memory:") && System.getProperty(SnapshotStores.URL_PROPERTY) == null
                && System.getenv(SnapshotStores.URL_ENV) == null ? DEFAULT_STORE : configured;
    }

    private static AgentListSuspendedRunsOptions listOptions(CommandLine line) {
        Integer page = line.intOption("page");
        Integer perPage = line.intOption("per-page");
        // paging needs both; one alone means "the first page" or "10 per page"
        if (page != null && perPage == null) perPage = 10;
        if (perPage != null && page == null) page = 0;
        String from = line.option("from");
        String to = line.option("to");
        return AgentListSuspendedRunsOptions.builder()
                .threadId(line.option("thread"))
                .resourceId(line.option("resource"))
                .fromDate(from == null ? null : fromDate(from))
                .toDate(to == null ? null : toDate(to))
                .page(page)
                .perPage(perPage)
                .build();
    }

    /** {@code yyyy-MM-dd} is the start of that day (UTC); an ISO instant or local date-time is taken as is. */
    static Instant fromDate(String text) {
        return date("from", text, false);
    }

    /** {@code yyyy-MM-dd} is the end of that day (UTC, inclusive); an ISO instant or local date-time is taken as is. */
    static Instant toDate(String text) {
        return date("to", text, true);
    }

    private static Instant date(String option, String text, boolean endOfDay) {
        String t = text.trim();
        try {
            if (t.length() == 10) {
                LocalDate day = LocalDate.parse(t);
                return endOfDay ? day.plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC).minusMillis(1)
                        : day.atStartOfDay().toInstant(ZoneOffset.UTC);
            }
            if (t.endsWith("Z") || t.matches(".*[+-]\\d\\d:\\d\\d$")) return java.time.OffsetDateTime.parse(t).toInstant();
            return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new UsageException("--" + option + ": expected yyyy-MM-dd or an ISO date-time, was '" + text + "'");
        }
    }

    private static JsonNode json(String text) {
        try {
            JsonNode node = new ObjectMapper().readTree(text);
            if (node == null || node.isMissingNode()) throw new UsageException("JSON: resume data is empty");
            return node;
        } catch (JsonProcessingException e) {
            throw new UsageException("JSON: not valid JSON: " + e.getOriginalMessage() + " in '" + text + "'");
        }
    }
}
