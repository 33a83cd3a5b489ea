package dev.baton.quickstart;

// This file is the README's quickstart, verbatim below the package line: QuickstartTest runs it.
import dev.baton.agent.*;
import dev.baton.model.DeterministicModel;
import dev.baton.store.SnapshotStores;
import dev.baton.tool.Tool;
import java.util.Map;

public class Quickstart {
    public static void main(String[] args) {
        Tool bookFlight = Tool.builder("bookFlight")
            .description("Books a flight")
            .requireApproval(true)
            .execute((input, ctx) -> Map.of("booked", input.path("to").asText()))
            .build();

        Agent agent = Agent.builder("travel-agent")
            .instructions("You help with travel.")
            .model(DeterministicModel.builder().whenUserSays("flight", "bookFlight", Map.of("to", "SFO")).build())
            .tools(bookFlight)
            .store(SnapshotStores.open("memory:")) // or jdbc:h2:./data/baton, jdbc:postgresql://..., redis://..., mongodb://...
            .build();

        // 1. The run pauses: bookFlight needs a human's approval.
        AgentResult first = agent.generate("Book me a flight to SF",
            RunOptions.builder().threadId("thread-123").resourceId("user-456").build());
        System.out.println(first.outcome()); // SUSPENDED

        // 2. Later, on any server that shares the store: find it ...
        AgentRun run = agent.listSuspendedRuns(AgentListSuspendedRunsOptions.builder()
            .resourceId("user-456").build()).runs().get(0);
        AgentRunToolCall call = run.toolCalls().get(0);
        System.out.println(run.runId() + " waits for " + call.toolName() + " " + call.args());

        // 3. ... and resume it. Of several concurrent approvals, exactly one wins.
        try (AgentStream stream = agent.approveToolCall(run.runId(), call.toolCallId())) {
            for (AgentEvent e : stream) System.out.println(e.type());
        }
    }
}
