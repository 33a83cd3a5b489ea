package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentEvent;
import dev.baton.agent.AgentResult;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.AgentStream;
import dev.baton.agent.RunOptions;
import dev.baton.agent.RunOutcome;
import dev.baton.mcp.testserver.NotesServer;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which MCP calls wait for a person, and what happens when they are approved or declined. */
class McpApprovalTest {
    @TempDir static Path root;
    private static NotesServer.Http server;
    private SnapshotStore store;
    private McpToolset toolset;

    @BeforeAll
    static void start() throws Exception {
        server = NotesServer.http(0, root);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void clearLedger() throws Exception {
        Files.deleteIfExists(root.resolve("ledger.txt"));
        store = SnapshotStores.open("memory:");
    }

    @AfterEach
    void close() {
        if (toolset != null) toolset.close();
        store.close();
    }

    private McpServerConfig.Builder notes() {
        return McpServerConfig.streamableHttp("notes", "http://127.0.0.1:" + server.port() + "/mcp").toolPrefix("notes_");
    }

    /** An agent whose model calls {@code tool} with {@code args} when the user says "go". */
    private Agent agent(McpServerConfig config, String tool, Map<String, Object> args) {
        toolset = McpToolset.of(config);
        return Agent.builder("notes-agent").store(store).tools(toolset.tools())
                .model(DeterministicModel.builder().whenUserSays("go", tool, args).build()).build();
    }

    private static RunOptions forUser(String resourceId) {
        return RunOptions.builder().resourceId(resourceId).threadId(resourceId + "-thread").build();
    }

    @Test
    void aDestructiveToolWaitsForApprovalIsListedAndRunsOnceWhenApproved() throws Exception {
        Agent agent = agent(notes().approval(McpApprovalPolicy.unlessReadOnly()).build(),
                "notes_write_file", Map.of("path", "todo.txt", "content", "buy milk"));

        AgentResult first = agent.generate("go", forUser("alice"));

        assertThat(first.outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(TestServers.ledger(root)).isEmpty();
        AgentRun run = agent.listSuspendedRuns().runs().get(0);
        AgentRunToolCall call = run.toolCalls().get(0);
        assertThat(run.runId()).isEqualTo(first.runId());
        assertThat(call.toolName()).isEqualTo("notes_write_file");
        assertThat(call.requiresApproval()).isTrue();
        assertThat(call.args().path("content").asText()).isEqualTo("buy milk");

        try (AgentStream approved = agent.approveToolCall(run.runId(), call.toolCallId())) {
            AgentResult result = approved.result();
            assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
            assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolResult).singleElement()
                    .extracting(e -> ((AgentEvent.ToolResult) e).result().asText()).isEqualTo("Wrote 8 bytes to todo.txt");
        }
        assertThat(Files.readString(root.resolve("files/todo.txt"))).isEqualTo("buy milk");
        assertThat(TestServers.ledger(root)).containsExactly("write_file todo.txt key=" + run.runId() + ":" + call.toolCallId() + " attempt=1");
        assertThatThrownBy(() -> agent.approveToolCall(run.runId(), call.toolCallId()).result())
                .as("a completed run is gone: a second approval is told it was decided and nothing runs")
                .isInstanceOf(dev.baton.AlreadyDecidedException.class);
        assertThat(TestServers.ledger(root)).hasSize(1);
    }

    @Test
    void aReadOnlyToolRunsAtOnceUnderUnlessReadOnly() {
        Agent agent = agent(notes().approval(McpApprovalPolicy.unlessReadOnly()).build(),
                "notes_file_info", Map.of("path", "todo.txt"));

        AgentResult result = agent.generate("go", forUser("alice"));

        assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(result.eventTypes()).doesNotContain("tool-call-approval");
        assertThat(agent.listSuspendedRuns().runs()).isEmpty();
    }

    @Test
    void withoutAPolicyEvenAReadOnlyToolWaits() {
        Agent agent = agent(notes().build(), "notes_file_info", Map.of("path", "todo.txt"));

        assertThat(agent.generate("go", forUser("alice")).outcome()).isEqualTo(RunOutcome.SUSPENDED);
    }

    @Test
    void whenDestructiveLetsAnAdditiveToolRunAndStopsADestructiveOne() {
        McpServerConfig config = notes().approval(McpApprovalPolicy.whenDestructive()).build();
        Agent append = agent(config, "notes_append_line", Map.of("path", "log.txt", "line", "hello"));
        assertThat(append.generate("go", forUser("alice")).outcome()).isEqualTo(RunOutcome.COMPLETED);
        toolset.close();

        Agent write = agent(config, "notes_write_file", Map.of("path", "log.txt", "content", "gone"));
        assertThat(write.generate("go", forUser("alice")).outcome()).isEqualTo(RunOutcome.SUSPENDED);
    }

    @Test
    void aToolsOwnPolicySeesTheArgumentsAndTheRun() throws Exception {
        McpServerConfig config = notes().approval(McpApprovalPolicy.never())
                .approval("write_file", call -> !"ops".equals(call.run().resourceId())
                        || call.arguments().path("path").asText().startsWith("etc/"))
                .build();
        Agent agent = agent(config, "notes_write_file", Map.of("path", "notes.txt", "content", "x"));

        assertThat(agent.generate("go", forUser("ops")).outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(agent.generate("go", forUser("alice")).outcome()).isEqualTo(RunOutcome.SUSPENDED);
        assertThat(TestServers.ledger(root)).hasSize(1);
    }

    @Test
    void aPolicySeesWhatTheServerSaysAndWhoAsks() {
        List<McpToolCall> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        Agent agent = agent(notes().approval(call -> seen.add(call)).build(), "notes_write_file", Map.of("path", "a.txt", "content", "x"));

        AgentResult result = agent.generate("go", forUser("alice"));

        McpToolCall call = seen.get(0);
        assertThat(call.server()).isEqualTo("notes");
        assertThat(call.mcpToolName()).isEqualTo("write_file");
        assertThat(call.toolName()).isEqualTo("notes_write_file");
        assertThat(call.hints()).isEqualTo(new McpToolHints("Write file", false, true, null, null));
        assertThat(call.run().runId()).isEqualTo(result.runId());
        assertThat(call.run().agentId()).isEqualTo("notes-agent");
        assertThat(call.run().resourceId()).isEqualTo("alice");
        assertThat(call.run().threadId()).isEqualTo("alice-thread");
        assertThat(call.arguments().path("path").asText()).isEqualTo("a.txt");
    }

    @Test
    void aPolicyThatChangesTheArgumentsItSeesChangesNothingStoredOrSent() throws Exception {
        Agent agent = agent(notes().approval(call -> {
            ((com.fasterxml.jackson.databind.node.ObjectNode) call.arguments()).put("path", "MUTATED.txt");
            McpToolCall copy = new McpToolCall(call.server(), call.mcpToolName(), call.toolName(), call.arguments(), call.hints(), call.run());
            ((com.fasterxml.jackson.databind.node.ObjectNode) copy.arguments()).removeAll();
            return true;
        }).build(), "notes_write_file", Map.of("path", "todo.txt", "content", "milk"));

        AgentResult first = agent.generate("go", forUser("alice"));
        AgentRunToolCall waiting = agent.listSuspendedRuns().runs().get(0).toolCalls().get(0);
        assertThat(waiting.args().path("path").asText()).as("what is listed for approval").isEqualTo("todo.txt");
        try (AgentStream approved = agent.approveToolCall(first.runId(), waiting.toolCallId())) {
            assertThat(approved.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        }

        assertThat(Files.readString(root.resolve("files/todo.txt"))).as("what was approved is what ran").isEqualTo("milk");
        assertThat(root.resolve("files/MUTATED.txt")).doesNotExist();
    }

    @Test
    void aPolicyThatThrowsMeansApproval() {
        Agent agent = agent(notes().approval(McpApprovalPolicy.never()).approval("file_info", call -> {
            throw new IllegalStateException("policy store down");
        }).build(), "notes_file_info", Map.of("path", "a.txt"));

        assertThat(agent.generate("go", forUser("alice")).outcome()).isEqualTo(RunOutcome.SUSPENDED);
    }

    @Test
    void aDeclinedCallIsNeverSent() throws Exception {
        Agent agent = agent(notes().build(), "notes_write_file", Map.of("path", "todo.txt", "content", "no"));
        AgentResult first = agent.generate("go", forUser("alice"));
        String callId = agent.listSuspendedRuns().runs().get(0).toolCalls().get(0).toolCallId();

        try (AgentStream declined = agent.declineToolCall(first.runId(), callId, "not today")) {
            assertThat(declined.result().outcome()).isEqualTo(RunOutcome.COMPLETED);
        }
        assertThat(TestServers.ledger(root)).isEmpty();
    }

    @Test
    void aFailingToolIsAToolErrorTheModelSeesAndTheRunGoesOn() {
        Agent agent = agent(notes().approval(McpApprovalPolicy.never()).build(), "notes_always_fails", Map.of("reason", "quota"));

        AgentResult result = agent.generate("go", forUser("alice"));

        assertThat(result.outcome()).isEqualTo(RunOutcome.COMPLETED);
        assertThat(result.events()).filteredOn(e -> e instanceof AgentEvent.ToolError).singleElement()
                .extracting(e -> ((AgentEvent.ToolError) e).error()).isEqualTo("Cannot do that: quota");
    }
}
