package dev.baton.examples;

import dev.baton.BatonException;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsOptions;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.RunOutcome;
import dev.baton.http.Authenticator;
import dev.baton.http.BatonHttpApi;
import dev.baton.http.BatonHttpServer;
import dev.baton.http.Principal;
import dev.baton.mcp.McpApprovalPolicy;
import dev.baton.mcp.McpServerConfig;
import dev.baton.mcp.McpToolset;
import dev.baton.model.DeterministicModel;
import dev.baton.store.RunQuery;
import dev.baton.store.RunSnapshot;
import dev.baton.store.SnapshotStore;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An agent whose tools come from an MCP server ({@link NotesMcpServer}, started as a stdio
 * process): reading notes runs at once, writing one waits in the approval inbox until a person
 * approves it, from any JVM.
 *
 * <pre>
 * alias notes='java -cp examples/target/baton-examples.jar dev.baton.examples.McpNotes'
 * notes demo                                   # the story, with a second JVM that approves
 * notes start "Save a note called plumber: Call the plumber on Monday"
 * notes list                                   # the inbox
 * notes approve RUN CALL                       # in any shell, any JVM: the note is written
 * notes decline RUN CALL "not now"
 * notes serve [--port 8080]                    # the web inbox over this agent
 * </pre>
 *
 * Options before the command: {@code --store URL} (default {@value #DEFAULT_STORE}) and
 * {@code --notes FOLDER} (default {@code ./data/notes}). Exit codes: 0 done, 1 failed, 2 bad arguments.
 */
public final class McpNotes {
    /** The store of the runs, shared by every JVM that runs a command. */
    public static final String DEFAULT_STORE = "jdbc:sqlite:./data/notes.db";
    /** The agent's id. */
    public static final String AGENT = "notes";
    private static final Pattern SAVE = Pattern.compile("(?i)note called ([A-Za-z0-9_-]+)\\s*:\\s*(.+)");
    private static final Pattern READ = Pattern.compile("(?i)read (?:the )?note ([A-Za-z0-9_-]+)");

    private String store = DEFAULT_STORE;
    private Path notes = Path.of("data", "notes");
    private final PrintStream out;

    private McpNotes(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        System.out.flush();
        System.exit(code);
    }

    /** Runs one command; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        McpNotes app = new McpNotes(out);
        List<String> rest = new ArrayList<>(List.of(args));
        try {
            while (rest.size() >= 2 && rest.get(0).startsWith("--") && !rest.get(0).equals("--port")) {
                String option = rest.remove(0);
                String value = rest.remove(0);
                switch (option) {
                    case "--store" -> app.store = value;
                    case "--notes" -> app.notes = Path.of(value);
                    default -> throw new UsageException("unknown option " + option);
                }
            }
            if (rest.isEmpty()) throw new UsageException("no command given");
            return app.command(rest.remove(0), rest);
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            err.println("usage: McpNotes [--store URL] [--notes FOLDER] demo | start PROMPT | list | approve RUN CALL"
                    + " | decline RUN CALL [REASON] | serve [--port N]");
            return 2;
        } catch (BatonException e) {
            err.println("error: " + e.getMessage());
            return 1;
        } catch (Exception e) {
            err.println("error: " + e);
            return 1;
        }
    }

    /** The MCP server of the notes, as every JVM configures it: same name, prefix and policies. */
    McpToolset toolset() {
        return McpToolset.of(McpServerConfig.stdio("notes", javaBinary(), "-cp", System.getProperty("java.class.path"),
                        NotesMcpServer.class.getName(), notes.toAbsolutePath().toString())
                .toolPrefix("notes_")
                // the server is a second JVM: on a busy machine its start alone can take most of the default 30 s
                .connectTimeout(java.time.Duration.ofSeconds(90))
                .approval(McpApprovalPolicy.unlessReadOnly())           // the server's hints, for its other tools
                .approval("write_note", McpApprovalPolicy.always())      // and never trust them for this one
                .build());
    }

    /** The agent, as every JVM builds it. Its deterministic model turns a few phrasings into tool calls. */
    static Agent agent(SnapshotStore store, McpToolset toolset) {
        return Agent.builder(AGENT)
                .instructions("You keep the user's notes.")
                .store(store)
                .tools(toolset.tools())
                .model(DeterministicModel.builder()
                        .whenUserSays("list", "notes_list_notes", Map.of())
                        .whenUserSays("note called", "notes_write_note", prompt -> {
                            Matcher m = SAVE.matcher(prompt);
                            return m.find() ? Map.of("name", m.group(1), "text", m.group(2).trim()) : Map.of();
                        })
                        .whenUserSays("read", "notes_read_note", prompt -> {
                            Matcher m = READ.matcher(prompt);
                            return m.find() ? Map.of("name", m.group(1)) : Map.of();
                        })
                        .build())
                .build();
    }

    private int command(String name, List<String> args) throws Exception {
        if (name.equals("demo")) return demo(args);
        if (name.equals("serve")) return serve(args);
        Inbox inbox = new Inbox(out);
        try (SnapshotStore s = InboxApp.openStore(store); McpToolset toolset = toolset(); Agent agent = agent(s, toolset)) {
            switch (name) {
                case "start" -> {
                    if (args.isEmpty()) throw new UsageException("start needs a PROMPT");
                    return exit(inbox.start(agent, String.join(" ", args), null, "me"));
                }
                case "list" -> {
                    inbox.list(agent, AgentListSuspendedRunsOptions.ALL);
                    return 0;
                }
                case "approve" -> {
                    if (args.size() != 2) throw new UsageException("approve takes RUN and CALL");
                    return exit(inbox.approve(agent, args.get(0), args.get(1)));
                }
                case "decline" -> {
                    if (args.size() < 2) throw new UsageException("decline takes RUN, CALL and an optional REASON");
                    return exit(inbox.decline(agent, args.get(0), args.get(1), args.size() > 2 ? String.join(" ", args.subList(2, args.size())) : null));
                }
                default -> throw new UsageException("unknown command '" + name + "'");
            }
        }
    }

    /** Reads at once, waits for approval to write, lists the inbox, and has a second JVM approve. */
    private int demo(List<String> args) throws Exception {
        if (!args.isEmpty()) throw new UsageException("demo takes no arguments");
        String runId;
        String callId;
        try (SnapshotStore s = InboxApp.openStore(store); McpToolset toolset = toolset(); Agent agent = agent(s, toolset)) {
            for (RunSnapshot old : s.list(RunQuery.forAgent(AGENT, Instant.now()).status(null).build()).items()) {
                s.delete(old.runId(), old.version());   // so the demo can be played again
            }
            Inbox inbox = new Inbox(out);
            out.println("1. Reading is read-only on the MCP server: it runs at once");
            inbox.start(agent, "List my notes", null, "me");
            out.println();
            out.println("2. Writing a note waits for a person (write_note: approval always)");
            AgentResult waiting = inbox.start(agent, "Save a note called plumber: Call the plumber on Monday", null, "me");
            if (waiting.outcome() != RunOutcome.SUSPENDED) return 1;
            out.println();
            out.println("3. The inbox: the waiting call and its arguments, found in the store");
            AgentRun run = inbox.list(agent, AgentListSuspendedRunsOptions.ALL).runs().get(0);
            AgentRunToolCall call = run.toolCalls().get(0);
            runId = run.runId();
            callId = call.toolCallId();
        }
        out.println();
        out.println("4. This JVM has stopped its MCP server and closed the store; another JVM approves:");
        List<String> cmd = List.of(javaBinary(), "-cp", System.getProperty("java.class.path"), McpNotes.class.getName(),
                "--store", store, "--notes", notes.toString(), "approve", runId, callId);
        out.println("   McpNotes approve " + runId + " " + callId);
        out.flush();
        int code = new ProcessBuilder(cmd).inheritIO().start().waitFor();
        if (code != 0) return code;
        out.println();
        out.println("5. The note, written by the MCP server the second JVM started:");
        out.println("   " + notes.resolve("plumber.txt") + ": "
                + Files.readString(notes.resolve("plumber.txt"), StandardCharsets.UTF_8));
        return 0;
    }

    /** The web inbox and the HTTP API over this agent, until Ctrl+C. */
    private int serve(List<String> args) throws InterruptedException {
        int port = 8080;
        if (args.size() == 2 && args.get(0).equals("--port")) port = Integer.parseInt(args.get(1));
        else if (!args.isEmpty()) throw new UsageException("serve takes only --port N");
        String token = java.util.UUID.randomUUID().toString();
        Served served = serve(port, token);
        Runtime.getRuntime().addShutdownHook(new Thread(served::close, "notes-stop"));
        out.println("Notes inbox: open " + served.server().uri() + "#token=" + token + "   (Ctrl+C stops it)");
        out.flush();
        new CountDownLatch(1).await();
        return 0;
    }

    /** What {@code serve} runs: the store, the MCP server, the agent and the HTTP server, closed together. */
    record Served(SnapshotStore store, McpToolset toolset, Agent agent, BatonHttpServer server) implements AutoCloseable {
        @Override
        public void close() {   // graceful: the agent lets its tools finish and hands its runs back while the server drains
            Thread closing = new Thread(agent::close, "notes-agent-close");
            closing.start();
            server.close(java.time.Duration.ofSeconds(10));
            try {
                closing.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            toolset.close();
            store.close();
        }
    }

    Served serve(int port, String token) {
        SnapshotStore s = InboxApp.openStore(store);
        McpToolset toolset = toolset();
        Agent agent = agent(s, toolset);
        BatonHttpApi api = BatonHttpApi.builder().agents(agent)
                .authenticator(Authenticator.bearerTokens().token(token, Principal.unrestricted("notes")).build()).build();
        return new Served(s, toolset, agent, BatonHttpServer.builder(api).host("127.0.0.1").port(port).start());
    }

    /** A {@code McpNotes} over {@code store} and {@code notes}, for tests. */
    static McpNotes over(String store, Path notes, PrintStream out) {
        McpNotes app = new McpNotes(out);
        app.store = store;
        app.notes = notes;
        return app;
    }

    private static int exit(AgentResult result) {
        return result.outcome() == RunOutcome.FAILED || result.outcome() == RunOutcome.INTERRUPTED ? 1 : 0;
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
