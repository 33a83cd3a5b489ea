package dev.baton.mcp;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentRun;
import dev.baton.agent.AgentRunToolCall;
import dev.baton.agent.AgentStream;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStore;
import dev.baton.store.SnapshotStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The second JVM of {@link McpTwoJvmTest}: builds the same agent over the same store and the same
 * MCP server configuration as the test's JVM, and approves the run that waits. Prints
 * {@code server-pid N} once its MCP server runs, then {@code outcome OUTCOME}.
 *
 * <p>{@code java -cp CLASSPATH dev.baton.mcp.McpWorker STORE_URL ROOT approve}
 */
public final class McpWorker {
    static final String AGENT = "notes-agent";

    private McpWorker() {
    }

    /** The toolset both JVMs build: the notes server over stdio, its write tool under approval. */
    static McpToolset toolset(Path root) {
        return McpToolset.of(TestServers.stdio("notes", root).toolPrefix("notes_").approval(McpApprovalPolicy.unlessReadOnly()).build());
    }

    /** The agent both JVMs build: "note" writes todo.txt, "slow" writes slow.txt taking 30 s the first time. */
    static Agent agent(SnapshotStore store, McpToolset toolset) {
        return Agent.builder(AGENT).store(store).tools(toolset.tools()).leaseDuration(Duration.ofSeconds(2))
                .model(DeterministicModel.builder()
                        .whenUserSays("note", "notes_write_file", Map.of("path", "todo.txt", "content", "buy milk"))
                        .whenUserSays("slow", "notes_write_file", Map.of("path", "slow.txt", "content", "late", "delay_ms", 30_000))
                        .build())
                .build();
    }

    public static void main(String[] args) throws Exception {
        String storeUrl = args[0];
        Path root = Path.of(args[1]);
        if (!args[2].equals("approve")) throw new IllegalArgumentException("unknown command " + args[2]);
        try (SnapshotStore store = SnapshotStores.open(storeUrl);
             McpToolset toolset = toolset(root);
             Agent agent = agent(store, toolset)) {
            System.out.println("server-pid " + toolset.connection("notes").process().orElseThrow().pid());
            System.out.flush();
            AgentRun run = agent.listSuspendedRuns().runs().get(0);
            AgentRunToolCall call = run.toolCalls().get(0);
            try (AgentStream approved = agent.approveToolCall(run.runId(), call.toolCallId())) {
                System.out.println("outcome " + approved.result().outcome());
            }
        }
        System.out.flush();
        System.exit(0);
    }
}
