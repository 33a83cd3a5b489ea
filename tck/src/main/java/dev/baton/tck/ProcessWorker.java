package dev.baton.tck;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentListSuspendedRunsResult;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.RunOptions;
import dev.baton.model.DeterministicModel;
import dev.baton.model.LanguageModel;
import dev.baton.model.Message;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tck.support.Json;
import dev.baton.tool.Tool;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A separate JVM for {@link ProcessContract}: obeys one-line commands on standard input, answering on
 * standard output with lines that start with {@code @@}. The tool's side effect is a line appended to a
 * file outside every JVM, so the test can count executions across processes, even of processes it killed.
 *
 * <p>It starts with no store and says {@code idle}; {@code scenario <url> <agentId> <sideEffectFile>
 * <leaseMillis> [<key=value>...]} (each field URL-encoded) opens the store under test, builds the
 * scenario's agent and says {@code ready}; the scenario's commands follow. {@code end} closes the agent
 * and the store and makes it {@code idle} again, for another scenario ({@link WorkerPool}); {@code exit}
 * (or the end of its input) ends the JVM. A JVM that a scenario killed, or left in a tool that hangs, is
 * never given another.
 */
final class ProcessWorker {

    private enum Mode { NORMAL, SLOW_TOOL, HANG_IN_TOOL, HANG_AFTER_TOOL, HANG_IN_SECOND_TOOL, HANG_AFTER_SECOND_TOOL }

    private static volatile Mode mode = Mode.NORMAL;
    /** When set, the model asks for getWeather (no approval) after the approved bookFlight: a second step. */
    private static volatile boolean weatherStep;
    private static final PrintStream OUT = System.out;

    private ProcessWorker() {
    }

    public static void main(String[] args) throws Exception {
        // keep protocol lines apart from anything a library prints
        System.setOut(new PrintStream(System.err, true, StandardCharsets.UTF_8));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        warmUp();
        say("idle");
        String line;
        while ((line = in.readLine()) != null) {
            String[] cmd = line.trim().split(" ");
            switch (cmd[0]) {
                case "exit" -> {
                    say("bye");
                    return;
                }
                case "scenario" -> {
                    try {
                        if (!scenario(cmd, in)) return;
                    } catch (RuntimeException e) {
                        // the store did not open: the test reads this instead of "ready", and the JVM is not reused
                        say("error " + e.getClass().getSimpleName() + " " + String.valueOf(e.getMessage()).replace('\n', ' '));
                        e.printStackTrace();
                        return;
                    }
                    say("idle");
                }
                default -> say("error idle-worker-unknown-command " + cmd[0]);
            }
        }
    }

    /**
     * Loads, before it says {@code idle}, what every scenario needs whatever the store (the store providers, Jackson, the
     * model and tool builders): a spare does it while scenarios wait, not while a scenario waits for it.
     */
    private static void warmUp() {
        try {
            SnapshotStores.providers();
            Json.object("city", "SFO");
            DeterministicModel.builder().whenUserSays("flight", "bookFlight", Map.of("to", "SFO")).build();
            Tool.builder("warmUp").execute((input, ctx) -> Map.of()).build();
        } catch (RuntimeException | LinkageError e) {
            // a scenario that needs the same will say what is wrong
        }
    }

    private static String decode(String field) {
        return URLDecoder.decode(field, StandardCharsets.UTF_8);
    }

    /**
     * Runs one scenario: opens the store, builds the agent, obeys the scenario's commands.
     *
     * @return true after {@code end} (the JVM may serve another scenario), false after {@code exit} or the end of input
     */
    private static boolean scenario(String[] args, BufferedReader in) throws Exception {
        String url = decode(args[1]);
        String agentId = decode(args[2]);
        Path sideEffects = Path.of(decode(args[3]));
        Duration lease = Duration.ofMillis(Long.parseLong(args[4]));
        Map<String, String> props = new HashMap<>();
        for (int i = 5; i < args.length; i++) {
            String prop = decode(args[i]);
            int eq = prop.indexOf('=');
            props.put(prop.substring(0, eq), prop.substring(eq + 1));
        }
        mode = Mode.NORMAL;
        weatherStep = false;
        System.err.println("=== scenario of agent " + agentId + " on " + url);

        Tool bookFlight = Tool.builder("bookFlight").requireApproval(true).execute((input, ctx) -> {
            if (mode == Mode.HANG_IN_TOOL) {
                say("tool-started " + ctx.runId());
                Thread.sleep(Long.MAX_VALUE);
            }
            if (mode == Mode.SLOW_TOOL) {   // the test stops this JVM with SIGTERM now: the tool finishes within the grace
                say("tool-started " + ctx.runId());
                Thread.sleep(1500);
            }
            Files.writeString(sideEffects, ctx.runId() + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.SYNC);
            return Map.of("booked", input.path("to").asText());
        }).build();
        // step 2: a tool that needs no approval, with its own side effect line "<runId> weather"
        Tool getWeather = Tool.builder("getWeather").execute((input, ctx) -> {
            if (mode == Mode.HANG_IN_SECOND_TOOL) {
                say("second-tool-started " + ctx.runId());
                Thread.sleep(Long.MAX_VALUE);
            }
            Files.writeString(sideEffects, ctx.runId() + " weather\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.SYNC);
            return Map.of("tempC", 21);
        }).build();
        LanguageModel rules = DeterministicModel.builder().whenUserSays("flight", "bookFlight", Map.of("to", "SFO")).build();
        LanguageModel model = request -> {
            if (request.lastMessage() instanceof Message.ToolResult r) {
                boolean afterFirst = r.toolName().equals("bookFlight");
                if (mode == Mode.HANG_AFTER_TOOL && afterFirst || mode == Mode.HANG_AFTER_SECOND_TOOL && !afterFirst) {
                    say("model-waiting");
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                if (afterFirst && weatherStep) {
                    return java.util.stream.Stream.of(new dev.baton.model.ModelChunk.ToolCallRequest(
                            new dev.baton.model.ToolCall("w1", "getWeather", Json.object("city", "SFO"))));
                }
            }
            return rules.stream(request);
        };

        // the agent closes before the store (its hand-back writes to it); the agent's own shutdown hook does the same
        // on SIGTERM: it lets the tool under way finish and hands its run back before the JVM ends
        try (SnapshotStore store = SnapshotStores.open(url, props);
                Agent agent = Agent.builder(agentId).model(model).tools(bookFlight, getWeather).store(store)
                        .leaseDuration(lease).instanceId("worker-" + ProcessHandle.current().pid())
                        .shutdownGrace(Duration.ofSeconds(10)).closeOnShutdown().build()) {
            say("ready");
            String line;
            while ((line = in.readLine()) != null) {
                String[] cmd = line.trim().split(" ");
                try {
                    switch (cmd[0]) {
                        case "start" -> {
                            AgentResult r = agent.generate("Book a flight", RunOptions.builder().threadId(cmd[1]).build());
                            say("suspended " + r.runId() + " " + r.waitingCalls().get(0).toolCallId());
                        }
                        case "approve-at" -> {
                            // both racers approve at the same instant: asleep until 2 ms before it, then spinning to it
                            // (spinning the whole 150 ms cost two busy cores per round, 15 CPU-seconds per race)
                            long at = Long.parseLong(cmd[1]);
                            long early = at - 2 - System.currentTimeMillis();
                            if (early > 0) Thread.sleep(early);
                            while (System.currentTimeMillis() < at) Thread.onSpinWait();
                            approve(agent, cmd[2], cmd[3]);
                        }
                        case "approve" -> approve(agent, cmd[1], cmd[2]);
                        case "continue" -> {
                            try {
                                say("won " + agent.continueRun(cmd[1]).result().outcome());
                            } catch (dev.baton.RunNotSuspendedException | dev.baton.RunNotFoundException e) {
                                say("lost " + e.getClass().getSimpleName());
                            }
                        }
                        case "two-steps" -> {
                            weatherStep = true;
                            say("ok");
                        }
                        case "approve-hang-in-second-tool" -> {
                            mode = Mode.HANG_IN_SECOND_TOOL;
                            agent.approveToolCall(cmd[1], cmd[2]).result();
                        }
                        case "approve-hang-after-second-tool" -> {
                            mode = Mode.HANG_AFTER_SECOND_TOOL;
                            agent.approveToolCall(cmd[1], cmd[2]).result();
                        }
                        case "approve-slow-tool" -> {
                            mode = Mode.SLOW_TOOL;
                            say("won " + agent.approveToolCall(cmd[1], cmd[2]).result().outcome());
                        }
                        case "approve-hang-in-tool" -> {
                            mode = Mode.HANG_IN_TOOL;
                            agent.approveToolCall(cmd[1], cmd[2]).result();
                        }
                        case "approve-hang-after-tool" -> {
                            mode = Mode.HANG_AFTER_TOOL;
                            agent.approveToolCall(cmd[1], cmd[2]).result();
                        }
                        case "list" -> {
                            AgentListSuspendedRunsResult found = agent.listSuspendedRuns();
                            StringBuilder b = new StringBuilder("listed " + found.total());
                            for (AgentRun run : found.runs()) b.append(' ').append(run.runId());
                            say(b.toString());
                        }
                        case "end" -> {
                            return true;
                        }
                        case "exit" -> {
                            say("bye");
                            return false;
                        }
                        default -> say("error unknown-command " + cmd[0]);
                    }
                } catch (RuntimeException e) {
                    say("error " + e.getClass().getSimpleName() + " " + String.valueOf(e.getMessage()).replace('\n', ' '));
                }
            }
            return false;
        }
    }

    private static void approve(Agent agent, String runId, String callId) {
        try {
            AgentResult r = agent.approveToolCall(runId, callId).result();
            say("won " + r.outcome());
        } catch (dev.baton.RunNotSuspendedException | dev.baton.RunNotFoundException e) {
            say("lost " + e.getClass().getSimpleName());
        }
    }

    private static synchronized void say(String line) {
        OUT.println("@@ " + line);
        OUT.flush();
    }

    /** Reads one protocol answer from a worker's output. */
    static String readAnswer(BufferedReader from) throws IOException {
        String line;
        while ((line = from.readLine()) != null) {
            if (line.startsWith("@@ ")) return line.substring(3);
        }
        throw new IOException("worker ended without answering");
    }
}
