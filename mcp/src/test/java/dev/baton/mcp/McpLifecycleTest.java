package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOutcome;
import dev.baton.mcp.McpToolCallException.Kind;
import dev.baton.mcp.McpToolMappingTest.TestContext;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import dev.baton.tool.Tool;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Connecting lazily, finding dead servers, timeouts, and leaving no process behind. */
class McpLifecycleTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir Path root;

    static Object call(McpToolset toolset, String tool, String args) throws Exception {
        Tool t = toolset.tools().stream().filter(x -> x.name().equals(tool)).findFirst().orElseThrow();
        return t.executor().execute(JSON.readTree(args.replace('\'', '"')), new TestContext("run-1", "call-1", 1));
    }

    static ProcessHandle serverProcess(McpToolset toolset) {
        return toolset.connection("notes").process().orElseThrow(() -> new AssertionError("the server's process is not known"));
    }

    static Set<Long> children() {
        return ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    static void awaitGone(long pid, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            if (System.nanoTime() > deadline) throw new AssertionError("process " + pid + " is still alive after " + within);
            Thread.sleep(50);
        }
    }

    /** An agent over a memory store whose model writes todo.txt when the user says "save"; write_file waits for approval. */
    static Agent writer(McpToolset toolset, SnapshotStore store) {
        return Agent.builder("writer").store(store).tools(toolset.tools())
                .model(DeterministicModel.builder().whenUserSays("save", "write_file", Map.of("path", "todo.txt", "content", "milk")).build())
                .build();
    }

    static String approveTheWaitingCall(Agent agent) {
        var run = agent.listSuspendedRuns().runs().get(0);
        AgentRunToolCall call = run.toolCalls().get(0);
        try (AgentStream approved = agent.approveToolCall(run.runId(), call.toolCallId())) {
            AgentResult result = approved.result();
            assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(result.events()).as("the approved call ran").noneMatch(e -> e instanceof AgentEvent.ToolError)
                    .anyMatch(e -> e instanceof AgentEvent.ToolResult);
        }
        return run.runId() + ":" + call.toolCallId();
    }

    @Nested
    class Stdio {

        @Test
        void buildingAToolsetStartsNothingAndListingItsToolsStartsTheServer() throws Exception {
            Set<Long> before = children();
            try (McpToolset toolset = McpToolset.of(TestServers.stdio("notes", root).build())) {
                Thread.sleep(200);
                assertThat(children()).isEqualTo(before);
                assertThat(toolset.connection("notes").process()).isEmpty();

                assertThat(toolset.tools()).isNotEmpty();

                assertThat(serverProcess(toolset).isAlive()).isTrue();
                assertThat(before).doesNotContain(serverProcess(toolset).pid());
            }
        }

        @Test
        void closeStopsTheServerAndEveryProcessItStarted() throws Exception {
            Path pids = root.resolve("pids.txt");
            McpToolset toolset = McpToolset.of(TestServers.stdio("notes", root, "--spawn-child", pids.toString()).build());
            toolset.tools();
            String[] both = Files.readString(pids).trim().split(" ");
            long server = Long.parseLong(both[0]);
            long grandchild = Long.parseLong(both[1]);
            assertThat(serverProcess(toolset).pid()).isEqualTo(server);
            assertThat(ProcessHandle.of(grandchild).map(ProcessHandle::isAlive)).hasValue(true);

            toolset.close();

            awaitGone(server, Duration.ofSeconds(5));
            awaitGone(grandchild, Duration.ofSeconds(5));
            toolset.close();   // idempotent
        }

        @Test
        void closeKillsAServerThatDoesNotStopWithinTheShutdownTimeout() throws Exception {
            McpToolset toolset = McpToolset.of(TestServers.stdio("notes", root, "--ignore-term")
                    .shutdownTimeout(Duration.ofSeconds(1)).build());
            toolset.tools();
            long pid = serverProcess(toolset).pid();

            long t0 = System.nanoTime();
            toolset.close();

            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
            awaitGone(pid, Duration.ofSeconds(5));
        }

        @Test
        void aServerThatDiesMidCallFailsThatCallAtOnceAndTheNextCallStartsANewServer() throws Exception {
            try (McpToolset toolset = McpToolset.of(TestServers.stdio("notes", root).callTimeout(Duration.ofMinutes(2)).build())) {
                toolset.tools();
                long first = serverProcess(toolset).pid();

                long t0 = System.nanoTime();
                assertThatThrownBy(() -> call(toolset, "halt", "{}"))
                        .isInstanceOfSatisfying(McpToolCallException.class, e -> {
                            assertThat(e.kind()).isEqualTo(Kind.CONNECTION_LOST);
                            assertThat(e.retryable()).isTrue();
                        })
                        .hasMessage("The connection to the MCP server 'notes' ended during the call of halt (its process exited); "
                                + "the call may or may not have taken effect.");
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("not the call timeout").isLessThan(Duration.ofSeconds(30));

                assertThat(call(toolset, "file_info", "{'path':'x'}").toString()).contains("\"exists\":false");
                assertThat(serverProcess(toolset).pid()).isNotEqualTo(first);
            }
        }

        @Test
        void aServerRestartedBetweenSuspensionAndApprovalRunsTheApprovedCallOnce() throws Exception {
            try (SnapshotStore store = SnapshotStores.open("memory:");
                 McpToolset toolset = McpToolset.of(TestServers.stdio("notes", root).approval("write_file", McpApprovalPolicy.always()).build())) {
                Agent agent = writer(toolset, store);
                assertThat(agent.generate("save it").outcome()).isEqualTo(RunOutcome.SUSPENDED);
                ProcessHandle first = serverProcess(toolset);
                first.destroyForcibly();
                awaitGone(first.pid(), Duration.ofSeconds(10));

                String key = approveTheWaitingCall(agent);

                assertThat(TestServers.ledger(root)).containsExactly("write_file todo.txt key=" + key + " attempt=1");
                assertThat(serverProcess(toolset).pid()).isNotEqualTo(first.pid());
            }
        }

        @Test
        void aCallLongerThanTheCallTimeoutFailsWithTimeoutAndTheServerStaysUsable() throws Exception {
            try (McpToolset toolset = McpToolset.of(TestServers.stdio("notes", root).callTimeout(Duration.ofSeconds(1)).build())) {
                assertThatThrownBy(() -> call(toolset, "write_file", "{'path':'slow.txt','content':'x','delay_ms':4000}"))
                        .isInstanceOfSatisfying(McpToolCallException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TIMEOUT))
                        .hasMessageContaining("gave write_file no answer in time (no answer within 1 s); the call may still take effect");

                assertThat(call(toolset, "file_info", "{'path':'x'}").toString()).contains("\"exists\":false");
            }
        }

        @Test
        void anInterruptedCallStopsWaitingAtOnce() throws Exception {
            try (McpToolset toolset = McpToolset.of(TestServers.stdio("notes", root).build())) {
                toolset.tools();
                java.util.concurrent.CompletableFuture<Throwable> thrown = new java.util.concurrent.CompletableFuture<>();
                Thread caller = new Thread(() -> {
                    try {
                        call(toolset, "write_file", "{'path':'slow.txt','content':'x','delay_ms':30000}");
                        thrown.complete(null);
                    } catch (Throwable t) {
                        thrown.complete(t);
                    }
                });
                caller.start();
                McpTwoJvmTest.awaitLine(root.resolve("started.txt"), "write_file slow.txt", Duration.ofSeconds(30));

                long t0 = System.nanoTime();
                caller.interrupt();

                assertThat(thrown.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
            }
        }

        @Test
        void aProgramThatCannotStartIsReportedAtOnceWithTheServersNameAndCommand() {
            long t0 = System.nanoTime();
            try (McpToolset toolset = McpToolset.of(McpServerConfig.stdio("notes", root.resolve("no-such-program").toString())
                    .connectTimeout(Duration.ofMinutes(2)).build())) {
                assertThatThrownBy(toolset::tools).isInstanceOfSatisfying(McpException.class, e -> assertThat(e.serverName()).isEqualTo("notes"))
                        .hasMessageContaining("Could not list the tools of the MCP server 'notes' (stdio: " + root.resolve("no-such-program"))
                        .hasMessageContaining("No such file or directory")
                        .hasMessageContaining("Check that the server starts");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("not the connect timeout").isLessThan(Duration.ofSeconds(30));
        }

        @Test
        void aServerWhoseProcessExitsAtStartIsReportedAtOnce() {
            long t0 = System.nanoTime();
            try (McpToolset toolset = McpToolset.of(McpServerConfig.stdio("notes", TestServers.java(), "-cp", root.toString(), "NoSuchMain")
                    .connectTimeout(Duration.ofMinutes(2)).build())) {
                assertThatThrownBy(toolset::tools).isInstanceOf(McpException.class)
                        .hasMessageContaining("its process exited during the MCP handshake");
            }
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("not the connect timeout").isLessThan(Duration.ofSeconds(30));
        }
    }

    @Nested
    class StreamableHttp {

        @ParameterizedTest(name = "pingAfterIdle {0} s")
        @ValueSource(ints = {0, 30})   // found by the ping before the call, or by the call itself
        void aServerRestartedBetweenSuspensionAndApprovalRunsTheApprovedCallOnce(int pingAfterIdle) throws Exception {
            TestServers.HttpProcess first = TestServers.HttpProcess.start(0, root);
            int port = first.port;
            try (SnapshotStore store = SnapshotStores.open("memory:");
                 McpToolset toolset = McpToolset.of(McpServerConfig.streamableHttp("notes", first.url())
                         .pingAfterIdle(Duration.ofSeconds(pingAfterIdle))
                         .approval("write_file", McpApprovalPolicy.always()).build())) {
                Agent agent = writer(toolset, store);
                assertThat(agent.generate("save it").outcome()).isEqualTo(RunOutcome.SUSPENDED);
                first.kill();

                try (TestServers.HttpProcess second = TestServers.HttpProcess.start(port, root)) {
                    String key = approveTheWaitingCall(agent);

                    assertThat(TestServers.ledger(root)).containsExactly("write_file todo.txt key=" + key + " attempt=1");
                }
            } finally {
                first.close();
            }
        }

        @Test
        void aServerThatDiesMidCallFailsThatCallAndTheNextCallReachesItsSuccessor() throws Exception {
            TestServers.HttpProcess first = TestServers.HttpProcess.start(0, root);
            try (McpToolset toolset = McpToolset.of(McpServerConfig.streamableHttp("notes", first.url())
                    .callTimeout(Duration.ofSeconds(10)).build())) {
                toolset.tools();

                assertThatThrownBy(() -> call(toolset, "halt", "{}"))
                        .isInstanceOfSatisfying(McpToolCallException.class,
                                e -> assertThat(e.kind()).isIn(Kind.CONNECTION_LOST, Kind.TIMEOUT))
                        .hasMessageContaining("may");
                first.process.waitFor(10, TimeUnit.SECONDS);

                try (TestServers.HttpProcess second = TestServers.HttpProcess.start(first.port, root)) {
                    assertThat(call(toolset, "file_info", "{'path':'x'}").toString()).contains("\"exists\":false");
                }
            } finally {
                first.close();
            }
        }

        @Test
        void aCallToAServerThatIsDownIsNotSentAndSaysSo() throws Exception {
            TestServers.HttpProcess server = TestServers.HttpProcess.start(0, root);
            try (McpToolset toolset = McpToolset.of(McpServerConfig.streamableHttp("notes", server.url()).build())) {
                toolset.tools();
                server.kill();

                assertThatThrownBy(() -> call(toolset, "write_file", "{'path':'a.txt','content':'x'}"))
                        .isInstanceOfSatisfying(McpToolCallException.class, e -> {
                            assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
                            assertThat(e.retryable()).isTrue();
                        })
                        .hasMessageStartingWith("The MCP server 'notes' could not be reached, so write_file was not called");
            } finally {
                server.close();
            }
        }

        @Test
        void listingTheToolsOfAServerThatIsDownFailsWithItsName() throws Exception {
            int port;
            try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = free.getLocalPort();
            }
            try (McpToolset toolset = McpToolset.of(McpServerConfig.streamableHttp("notes", "http://127.0.0.1:" + port + "/mcp")
                    .connectTimeout(Duration.ofSeconds(5)).build())) {
                assertThatThrownBy(toolset::tools)
                        .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.retryable()).as("a server that is down may come up").isTrue())
                        .hasMessageContaining("Could not list the tools of the MCP server 'notes' (streamable HTTP: http://127.0.0.1:" + port + "/mcp)");
            }
        }
    }
}
